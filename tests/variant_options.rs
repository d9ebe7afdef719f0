//! Variant options name the pieces whose worth they change, for reports that compare a
//! piece with and without the option.

use fairylab::Variant;

#[test]
fn each_seed_option_names_the_piece_it_changes() {
    let v = Variant::load("flying-bombers-grand", &[]).unwrap();
    // Declared in the file: the landing rule is about the bomber.
    assert_eq!(v.option_pieces("immediate-landing"), ['F']);
    // Not declared: the pieces its patch redefines.
    assert_eq!(v.option_pieces("super-jump-knights"), ['N']);
    assert!(v.option_pieces("no-such-option").is_empty());
}

fn chess_with(option: &str) -> String {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/configs/variants/chess.toml")).unwrap();
    format!("{text}\n{option}")
}

#[test]
fn an_option_may_name_no_piece_but_not_an_unknown_one() {
    let quiet = chess_with("[options.fast]\ndescription = \"x\"\n[options.fast.patch.draw]\nno_progress_plies = 50\n");
    assert!(Variant::from_toml(&quiet, &[]).unwrap().option_pieces("fast").is_empty());
    let bad = chess_with(
        "[options.fast]\ndescription = \"x\"\npieces = [\"Z\"]\n[options.fast.patch.draw]\nno_progress_plies = 50\n",
    );
    let err = Variant::from_toml(&bad, &[]).unwrap_err().to_string();
    assert!(err.contains("fast") && err.contains('Z'), "{err}");
}
