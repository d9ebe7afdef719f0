//! Flying Bombers Grand Chess: every worked example of
//! docs/rules/flying-bombers-grand-chess.md (§4.3, §7.1–§7.4; "FBGC §n" below); its
//! perft table (§7.5) is data in tests/data/perft/, run by tests/perft.rs.
//!
//! Diagrams 1–3, P1–P8 and P12 use the 8×8 "diagram board" (variant
//! `bomber-diagram`); P9, C1, C2, E1, E2, S1 and S2 use the
//! 10×10 FBGC board (variant `flying-bombers-grand`).

mod common;

use common::*;
use fairylab::Board;

const DIAGRAM: &str = "bomber-diagram";
const FBGC: &str = "flying-bombers-grand";
const STD: &[&str] = &[];
const IL: &[&str] = &["immediate-landing"];
const SJK: &[&str] = &["super-jump-knights"];

const FBGC_START: &str = "frnbqkbnrf/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/FRNBQKBNRF w KQkq - 0 1";

// ---------------------------------------------------------------------------
// Helper self-check (README §4: two-digit ranks, promotion suffix)
// ---------------------------------------------------------------------------

// README §4: machine form with two-digit ranks and a promotion letter.
#[test]
fn helper_split_move_handles_two_digit_ranks() {
    assert_eq!(split_move("f10h10"), Some(("f10".to_string(), "h10".to_string(), None)));
    assert_eq!(split_move("a9a10q"), Some(("a9".to_string(), "a10".to_string(), Some('q'))));
    assert_eq!(split_move("d2d1f"), Some(("d2".to_string(), "d1".to_string(), Some('f'))));
    assert_eq!(split_move("h0h2"), Some(("h0".to_string(), "h2".to_string(), None)));
    assert_eq!(split_move("e2"), None);
    assert_eq!(split_move("e2e4qq"), None);
    assert_eq!(split_move("E2e4"), None);
}

// ---------------------------------------------------------------------------
// §7.1 Source diagram 1 — bomber on f4
// ---------------------------------------------------------------------------

const D1A: &str = "8/5b2/8/8/3rPFpr/8/5k2/K4n2 b - - 0 1";
const D1B: &str = "8/5b2/8/8/3rPFpr/8/4k3/K4n2 w - - 0 1";
const D1C: &str = "8/5b2/8/8/3rPFp1/8/4k3/K4n2 w - - 0 1";

// FBGC §7.1 diagram 1a: Black in check (distance 2), exactly 6 king moves.
#[test]
fn fbgc_diagram_1a_black_in_check_six_king_moves() {
    let b = pos(DIAGRAM, STD, D1A);
    assert!(b.in_check(), "1a: Black must be in check (bomber at distance 2)");
    assert_moves(&b, &["f2e1", "f2e2", "f2e3", "f2g1", "f2g2", "f2g3"], "diagram 1a");
}

// FBGC §7.1 diagram 1a, "if it were White's turn": 7 bomber moves incl. Ff4xf2.
// With White to move the Black king is capturable, so a parser may reject the
// position; if it accepts it, the bomber moves must be the listed ones.
#[test]
fn fbgc_diagram_1a_hypothetical_white_to_move_bomber_moves() {
    let v = variant(DIAGRAM, STD);
    if let Ok(b) = v.parse_fen("8/5b2/8/8/3rPFpr/8/5k2/K4n2 w - - 0 1") {
        assert_moves_from(
            &b,
            "f4",
            &["f4f3", "f4f5", "f4f6", "f4f8", "f4d4", "f4f2", "f4h4"],
            "diagram 1a with White to move",
        );
    }
}

// FBGC §7.1 diagram 1b: 7 bomber moves, 10 legal moves in total.
#[test]
fn fbgc_diagram_1b_bomber_moves_and_total() {
    let b = pos(DIAGRAM, STD, D1B);
    let bomber = ["f4f2", "f4f3", "f4f5", "f4f6", "f4f8", "f4d4", "f4h4"];
    assert_moves_from(&b, "f4", &bomber, "diagram 1b");
    let mut all = bomber.to_vec();
    all.extend(["a1b1", "a1b2", "e4e5"]);
    assert_moves(&b, &all, "diagram 1b all White moves");
}

