//! Diagrams come from the compiled rules: the Flying Bomber's overtaking, helicopter and
//! double captures are marked with their landing squares and victims (and Immediate
//! Landing leaves one landing square), holes and hangar squares are drawn as the board has
//! them, and a bad request is one error line.

use fairylab::diagram::{self, DiagramError, Placement};
use fairylab::Variant;
use std::process::Command;

fn names(list: &[fairylab::Square]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn the_bomber_diagram_marks_landings_victims_and_captures() {
    let v = Variant::load("flying-bombers-grand", &[]).unwrap();
    let (svg, m) = diagram::piece_moves(v, &Placement::Demo('F')).unwrap();
    assert_eq!(m.from.map(|s| s.to_string()).as_deref(), Some("e5"));
    // Overtaking the man on e8 lands on any empty square beyond it.
    assert_eq!(names(&m.landing), ["e10", "e9"]);
    // f5 and g5 go in one helicopter move; c5 is taken over the bomber's own man on d5.
    assert_eq!(names(&m.victims), ["e8", "f5"]);
    assert_eq!(names(&m.capture), ["c5", "g5"]);
    for q in ["e6", "e7", "e4", "e1"] {
        assert!(m.quiet.iter().any(|s| s.to_string() == q), "{q} in {:?}", names(&m.quiet));
    }
    assert!(svg.starts_with("<svg") && svg.contains("data-mark=\"landing\"") && svg.contains("data-mark=\"victim\""));

    let il = Variant::load("flying-bombers-grand", &["immediate-landing"]).unwrap();
    let (_, m) = diagram::piece_moves(il, &Placement::Demo('F')).unwrap();
    assert_eq!(names(&m.landing), ["e9"], "Immediate Landing lands right behind the victim");
}

#[test]
fn a_piece_on_a_square_of_a_fen_shows_its_own_moves() {
    let v = Variant::load("chess", &[]).unwrap();
    let fen = "4k3/8/8/3p4/8/8/8/1N2K3 w - - 0 1".to_string();
    let (_, m) = diagram::piece_moves(v, &Placement::Fen { fen: fen.clone(), square: "b1".into() }).unwrap();
    assert_eq!(names(&m.quiet), ["a3", "c3", "d2"]);
    assert!(m.capture.is_empty() && m.landing.is_empty());
    let empty = diagram::piece_moves(v, &Placement::Fen { fen, square: "c3".into() });
    assert!(matches!(empty, Err(DiagramError::EmptySquare(_))), "{empty:?}");
}

#[test]
fn holes_and_hangars_are_drawn_as_the_board_has_them() {
    let hangars = diagram::start_position(Variant::load("flying-bombers-hangars", &[]).unwrap());
    for sq in ["a0", "h0", "a9", "h9", "e4"] {
        assert!(hangars.contains(&format!("data-square=\"{sq}\"")), "{sq}");
    }
    for hole in ["b0", "g0", "c9"] {
        assert!(!hangars.contains(&format!("data-square=\"{hole}\"")), "{hole} is no square");
    }
    let bland = diagram::start_position(Variant::load("bland-chess-46", &[]).unwrap());
    assert!(!bland.contains("data-square=\"f4\"") && !bland.contains("data-square=\"f5\""));
    assert!(bland.contains("data-square=\"f3\""));
}

#[test]
fn an_unknown_piece_is_one_error_line_and_a_failure() {
    let v = Variant::load("chess", &[]).unwrap();
    let e = diagram::piece_moves(v, &Placement::Demo('F')).unwrap_err();
    assert!(matches!(e, DiagramError::UnknownPiece { letter: 'F', .. }), "{e:?}");
    let dir = std::env::temp_dir().join(format!("fairylab-diagram-{}", std::process::id()));
    let run = Command::new(env!("CARGO_BIN_EXE_fairylab"))
        .args(["show", "--variant", "chess", "--piece", "F", "--out"])
        .arg(dir.join("x.svg"))
        .output()
        .unwrap();
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("no piece 'F'"), "{err}");
    assert!(!dir.join("x.svg").exists());
}

/// A report page shows the board and the new pieces' moves: SVG files beside the pages,
/// linked from report.md and inline in report.html (which stays one file).
#[test]
fn a_report_page_carries_its_board_and_new_pieces() {
    let dir = std::env::temp_dir().join(format!("fairylab-diagram-report-{}", std::process::id()));
    let page = dir.join("flying-bombers-grand");
    std::fs::create_dir_all(&page).unwrap();
    std::fs::copy("data/reports/standard/flying-bombers-grand/report.json", page.join("report.json")).unwrap();
    let run =
        Command::new(env!("CARGO_BIN_EXE_fairylab")).args(["report", "--all", "--out"]).arg(&dir).output().unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    for f in ["start", "F", "F-immediate-landing", "N-super-jump-knights"] {
        let svg = std::fs::read_to_string(page.join(format!("diagrams/{f}.svg"))).unwrap();
        assert!(svg.starts_with("<svg"), "{f}");
    }
    let md = std::fs::read_to_string(page.join("report.md")).unwrap();
    assert!(md.contains("## Board and pieces") && md.contains("](diagrams/F.svg)"), "{md}");
    let html = std::fs::read_to_string(page.join("report.html")).unwrap();
    assert_eq!(html.matches("<figure><svg").count(), 4);
    assert!(!html.contains("<img"), "the page keeps no link to a file beside it");
    let _ = std::fs::remove_dir_all(&dir);
}
