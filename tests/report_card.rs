//! The answer card: a report of a variant file nobody shipped names each new piece with a
//! ratio to an orthodox piece, the card leads the page and the command's output, and
//! `report.json` carries it as its `answer` object; a study of a larger regression feeds
//! the card when its interval is narrower, named as the source; a drawish game is named.

use fairylab::report::study::Study;
use fairylab::report::ReportData;
use fairylab::values::table::ValueRow;
use std::path::PathBuf;
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fairylab-card-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A designer's own file: two new pieces, one replacing the knight, no report section.
const MY_VARIANT: &str = r#"
name = "card-test-variant"
title = "Card Test Chess"
start = "rhbqkbcr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBCR w - - 0 1"
board = { files = 8, ranks = 8 }
[pieces]
K = { name = "king", movement = "K", royal = true }
Q = { name = "queen", movement = "Q" }
R = { name = "rook", movement = "R" }
B = { name = "bishop", movement = "B" }
P = { name = "pawn", pawn = true }
C = { name = "champion", movement = "WAD" }
H = { name = "hawk", movement = "FDH", replaces = "N" }
[pawn]
start_rank = 2
capture = "diagonal"
promotion_rank = 8
promotion = ["Q", "R", "B", "C", "H"]
"#;

#[test]
fn a_user_variant_gets_a_card_with_each_new_piece_against_an_orthodox_one() {
    let dir = scratch("user");
    let file = dir.join("mine.toml");
    std::fs::write(&file, MY_VARIANT).unwrap();
    let out = dir.join("report");
    let run = Command::new(env!("CARGO_BIN_EXE_fairylab"))
        .args(["report", "--budget", "tiny", "--quiet", "--variant"])
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.starts_with("## Answer card: Card Test Chess"), "the card comes first:\n{stdout}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let answer = &json["answer"];
    assert_eq!(answer["unit"]["name"], "orthodox-scale", "{answer:#}");
    assert_eq!(answer["unit"]["anchor"], "Q + R + B = 17 (textbook 9, 5, 3)", "{answer:#}");
    let compared: Vec<(String, String)> = answer["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["piece"].as_str().unwrap().to_string(), c["other"].as_str().unwrap().to_string()))
        .collect();
    // The hawk against the knight it replaces; the champion against an orthodox piece of
    // this game.
    assert!(compared.contains(&("H".into(), "N".into())), "{compared:?}");
    let champion = compared.iter().find(|c| c.0 == "C").expect("the champion has a comparison");
    assert!(["Q", "R", "B"].contains(&champion.1.as_str()), "{champion:?}");
    for c in answer["comparisons"].as_array().unwrap() {
        for key in ["ratio", "difference"] {
            let iv = &c[key];
            assert!(iv.get("value").is_some() && iv.get("low").is_some() && iv.get("high").is_some(), "{c:#}");
        }
    }
    // Every piece but the king is on the card, each with its evidence.
    let letters: Vec<&str> =
        answer["pieces"].as_array().unwrap().iter().map(|p| p["letter"].as_str().unwrap()).collect();
    for l in ["B", "C", "H", "P", "Q", "R"] {
        assert!(letters.contains(&l), "{letters:?}");
    }
    for p in answer["pieces"].as_array().unwrap() {
        for key in ["name", "method", "source", "why"] {
            assert!(p[key].as_str().is_some_and(|s| !s.is_empty()), "{key} of {p:#}");
        }
    }
    assert!(answer["engine"].as_str().unwrap().contains("commit"), "{answer:#}");
    // Each value carries the node budget its games were played at (tiny: 100), and the
    // card's evidence names it.
    let values = json["piece_values"].as_array().unwrap();
    assert!(!values.is_empty() && values.iter().all(|v| v["nodes"] == 100), "{values:#?}");
    for p in answer["pieces"].as_array().unwrap().iter().filter(|p| p["source"] == "this report") {
        assert!(p["why"].as_str().unwrap().contains("at 100 nodes"), "{p:#}");
    }
    let page = std::fs::read_to_string(out.join("report.md")).unwrap();
    let card_at = page.find("## Answer card").unwrap();
    let first_section = page.find("\n## ").unwrap();
    assert_eq!(card_at, first_section + 1, "the card is the page's first section");
    let _ = std::fs::remove_dir_all(&dir);
}

fn standard(folder: &str) -> ReportData {
    let text = std::fs::read_to_string(format!("data/reports/standard/{folder}/report.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn scaled_row(piece: &str, unit: &str, (value, low, high): (f64, f64, f64), games: u64) -> ValueRow {
    ValueRow {
        variant: "flying-bombers-grand".into(),
        options: String::new(),
        piece: piece.into(),
        value,
        ci_low: low,
        ci_high: high,
        support: Default::default(),
        unit: unit.into(),
        method: "regression-logistic".parse().unwrap(),
        games,
        nodes: 2000,
        seed: 1,
        version: "0.1.0".into(),
        note: String::new(),
    }
}

#[test]
fn a_narrower_study_feeds_the_card_and_is_named_as_its_source() {
    let dir = scratch("study");
    let rows = vec![
        scaled_row("F", "orthodox-scale", (5.2, 5.0, 5.4), 9000),
        scaled_row("R", "orthodox-scale", (5.0, 4.8, 5.2), 9000),
        scaled_row("F/R", "ratio", (1.04, 1.0, 1.08), 9000),
        scaled_row("F-R", "orthodox-scale", (0.2, 0.0, 0.4), 9000),
    ];
    let path = dir.join("values.csv");
    fairylab::values::table::write(&dir, &rows).unwrap();
    let studies = Study::read(&path).unwrap();
    assert!(studies.iter().all(|s| s.for_card_only()), "one estimator: card evidence only");
    let mut d = standard("flying-bombers-grand");
    d.evidence.clear();
    fairylab::report::study::attach(&mut d, &studies);
    assert_eq!(d.evidence.len(), 1, "kept apart from the studies that compare estimators");
    d.derive();
    let card = d.answer.clone().unwrap();
    assert_eq!(card.unit.name, "orthodox-scale");
    let fr = card.comparisons.iter().find(|c| c.piece == "F" && c.other == "R").unwrap();
    assert_eq!((fr.ratio.value, fr.ratio.low, fr.ratio.high), (1.04, 1.0, 1.08));
    assert!(fr.source.contains("study"), "{fr:?}");
    let f = card.pieces.iter().find(|p| p.letter == "F").unwrap();
    assert_eq!((f.value, f.source.starts_with("study")), (5.2, true), "{f:?}");
    // The page opens with the card.
    let page = fairylab::report::render_markdown(&d);
    assert!(page.contains("**F/R** = 1.04 [1.00, 1.08]"), "{}", &page[..page.len().min(2000)]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn balance_names_a_drawish_game() {
    let mut bland = standard("bland-chess-46");
    bland.derive();
    let b = bland.answer.unwrap().balance.unwrap();
    assert!(b.drawish && b.verdict.contains("drawish"), "{b:?}");
    let mut grand = standard("flying-bombers-grand");
    grand.derive();
    let b = grand.answer.unwrap().balance.unwrap();
    assert!(!b.drawish && b.verdict.contains("decisive"), "{b:?}");
}

/// An option that changes an orthodox piece moves the anchor: Super Jump Knights leaves
/// the knight out of the orthodox scale, and the card says on which scale the new knight
/// stands; an option that changes only the bomber keeps the card's scale.
#[test]
fn an_option_that_changes_an_orthodox_piece_states_its_own_scale() {
    let mut grand = standard("flying-bombers-grand");
    grand.derive();
    let card = grand.answer.unwrap();
    let option = |name: &str| card.options.iter().find(|o| o.option == name).unwrap().clone();
    let sjk = option("super-jump-knights");
    let anchor = sjk.anchor.as_deref().expect("the knight leaves the anchor");
    assert!(anchor.starts_with("Q + R + B = 17"), "{anchor}");
    assert!(sjk.pieces.iter().any(|p| p.letter == "N" && p.value.is_finite()), "{sjk:?}");
    assert_eq!(option("immediate-landing").anchor, None, "the bomber is no anchor piece");
    let md = fairylab::report::card::markdown(&card, "Flying Bombers Grand Chess");
    assert!(md.contains("on the option's own orthodox scale, Q + R + B = 17"), "{md}");
}