// FBGC §7.1 diagram 1b / §4.2.5: victims of Ff4-f8(xf7), Ff4xh4(xg4), Ff4xd4 (jump over own e4).
#[test]
fn fbgc_diagram_1b_bomber_victims() {
    let b = pos(DIAGRAM, STD, D1B);
    let a = play(&b, "f4f8");
    assert_eq!(a.piece_at("f8"), Some('F'));
    assert_eq!(a.piece_at("f7"), None, "Ff4-f8 removes the bishop on f7");
    assert_eq!(a.piece_at("f4"), None);
    let a = play(&b, "f4h4");
    assert_eq!(a.piece_at("h4"), Some('F'));
    assert_eq!(a.piece_at("g4"), None, "Ff4xh4(xg4) removes g4 too");
    let a = play(&b, "f4d4");
    assert_eq!(a.piece_at("d4"), Some('F'));
    assert_eq!(a.piece_at("e4"), Some('P'), "the jumped own pawn stays");
    let a = play(&b, "f4f2");
    assert_eq!(a.piece_at("f2"), Some('F'));
    assert_eq!(a.piece_at("f1"), Some('n'), "Nf1 is never attacked");
    assert_eq!(a.side_to_move(), 'b');
}

// FBGC §7.1 diagram 1c: with h4 empty the pawn g4 alone is taken by Ff4-h4(xg4).
#[test]
fn fbgc_diagram_1c_bomber_moves() {
    let b = pos(DIAGRAM, STD, D1C);
    assert_moves_from(&b, "f4", &["f4f2", "f4f3", "f4f5", "f4f6", "f4f8", "f4h4", "f4d4"], "diagram 1c");
    let a = play(&b, "f4h4");
    assert_eq!(a.piece_at("h4"), Some('F'));
    assert_eq!(a.piece_at("g4"), None, "Ff4-h4(xg4) removes g4");
}

// ---------------------------------------------------------------------------
// §7.2 Source diagram 2 — bomber on d4 hampered
// ---------------------------------------------------------------------------

const D2A: &str = "3r4/3k4/8/8/3FrP2/8/3p4/7K w - - 0 1";
const D2B: &str = "3r4/3k4/8/8/3FrP2/8/3p4/7K b - - 0 1";
const D2C: &str = "3r4/3k4/8/8/3Fr3/8/3p4/7K w - - 0 1";
const D2D: &str = "3r4/3k4/8/8/3Frn2/8/3p4/7K w - - 0 1";

const D2_COMMON: [&str; 8] = ["d4a4", "d4b4", "d4c4", "d4d3", "d4d5", "d4d6", "d4d2", "d4d1"];

// FBGC §7.2 diagram 2a: 8 bomber moves, 12 legal moves in total.
#[test]
fn fbgc_diagram_2a_bomber_moves_and_total() {
    let b = pos(DIAGRAM, STD, D2A);
    assert_moves_from(&b, "d4", &D2_COMMON, "diagram 2a");
    let mut all = D2_COMMON.to_vec();
    all.extend(["h1g1", "h1g2", "h1h2", "f4f5"]);
    assert_moves(&b, &all, "diagram 2a all White moves");
}

// FBGC §7.2 diagram 2a / §4.2.5: Fd4xd2 lands on d2, Fd4-d1(xd2) flies over it.
#[test]
fn fbgc_diagram_2a_bomber_victims() {
    let b = pos(DIAGRAM, STD, D2A);
    let a = play(&b, "d4d2");
    assert_eq!(a.piece_at("d2"), Some('F'));
    let a = play(&b, "d4d1");
    assert_eq!(a.piece_at("d1"), Some('F'));
    assert_eq!(a.piece_at("d2"), None, "Fd4-d1(xd2) removes d2");
}

// FBGC §7.2 diagram 2b: no check, Rd8 pinned behind the king, 20 legal moves.
#[test]
fn fbgc_diagram_2b_pin_behind_king() {
    let b = pos(DIAGRAM, STD, D2B);
    assert!(!b.in_check(), "2b: Kd7 is not in check (d8 occupied)");
    assert!(moves_from(&b, "d8").is_empty(), "2b: Rd8 is pinned");
    assert_lacks_moves(&b, &["d7d6"], "2b: Kd6 is at distance 2");
    assert_moves(
        &b,
        &[
            "d7c6", "d7c7", "d7c8", "d7e6", "d7e7", "d7e8", "e4e1", "e4e2", "e4e3", "e4e5", "e4e6", "e4e7", "e4e8",
            "e4d4", "e4f4", "d2d1q", "d2d1r", "d2d1b", "d2d1n", "d2d1f",
        ],
        "diagram 2b all Black moves",
    );
}

// FBGC §7.2 diagram 2c: with f4 empty the rook e4 can be bombed (11 bomber moves).
#[test]
fn fbgc_diagram_2c_bomber_moves() {
    let b = pos(DIAGRAM, STD, D2C);
    let mut bomber = D2_COMMON.to_vec();
    bomber.extend(["d4f4", "d4g4", "d4h4"]);
    assert_moves_from(&b, "d4", &bomber, "diagram 2c");
}

