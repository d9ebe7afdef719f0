//! Flying Bombers with Hangars: every worked example of
//! docs/rules/flying-bombers-with-hangars.md (§1, §5, §6; "Hangars §n" below). The
//! perft table is data in tests/data/perft/, run by tests/perft.rs.

mod common;

use common::*;

const HANGARS: &str = "flying-bombers-hangars";
const STD: &[&str] = &[];
const IL: &[&str] = &["immediate-landing"];

const START: &str = "f******f/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/F******F w KQkq - 0 1";

const ORTHODOX_FIRST_MOVES: [&str; 20] = [
    "a2a3", "a2a4", "b2b3", "b2b4", "c2c3", "c2c4", "d2d3", "d2d4", "e2e3", "e2e4", "f2f3", "f2f4", "g2g3", "g2g4",
    "h2h3", "h2h4", "b1a3", "b1c3", "g1f3", "g1h3",
];

// Hangars §6 H1: start position has the 20 orthodox moves (bombers immobile).
#[test]
fn hangars_h1_start_twenty_moves() {
    for opts in [STD, IL] {
        let v = variant(HANGARS, opts);
        let b = v.start_position();
        assert_moves(&b, &ORTHODOX_FIRST_MOVES, &format!("H1 start {opts:?}"));
        let parsed = v.parse_fen(START).expect("Hangars start FEN");
        assert_moves(&parsed, &ORTHODOX_FIRST_MOVES, "H1 parsed start FEN");
        assert_eq!(parsed.piece_at("a0"), Some('F'));
        assert_eq!(parsed.piece_at("h0"), Some('F'));
        assert_eq!(parsed.piece_at("a9"), Some('f'));
        assert_eq!(parsed.piece_at("h9"), Some('f'));
        assert_eq!(parsed.piece_at("e1"), Some('K'));
        assert_eq!(parsed.piece_at("e8"), Some('k'));
    }
}

// Hangars §6 H2: after 1.a2a3 and any Black reply White additionally has Fa0-a2.
#[test]
fn hangars_h2_bomber_jumps_rook_after_a3() {
    let b = play(&variant(HANGARS, STD).start_position(), "a2a3");
    let replies = moves_of(&b);
    assert_eq!(replies.len(), 20, "Black has 20 replies");
    for r in &replies {
        let w = play(&b, r);
        assert_has_moves(&w, &["a0a2"], &format!("H2 after 1.a2a3 {r}"));
        let a = play(&w, "a0a2");
        assert_eq!(a.piece_at("a2"), Some('F'));
        assert_eq!(a.piece_at("a1"), Some('R'), "jumped own rook stays");
        assert_eq!(a.piece_at("a0"), None);
    }
}

// Hangars §6 perft note: d3 exceeds chess by exactly 80 — after a2a3/a2a4/h2h3/h2h4
// every Black reply leaves White exactly one extra move (Fa0-a2 / Fh0-h2), else none.
#[test]
fn hangars_perft_d3_excess_over_chess_is_bomber_jump() {
    let chess = variant("chess", STD).start_position();
    let hangars = variant(HANGARS, STD).start_position();
    let mut excess = 0usize;
    for m1 in ORTHODOX_FIRST_MOVES {
        let c1 = play(&chess, m1);
        let h1 = play(&hangars, m1);
        let black_c = moves_of(&c1);
        assert_eq!(moves_of(&h1), black_c, "Black replies after {m1}");
        for r in &black_c {
            let wc = moves_of(&play(&c1, r));
            let wh = moves_of(&play(&h1, r));
            let extra: Vec<&String> = wh.difference(&wc).collect();
            let lost: Vec<&String> = wc.difference(&wh).collect();
            assert!(lost.is_empty(), "after {m1} {r}: chess moves missing: {lost:?}");
            let expected: Vec<&str> = match m1 {
                "a2a3" | "a2a4" => vec!["a0a2"],
                "h2h3" | "h2h4" => vec!["h0h2"],
                _ => vec![],
            };
            assert_eq!(
                extra.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
                expected,
                "after {m1} {r}: extra Hangars moves"
            );
            excess += extra.len();
        }
    }
    assert_eq!(excess, 80);
}

const H3: &str = "1******1/4k3/7p/8/8/8/f7/8/R3K2n/1******F w - - 0 1";
const H4: &str = "1******1/4k3/7p/8/8/8/f7/8/R3K2n/1******F b - - 0 1";

// Hangars §6 H3: bomber h0 bombs h1 and lands h2..h6 (5), legal total 15.
#[test]
fn hangars_h3_bomber_from_hangar() {
    let b = pos(HANGARS, STD, H3);
    assert_moves_from(&b, "h0", &["h0h2", "h0h3", "h0h4", "h0h5", "h0h6"], "H3");
    assert_legal_count(&b, 15, "H3");
    let a = play(&b, "h0h6");
    assert_eq!(a.piece_at("h6"), Some('F'));
    assert_eq!(a.piece_at("h1"), None, "Fh0-h6(xh1) removes h1");
}

// Hangars §6 H3, Immediate Landing: only Fh0-h2(xh1) (total derived: 15 − 4).
#[test]
fn hangars_h3_bomber_from_hangar_immediate() {
    let b = pos(HANGARS, IL, H3);
    assert_moves_from(&b, "h0", &["h0h2"], "H3 IL");
    assert_legal_count(&b, 11, "H3 IL");
}

