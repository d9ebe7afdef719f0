//! The README quotes no figure by hand: its answer cards are generated from the committed
//! standard reports' `report.json`, and this test fails when the two differ. After
//! regenerating the reports, `FAIRYLAB_BLESS=1 cargo test --release --test readme`
//! writes the block again.

use std::path::Path;

const BEGIN: &str = "<!-- answer-cards:begin -->\n";
const END: &str = "<!-- answer-cards:end -->";

#[test]
fn the_readme_answer_cards_are_the_standard_reports_cards() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme_path = root.join("README.md");
    let readme = std::fs::read_to_string(&readme_path).unwrap();
    let start = readme.find(BEGIN).expect("README has the answer-card begin marker") + BEGIN.len();
    let end = readme[start..].find(END).expect("README has the answer-card end marker") + start;
    let block =
        fairylab::report::card::front_page(&root.join("data/reports/standard"), "data/reports/standard").unwrap();
    assert!(block.contains("F/R"), "the bomber games headline their bomber against the rook:\n{block}");
    assert!(block.lines().count() >= 5, "one card per shipped game:\n{block}");
    if readme[start..end] != block {
        if std::env::var_os("FAIRYLAB_BLESS").is_some() {
            let text = format!("{}{block}{}", &readme[..start], &readme[end..]);
            std::fs::write(&readme_path, text).unwrap();
            return;
        }
        panic!(
            "README's answer cards differ from data/reports/standard/*/report.json; run \
             FAIRYLAB_BLESS=1 cargo test --release --test readme\n--- README\n{}\n--- generated\n{block}",
            &readme[start..end]
        );
    }
}