// FBGC §7.2 diagram 2d: black knight on f4 → double capture Fd4xf4(xe4) (9 bomber moves).
#[test]
fn fbgc_diagram_2d_double_capture() {
    let b = pos(DIAGRAM, STD, D2D);
    let mut bomber = D2_COMMON.to_vec();
    bomber.push("d4f4");
    assert_moves_from(&b, "d4", &bomber, "diagram 2d");
    let a = play(&b, "d4f4");
    assert_eq!(a.piece_at("f4"), Some('F'));
    assert_eq!(a.piece_at("e4"), None, "double capture removes e4 too");
}

// ---------------------------------------------------------------------------
// §7.3 Source diagram 3 — Black bomber attacks d4
// ---------------------------------------------------------------------------

const D3A: &str = "8/8/8/3k4/2fP4/4P3/7N/1B4K1 b - - 0 1";
const D3B: &str = "8/8/8/3k4/2fP4/4P3/7N/1B4K1 w - - 0 1";
const D3C: &str = "8/8/8/3k4/2fPB3/4P3/7N/6K1 b - - 0 1";
const D3D: &str = "8/8/8/3k4/2fPP3/8/7N/1B4K1 b - - 0 1";

const D3A_QUIET: [&str; 9] = ["c4a4", "c4b4", "c4c1", "c4c2", "c4c3", "c4c5", "c4c6", "c4c7", "c4c8"];
const D3C_MOVES: [&str; 4] = ["d5e4", "d5d6", "d5e6", "c4e4"];
const D3D_MOVES: [&str; 5] = ["d5d4", "d5c6", "d5d6", "d5e6", "c4e4"];

// FBGC §7.3 diagram 3a: 13 bomber moves, 16 legal moves in total.
#[test]
fn fbgc_diagram_3a_bomber_moves_and_total() {
    let b = pos(DIAGRAM, STD, D3A);
    let mut bomber = D3A_QUIET.to_vec();
    bomber.extend(["c4e4", "c4f4", "c4g4", "c4h4"]);
    assert_moves_from(&b, "c4", &bomber, "diagram 3a");
    let mut all = bomber.clone();
    all.extend(["d5c6", "d5d6", "d5e6"]);
    assert_moves(&b, &all, "diagram 3a all Black moves");
    let a = play(&b, "c4h4");
    assert_eq!(a.piece_at("h4"), Some('f'));
    assert_eq!(a.piece_at("d4"), None, "Fc4-h4(xd4) removes d4");
}

// FBGC §7.3 diagram 3a, Immediate Landing: only Fc4-e4(xd4) remains (10 bomber moves).
#[test]
fn fbgc_diagram_3a_immediate_landing() {
    let b = pos(DIAGRAM, IL, D3A);
    let mut bomber = D3A_QUIET.to_vec();
    bomber.push("c4e4");
    assert_moves_from(&b, "c4", &bomber, "diagram 3a immediate landing");
    // Derived: only bomber landings differ, so the total drops from 16 to 13.
    assert_legal_count(&b, 13, "diagram 3a immediate landing total");
}

// FBGC §7.3 diagram 3b: White to move, 15 legal moves.
#[test]
fn fbgc_diagram_3b_white_moves() {
    let b = pos(DIAGRAM, STD, D3B);
    assert_moves(
        &b,
        &[
            "b1a2", "b1c2", "b1d3", "b1e4", "b1f5", "b1g6", "b1h7", "g1f1", "g1f2", "g1g2", "g1h1", "h2f1", "h2f3",
            "h2g4", "e3e4",
        ],
        "diagram 3b",
    );
}

// FBGC §7.3 diagram 3c: after 1.Be4+ Black has 4 moves incl. the double capture Fc4xe4(xd4).
#[test]
fn fbgc_diagram_3c_after_be4() {
    let b = pos(DIAGRAM, STD, D3C);
    assert!(b.in_check(), "3c: Be4 gives check");
    assert_moves(&b, &D3C_MOVES, "diagram 3c");
    let a = play(&b, "c4e4");
    assert_eq!(a.piece_at("e4"), Some('f'));
    assert_eq!(a.piece_at("d4"), None, "Fc4xe4(xd4) removes d4 too");
    // The same position reached by playing 1.Be4 from 3b.
    let played = play(&pos(DIAGRAM, STD, D3B), "b1e4");
    assert!(played.in_check());
    assert_moves(&played, &D3C_MOVES, "diagram 3b + b1e4");
}