const H4_BOMBER: [&str; 16] = [
    "a3a2", "a3a1", "a3a0", "a3a4", "a3a5", "a3a6", "a3a7", "a3a8", "a3a9", "a3b3", "a3c3", "a3d3", "a3e3", "a3f3",
    "a3g3", "a3h3",
];

// Hangars §6 H4: Black bomber a3 has 16 moves incl. landing in the hangar a0; total 25.
#[test]
fn hangars_h4_black_bomber_lands_in_hangar() {
    for opts in [STD, IL] {
        let b = pos(HANGARS, opts, H4);
        assert_moves_from(&b, "a3", &H4_BOMBER, &format!("H4 {opts:?}"));
        assert_legal_count(&b, 25, &format!("H4 {opts:?}"));
    }
    let b = pos(HANGARS, STD, H4);
    let a = play(&b, "a3a0");
    assert_eq!(a.piece_at("a0"), Some('f'));
    assert_eq!(a.piece_at("a1"), None, "Fa3-a0(xa1) removes a1");
    let a = play(&b, "a3a1");
    assert_eq!(a.piece_at("a1"), Some('f'));
}

// Hangars §6 H5: king on h0 not in check from h7; only Kh0-g1.
#[test]
fn hangars_h5_distant_bomber_no_check() {
    let b = pos(HANGARS, STD, "1******1/4k3/7f/8/8/8/8/8/8/1******K w - - 0 1");
    assert!(!b.in_check(), "H5: not in check");
    assert_moves(&b, &["h0g1"], "H5");
}

// Hangars §6 H6: bomber at distance 2 (h2) checks the king on h0; only Kh0-g1.
#[test]
fn hangars_h6_distance_two_check() {
    let b = pos(HANGARS, STD, "1******1/4k3/8/8/8/8/8/7f/8/1******K w - - 0 1");
    assert!(b.in_check(), "H6: in check");
    assert_moves(&b, &["h0g1"], "H6");
}

// Hangars §6 H7: adjacent bomber h1 does not check the king on h0; Kh0xh1 is the legal move.
#[test]
fn hangars_h7_adjacent_bomber_no_check() {
    let b = pos(HANGARS, STD, "1******1/4k3/8/8/8/8/8/8/7f/1******K w - - 0 1");
    assert!(!b.in_check(), "H7: not in check");
    assert_moves(&b, &["h0h1"], "H7");
}

// Hangars §6 H8: bishop b1 reaches the hangar a0 (8 bishop moves).
#[test]
fn hangars_h8_bishop_to_hangar() {
    let b = pos(HANGARS, STD, "1******1/4k3/8/8/8/8/8/8/1B2K3/1******1 w - - 0 1");
    assert_moves_from(&b, "b1", &["b1a0", "b1a2", "b1c2", "b1d3", "b1e4", "b1f5", "b1g6", "b1h7"], "H8");
}

// Hangars §6 H9: knight b2 reaches the hangar a0.
#[test]
fn hangars_h9_knight_to_hangar() {
    let b = pos(HANGARS, STD, "1******1/4k3/8/8/8/8/8/1N6/4K3/1******1 w - - 0 1");
    assert_moves_from(&b, "b2", &["b2a0", "b2a4", "b2c4", "b2d1", "b2d3"], "H9");
}

// Hangars §6 H10 / §5: K+F v K mate (Kd8, Kd6, Ff8).
#[test]
fn hangars_h10_king_and_bomber_mate() {
    for opts in [STD, IL] {
        let b = pos(HANGARS, opts, "1******1/3k1F2/8/3K4/8/8/8/8/8/1******1 b - - 0 1");
        assert_checkmate(&b, &format!("H10 {opts:?}"));
    }
}

// Hangars §6 H11 / §5: the FBGC P12 corner "mate" is not mate: Ka1-a0 escapes.
#[test]
fn hangars_h11_hangar_refuge() {
    let b = pos(HANGARS, STD, "1******1/8/8/8/8/8/F7/2K5/k7/1******1 b - - 0 1");
    assert!(b.in_check(), "H11: in check");
    assert_moves(&b, &["a1a0"], "H11");
}

// Hangars §1 and the note under §6: Kb1 can go to a0; a bomber on h0 on an empty
// h-file slides h1…h9 (nothing moves sideways from a hangar); a rook on a8 can
// slide to a0 on an empty file.
#[test]
fn hangars_section1_hangar_square_examples() {
    let b = pos(HANGARS, STD, "1******1/4k3/8/8/8/8/8/8/1K6/1******1 w - - 0 1");
    assert_has_moves(&b, &["b1a0"], "§1 Kb1-a0");

    let b = pos(HANGARS, STD, "1******1/4k3/8/8/8/8/8/8/K7/1******F w - - 0 1");
    assert_moves_from(
        &b,
        "h0",
        &["h0h1", "h0h2", "h0h3", "h0h4", "h0h5", "h0h6", "h0h7", "h0h8", "h0h9"],
        "§1 bomber h0 on an empty h-file",
    );

    let b = pos(HANGARS, STD, "1******1/R7/8/4k3/8/8/8/8/7K/1******1 w - - 0 1");
    assert_has_moves(&b, &["a8a0", "a8a1", "a8a9"], "§1 rook on the a-file");
}