// FBGC §7.3 diagram 3d: after 1.e4+ Black has 5 moves; plain capture of d4 impossible.
#[test]
fn fbgc_diagram_3d_after_e4() {
    let b = pos(DIAGRAM, STD, D3D);
    assert!(b.in_check(), "3d: e3-e4 gives check");
    assert_moves(&b, &D3D_MOVES, "diagram 3d");
    let played = play(&pos(DIAGRAM, STD, D3B), "e3e4");
    assert!(played.in_check());
    assert_moves(&played, &D3D_MOVES, "diagram 3b + e3e4");
}

// ---------------------------------------------------------------------------
// §7.4 Hand-made bomber edge cases P1–P9, P12
// ---------------------------------------------------------------------------

/// Bomber moves from `sq` and (optionally) the side to move's legal total.
fn bomber_case(
    variant_name: &str,
    options: &[&str],
    board_side: &str,
    sq: &str,
    bomber: &[&str],
    legal: Option<usize>,
    what: &str,
) {
    let b = pos(variant_name, options, &fen4(board_side));
    assert_moves_from(&b, sq, bomber, what);
    if let Some(n) = legal {
        assert_legal_count(&b, n, what);
    }
}

const P1: &str = "7k/8/8/8/3F4/8/8/7K w";
const P1_MOVES: [&str; 14] =
    ["d4a4", "d4b4", "d4c4", "d4e4", "d4f4", "d4g4", "d4h4", "d4d1", "d4d2", "d4d3", "d4d5", "d4d6", "d4d7", "d4d8"];

// FBGC §7.4 P1: on an empty board the bomber moves like a rook (14), legal 17.
#[test]
fn fbgc_p1_empty_board_rook_like() {
    bomber_case(DIAGRAM, STD, P1, "d4", &P1_MOVES, Some(17), "P1");
}

// FBGC §7.4 P1, Immediate Landing column: same.
#[test]
fn fbgc_p1_empty_board_rook_like_immediate() {
    bomber_case(DIAGRAM, IL, P1, "d4", &P1_MOVES, Some(17), "P1 IL");
}

const P2: &str = "7k/1n6/8/8/8/1p6/rFP5/7K w";

// FBGC §7.4 P2: multi-landing, jump own piece, edge enemy not capturable (5), legal 11.
#[test]
fn fbgc_p2_multi_landing() {
    bomber_case(DIAGRAM, STD, P2, "b2", &["b2b1", "b2d2", "b2b4", "b2b5", "b2b6"], Some(11), "P2");
}

// FBGC §7.4 P2, Immediate Landing column: b1, d2, b4(xb3) (total derived: 11 − 2).
#[test]
fn fbgc_p2_multi_landing_immediate() {
    bomber_case(DIAGRAM, IL, P2, "b2", &["b2b1", "b2d2", "b2b4"], Some(9), "P2 IL");
}

const P3: &str = "7k/8/8/2b5/2p5/rnF1r3/2P5/7K w";

// FBGC §7.4 P3: two double captures, helicopter capture + landings behind (8), legal 12.
#[test]
fn fbgc_p3_double_captures() {
    bomber_case(
        DIAGRAM,
        STD,
        P3,
        "c3",
        &["c3c1", "c3d3", "c3e3", "c3f3", "c3g3", "c3h3", "c3a3", "c3c5"],
        Some(12),
        "P3",
    );
}

// FBGC §7.4 P3 / §4.2.5: victims of Fc3xa3(xb3), Fc3xc5(xc4), Fc3-f3(xe3), Fc3xe3.
#[test]
fn fbgc_p3_double_capture_victims() {
    let b = pos(DIAGRAM, STD, &fen4(P3));
    let a = play(&b, "c3a3");
    assert_eq!(a.piece_at("a3"), Some('F'));
    assert_eq!(a.piece_at("b3"), None);
    let a = play(&b, "c3c5");
    assert_eq!(a.piece_at("c5"), Some('F'));
    assert_eq!(a.piece_at("c4"), None);
    let a = play(&b, "c3f3");
    assert_eq!(a.piece_at("f3"), Some('F'));
    assert_eq!(a.piece_at("e3"), None);
    let a = play(&b, "c3e3");
    assert_eq!(a.piece_at("e3"), Some('F'));
    assert_eq!(a.piece_at("d3"), None);
    let a = play(&b, "c3c1");
    assert_eq!(a.piece_at("c1"), Some('F'));
    assert_eq!(a.piece_at("c2"), Some('P'), "jumped own pawn stays");
}

// FBGC §7.4 P3, Immediate Landing column: drops g3(xe3), h3(xe3) (total derived: 12 − 2).
#[test]
fn fbgc_p3_double_captures_immediate() {
    bomber_case(DIAGRAM, IL, P3, "c3", &["c3c1", "c3d3", "c3e3", "c3f3", "c3a3", "c3c5"], Some(10), "P3 IL");
}

const P4: &str = "k7/8/3P4/3r4/rP1F1pn1/3N4/3P4/7K w";

// FBGC §7.4 P4: blocked in all directions but c4, e4, xf4 (3), legal 14.
#[test]
fn fbgc_p4_hampered() {
    bomber_case(DIAGRAM, STD, P4, "d4", &["d4c4", "d4e4", "d4f4"], Some(14), "P4");
}

// FBGC §7.4 P4, Immediate Landing column: same.
#[test]
fn fbgc_p4_hampered_immediate() {
    bomber_case(DIAGRAM, IL, P4, "d4", &["d4c4", "d4e4", "d4f4"], Some(14), "P4 IL");
}

const P5A: &str = "7k/8/1p6/8/8/1b6/8/nFK5 w";
const P5B: &str = "7k/8/1p6/8/8/1b6/8/rFK5 w";

// FBGC §7.4 P5a: edge enemy a1 not capturable, jump over own king, helicopter (5), legal 7.
#[test]
fn fbgc_p5a_jump_own_king() {
    bomber_case(DIAGRAM, STD, P5A, "b1", &["b1b2", "b1b3", "b1b4", "b1b5", "b1d1"], Some(7), "P5a");
}

// FBGC §7.4 P5a, Immediate Landing column: drops b5(xb3) (total derived: 7 − 1).
#[test]
fn fbgc_p5a_jump_own_king_immediate() {
    bomber_case(DIAGRAM, IL, P5A, "b1", &["b1b2", "b1b3", "b1b4", "b1d1"], Some(6), "P5a IL");
}

// FBGC §7.4 P5b: Ra1 pins the bomber: 0 legal bomber moves, legal total 2.
#[test]
fn fbgc_p5b_pinned_bomber() {
    bomber_case(DIAGRAM, STD, P5B, "b1", &[], Some(2), "P5b");
}

// FBGC §7.4 P5b, Immediate Landing column: same.
#[test]
fn fbgc_p5b_pinned_bomber_immediate() {
    bomber_case(DIAGRAM, IL, P5B, "b1", &[], Some(2), "P5b IL");
}

const P6: &str = "8/8/8/8/8/4k3/4n3/K3F3 b";

// FBGC §7.4 P6: distance-2 check through own knight; interposition useless; 7 king moves.
#[test]
fn fbgc_p6_distance_two_check() {
    for opts in [STD, IL] {
        let b = pos(DIAGRAM, opts, &fen4(P6));
        assert!(b.in_check(), "P6 {opts:?}: Black in check");
        assert_moves(&b, &["e3d2", "e3d3", "e3d4", "e3e4", "e3f2", "e3f3", "e3f4"], &format!("P6 {opts:?}"));
    }
}

const P7A: &str = "8/8/8/8/3Fkr2/2P5/8/K7 b";
const P7B: &str = "8/8/8/8/3FkN2/2P5/8/K7 b";
const P7_MOVES: [&str; 4] = ["e4e3", "e4e5", "e4f3", "e4f5"];

// FBGC §7.4 P7a: adjacent bomber, king's own rook behind → check; 4 legal moves.
#[test]
fn fbgc_p7a_adjacent_own_piece_behind_check() {
    for opts in [STD, IL] {
        let b = pos(DIAGRAM, opts, &fen4(P7A));
        assert!(b.in_check(), "P7a {opts:?}: Black in check");
        assert_moves(&b, &P7_MOVES, &format!("P7a {opts:?}"));
    }
}

// FBGC §7.4 P7b: adjacent bomber, bomber's knight behind → no check; same 4 moves (no Kxf4).
#[test]
fn fbgc_p7b_adjacent_enemy_piece_behind_no_check() {
    for opts in [STD, IL] {
        let b = pos(DIAGRAM, opts, &fen4(P7B));
        assert!(!b.in_check(), "P7b {opts:?}: Black not in check");
        assert_moves(&b, &P7_MOVES, &format!("P7b {opts:?}"));
    }
}

const P8: &str = "8/8/1b5r/3k4/8/8/6K1/3F4 b";

// FBGC §7.4 P8: distance-4 check, parried by interposing or occupying the square behind.
#[test]
fn fbgc_p8_distance_four_check_parries() {
    for opts in [STD, IL] {
        let b = pos(DIAGRAM, opts, &fen4(P8));
        assert!(b.in_check(), "P8 {opts:?}: Black in check");
        assert_moves(&b, &["d5c4", "d5c5", "d5c6", "d5e4", "d5e5", "d5e6", "b6d4", "h6d6"], &format!("P8 {opts:?}"));
    }
}

const P9: &str = "9k/10/10/10/10/r9/10/10/9K/F1Nr6 w";

// FBGC §7.4 P9 (10×10): long landing run; non-adjacent friend c1 blocks (9), legal 16.
#[test]
fn fbgc_p9_long_landing_run() {
    bomber_case(
        FBGC,
        STD,
        P9,
        "a1",
        &["a1a2", "a1a3", "a1a4", "a1a6", "a1a7", "a1a8", "a1a9", "a1a10", "a1b1"],
        Some(16),
        "P9",
    );
}

// FBGC §7.4 P9, Immediate Landing column: a2 a3 a4 a6(xa5) b1 (total derived: 16 − 4).
#[test]
fn fbgc_p9_long_landing_run_immediate() {
    bomber_case(FBGC, IL, P9, "a1", &["a1a2", "a1a3", "a1a4", "a1a6", "a1b1"], Some(12), "P9 IL");
}

const P12: &str = "8/8/8/8/8/F7/2K5/k7 b";

// FBGC §7.4 P12 / §5.5: K+F v K checkmate exists (both landing versions).
#[test]
fn fbgc_p12_king_and_bomber_mate() {
    for opts in [STD, IL] {
        let b = pos(DIAGRAM, opts, &fen4(P12));
        assert_checkmate(&b, &format!("P12 {opts:?}"));
    }
}

// ---------------------------------------------------------------------------
// §7.4 FBGC-board castling tests C1, C2
// ---------------------------------------------------------------------------

const C1: &str = "5k4/10/10/10/10/10/10/2f4f2/10/FR3K2RF w KQ - 0 1";
const C2: &str = "5k4/10/10/10/10/3f6/10/7f2/10/FR3K2RF w KQ - 0 1";

// FBGC §7.4 C1 / §5.1: only castling #2 (f1d1) is legal; king moves exact; total 49.
#[test]
fn fbgc_c1_castling_bombers_attack_c1_h1() {
    let b = pos(FBGC, STD, C1);
    assert_moves_from(&b, "f1", &["f1e1", "f1e2", "f1f2", "f1g1", "f1g2", "f1d1"], "C1 king moves");
    assert_legal_count(&b, 49, "C1");
    // §5.1 table: castling #2 puts the king on d1 and the b-rook on e1.
    let a = play(&b, "f1d1");
    assert_eq!(a.piece_at("d1"), Some('K'));
    assert_eq!(a.piece_at("e1"), Some('R'));
    assert_eq!(a.piece_at("b1"), None);
    assert_eq!(a.piece_at("f1"), None);
    assert_eq!(a.piece_at("a1"), Some('F'), "the corner bomber stays");
    assert_eq!(fen_field(&a, 2), "-", "a king move removes both rights");
}

// FBGC §7.4 C2 / §5.1: castlings f1d1, f1c1, f1b1 legal (d5 bomber does not attack d1); total 51.
#[test]
fn fbgc_c2_queen_side_castlings() {
    let b = pos(FBGC, STD, C2);
    assert_has_moves(&b, &["f1d1", "f1c1", "f1b1"], "C2");
    assert_lacks_moves(&b, &["f1h1", "f1i1"], "C2 king side");
    assert_legal_count(&b, 51, "C2");
}

// FBGC §5.1 castling table: rook placement of castlings #2, #4, #5 (from position C2).
#[test]
fn fbgc_c2_castling_rook_placement() {
    let b = pos(FBGC, STD, C2);
    for (mv, king, rook) in [("f1d1", "d1", "e1"), ("f1c1", "c1", "d1"), ("f1b1", "b1", "c1")] {
        let a = play(&b, mv);
        assert_eq!(a.piece_at(king), Some('K'), "{mv}: king square");
        assert_eq!(a.piece_at(rook), Some('R'), "{mv}: rook square");
        assert_eq!(a.piece_at("f1"), None, "{mv}: f1 vacated");
        assert_eq!(a.piece_at("i1"), Some('R'), "{mv}: other rook stays");
        assert_eq!(a.piece_at("a1"), Some('F'), "{mv}: corner bomber stays");
        if mv != "f1b1" {
            assert_eq!(a.piece_at("b1"), None, "{mv}: b1 vacated");
        }
    }
}

// ---------------------------------------------------------------------------
// §7.4 En passant after double and triple steps: E1, E2
// ---------------------------------------------------------------------------

const E1: &str = "5k4/10/10/10/10/1p8/1p8/10/P9/5K4 w - - 0 1";
const E2: &str = "5k4/p9/10/1P8/1P8/10/10/10/10/5K4 b - - 0 1";

// FBGC §7.4 E1: White's 8 legal moves (pawn single, double and triple step).
#[test]
fn fbgc_e1_white_moves() {
    let b = pos(FBGC, STD, E1);
    assert_moves(&b, &["f1e1", "f1e2", "f1f2", "f1g1", "f1g2", "a2a3", "a2a4", "a2a5"], "E1");
}

// FBGC §7.4 E1 / §5.3: after a2a4 (ep a3) Black has b4-a3 e.p. and b5xa4.
#[test]
fn fbgc_e1_double_step_en_passant() {
    let b = play(&pos(FBGC, STD, E1), "a2a4");
    assert_eq!(fen_field(&b, 3), "a3", "E1 after a2a4: e.p. field");
    assert_has_moves(&b, &["b4a3", "b5a4"], "E1 after a2a4");
    let ep = play(&b, "b4a3");
    assert_eq!(ep.piece_at("a3"), Some('p'));
    assert_eq!(ep.piece_at("a4"), None, "b4-a3 e.p. removes a4");
    assert_eq!(ep.piece_at("b4"), None);
    let cap = play(&b, "b5a4");
    assert_eq!(cap.piece_at("a4"), Some('p'));
    assert_eq!(cap.piece_at("b5"), None);
}

// FBGC §7.4 E1 / §5.3: after a2a5 (ep a3,a4) both b4-a3 and b5-a4 are e.p., each removing a5.
#[test]
fn fbgc_e1_triple_step_en_passant() {
    let b = play(&pos(FBGC, STD, E1), "a2a5");
    assert_eq!(fen_field(&b, 3), "a3,a4", "E1 after a2a5: e.p. field");
    assert_has_moves(&b, &["b4a3", "b5a4"], "E1 after a2a5");
    let ep = play(&b, "b4a3");
    assert_eq!(ep.piece_at("a3"), Some('p'));
    assert_eq!(ep.piece_at("a5"), None, "b4-a3 e.p. removes a5");
    assert_eq!(ep.piece_at("b4"), None);
    let ep = play(&b, "b5a4");
    assert_eq!(ep.piece_at("a4"), Some('p'));
    assert_eq!(ep.piece_at("a5"), None, "b5-a4 e.p. removes a5");
    assert_eq!(ep.piece_at("b5"), None);
}

// FBGC §7.4 E1: after a2a3 Black takes b4xa3 normally.
#[test]
fn fbgc_e1_single_step_normal_capture() {
    let b = play(&pos(FBGC, STD, E1), "a2a3");
    assert_eq!(fen_field(&b, 3), "-", "E1 after a2a3: no e.p. squares");
    assert_has_moves(&b, &["b4a3"], "E1 after a2a3");
    let cap = play(&b, "b4a3");
    assert_eq!(cap.piece_at("a3"), Some('p'));
}

// FBGC §5.3: e.p. is possible on the immediately following move only.
#[test]
fn fbgc_e1_en_passant_expires() {
    let b = play_line(&pos(FBGC, STD, E1), &["a2a4", "f10e10", "f1e1"]);
    assert_lacks_moves(&b, &["b4a3"], "E1 e.p. after an intermediate move pair");
    assert_has_moves(&b, &["b5a4"], "E1 normal capture still there");
}

// FBGC §7.4 E2: after a9a7 (ep a8) White has b7-a8 e.p. and b6xa7.
#[test]
fn fbgc_e2_black_double_step_en_passant() {
    let b = play(&pos(FBGC, STD, E2), "a9a7");
    assert_eq!(fen_field(&b, 3), "a8", "E2 after a9a7: e.p. field");
    assert_has_moves(&b, &["b7a8", "b6a7"], "E2 after a9a7");
    let ep = play(&b, "b7a8");
    assert_eq!(ep.piece_at("a8"), Some('P'));
    assert_eq!(ep.piece_at("a7"), None, "b7-a8 e.p. removes a7");
    let cap = play(&b, "b6a7");
    assert_eq!(cap.piece_at("a7"), Some('P'));
}

// FBGC §7.4 E2: after a9a6 (ep a8,a7) both b7-a8 and b6-a7 are e.p., each removing a6.
#[test]
fn fbgc_e2_black_triple_step_en_passant() {
    let b = play(&pos(FBGC, STD, E2), "a9a6");
    assert_eq!(fen_field(&b, 3), "a8,a7", "E2 after a9a6: e.p. field");
    assert_has_moves(&b, &["b7a8", "b6a7"], "E2 after a9a6");
    let ep = play(&b, "b7a8");
    assert_eq!(ep.piece_at("a8"), Some('P'));
    assert_eq!(ep.piece_at("a6"), None, "b7-a8 e.p. removes a6");
    let ep = play(&b, "b6a7");
    assert_eq!(ep.piece_at("a7"), Some('P'));
    assert_eq!(ep.piece_at("a6"), None, "b6-a7 e.p. removes a6");
}

// ---------------------------------------------------------------------------
// §7.4 Start position S1, Super Jump Knights S2, §4.3 K+N mate
// ---------------------------------------------------------------------------

fn s1_moves() -> Vec<String> {
    let mut v = Vec::new();
    for f in 'a'..='j' {
        for r in 3..=5 {
            v.push(format!("{f}2{f}{r}"));
        }
    }
    for m in ["c1b3", "c1d3", "h1g3", "h1i3", "a1a3", "j1j3"] {
        v.push(m.to_string());
    }
    v
}

// FBGC §7.4 S1: White's 36 first moves (incl. Fa1-a3, Fj1-j3).
#[test]
fn fbgc_s1_start_moves() {
    let b = variant(FBGC, STD).start_position();
    let expected = s1_moves();
    let refs: Vec<&str> = expected.iter().map(|s| s.as_str()).collect();
    assert_eq!(refs.len(), 36);
    assert_moves(&b, &refs, "S1 start position");
    assert_eq!(b.side_to_move(), 'w');
    assert!(!b.in_check());
}

// FBGC §3: the documented start FEN parses to the start position.
#[test]
fn fbgc_s1_start_fen_matches_start_position() {
    let v = variant(FBGC, STD);
    let parsed = v.parse_fen(FBGC_START).expect("FBGC start FEN");
    assert_eq!(moves_of(&parsed), moves_of(&v.start_position()));
    assert_eq!(parsed.piece_at("a1"), Some('F'));
    assert_eq!(parsed.piece_at("f1"), Some('K'));
    assert_eq!(parsed.piece_at("j10"), Some('f'));
    assert_eq!(parsed.piece_at("f10"), Some('k'));
    assert_eq!(parsed.piece_at("e10"), Some('q'));
}

// FBGC §7.4 S2: with Super Jump Knights White has 40 first moves.
#[test]
fn fbgc_s2_super_jump_start_moves() {
    let b = pos(FBGC, SJK, FBGC_START);
    let mut expected = s1_moves();
    for m in ["c1b4", "c1d4", "h1g4", "h1i4"] {
        expected.push(m.to_string());
    }
    let refs: Vec<&str> = expected.iter().map(|s| s.as_str()).collect();
    assert_moves(&b, &refs, "S2 start position (super jump knights)");
}

// FBGC §7.4 S2 / §4.3: 1.Nc1-d4 a9-a8 2.Nd4-e7 is checkmate.
#[test]
fn fbgc_s2_super_jump_mate() {
    let b = pos(FBGC, SJK, FBGC_START);
    let m = play_line(&b, &["c1d4", "a9a8", "d4e7"]);
    assert_checkmate(&m, "S2 after 1.Nc1-d4 a9-a8 2.Nd4-e7");
}

/// After a Black reply, does White mate at once with d4e7?
fn d4e7_mates(after_reply: &Board) -> bool {
    if !moves_of(after_reply).contains("d4e7") {
        return false;
    }
    let m = play(after_reply, "d4e7");
    m.in_check() && m.legal_moves().is_empty()
}

// FBGC §7.4 S2 / §4.3 and README §7 #9: the exact set of Black replies to 1.Nc1-d4 that stop Nd4-e7 mate.
#[test]
fn fbgc_s2_super_jump_mate_defences() {
    let b = play(&pos(FBGC, SJK, FBGC_START), "c1d4");
    let defences: std::collections::BTreeSet<String> =
        moves_of(&b).into_iter().filter(|r| !d4e7_mates(&play(&b, r))).collect();
    let expected = set_of(&["c10b8", "h10g8", "d9d8", "e9e6", "e9e7", "e9e8", "f9f8", "g9g6", "g9g7", "g9g8"]);
    assert_set_eq(&defences, &expected, "S2 defences against Nd4-e7 mate");
}

const KN_MATE: &str = "k9/2K7/10/1N8/10/10/10/10/10/10 b - - 0 1";

// FBGC §4.3: K+N v K — Nb7 mates Ka10 with Super Jump Knights.
#[test]
fn fbgc_super_jump_knight_mate_k_n_v_k() {
    let b = pos(FBGC, SJK, KN_MATE);
    assert_checkmate(&b, "§4.3 K+N mate (super jump knights)");
}

// FBGC §4.3: the same position is stalemate with orthodox knights.
#[test]
fn fbgc_orthodox_knight_k_n_v_k_stalemate() {
    let b = pos(FBGC, STD, KN_MATE);
    assert_stalemate(&b, "§4.3 K+N position (orthodox knights)");
}
