//! Bland Chess 46: every worked example of docs/rules/bland-chess-46.md ("Bland §n"
//! below: §7 BL1–BL11 and the placeholder-start checks; its perft is data in
//! tests/data/perft/). King-capture variant:
//! legal moves = pseudo-legal moves.

mod common;

use common::*;

const BLAND: &str = "bland-chess-46";

/// Provisional placeholder start of §3.2 (NOT the verified real setup).
const PROVISIONAL_START: &str = "rwrkwr/pppppp/6/5*/5*/6/PPPPPP/RWRKWR w - - 0 1 WW/WW";

fn bland(fen: &str) -> fairylab::Board {
    pos(BLAND, &[], fen)
}

// Bland §7 BL1: rook f3 cannot go up (f4 missing); 9 moves.
#[test]
fn bland_bl1_rook_stops_at_hole() {
    let b = bland("3k2/6/6/5*/5*/5R/6/K5 w - - 0 1 WW/WW");
    assert_moves(&b, &["f3a3", "f3b3", "f3c3", "f3d3", "f3e3", "f3f2", "f3f1", "a1a2", "a1b1"], "BL1");
}

// Bland §7 BL2: War Machines cannot land on the hole f4; 7 moves.
#[test]
fn bland_bl2_war_machine_hole() {
    let b = bland("3k2/6/5W/5*/3W1*/6/6/K5 w - - 0 1 WW/WW");
    assert_moves(&b, &["f6f8", "f6d6", "d4b4", "d4d2", "d4d6", "a1a2", "a1b1"], "BL2");
}

// Bland §7 BL3: Modern War Machine e5, no step to the hole f5; 8 moves.
#[test]
fn bland_bl3_modern_war_machine() {
    let b = bland("3k2/6/6/4M*/5*/6/6/K5 w - - 0 1 WW/WW");
    assert_moves(&b, &["e5e6", "e5e4", "e5d5", "e5e7", "e5e3", "e5c5", "a1a2", "a1b1"], "BL3");
}

// Bland §7 BL4: knights jump past the holes (Nf3-e5), Ne3-f5 impossible; 11 moves.
#[test]
fn bland_bl4_knights_and_holes() {
    let b = bland("3k2/6/6/5*/5*/4NN/6/K5 w - - 0 1 WW/WW");
    assert_moves(&b, &["e3c2", "e3c4", "e3d1", "e3d5", "e3f1", "f3d2", "f3d4", "f3e1", "f3e5", "a1a2", "a1b1"], "BL4");
}

// Bland §7 BL5: black knight f6 (Nf6-e4 past the holes) and the Wazir king; 7 moves.
#[test]
fn bland_bl5_black_knight_wazir_king() {
    let b = bland("3k2/6/5n/5*/5*/6/6/K5 b - - 0 1 WW/WW");
    assert_moves(&b, &["f6d5", "f6d7", "f6e4", "f6e8", "d8c8", "d8d7", "d8e8"], "BL5");
}

const BL6_BOARD: &str = "k5/6/4pp/3pr*/3RP*/4pP/6/K5";

// Bland §7 BL6: White (WW) pawns capture forward (e4xe5) and sideways (f3xe3); 11 moves.
#[test]
fn bland_bl6_capturing_pawns() {
    let b = bland(&format!("{BL6_BOARD} w - - 0 1 WW/NW"));
    assert_moves(&b, &["a1a2", "a1b1", "d4a4", "d4b4", "d4c4", "d4d1", "d4d2", "d4d3", "d4d5", "e4e5", "f3e3"], "BL6");
    let a = play(&b, "f3e3");
    assert_eq!(a.piece_at("e3"), Some('P'), "sideways capture lands on e3");
    assert_eq!(a.piece_at("f3"), None);
    let a = play(&b, "e4e5");
    assert_eq!(a.piece_at("e5"), Some('P'), "forward capture lands on e5");
}

// Bland §7 BL7: Black (NW) pawns cannot capture; 4 moves.
#[test]
fn bland_bl7_non_capturing_pawns() {
    let b = bland(&format!("{BL6_BOARD} b - - 0 1 WW/NW"));
    assert_moves(&b, &["a8a7", "a8b8", "e5e4", "e3e2"], "BL7");
}

// Bland §7 BL8: promotion to R or W (WW side), f7-e7 sideways; 7 moves.
#[test]
fn bland_bl8_promotion_choices() {
    let b = bland("k5/2P2P/6/5*/5*/6/6/K5 w - - 0 1 WW/WW");
    assert_moves(&b, &["c7c8r", "c7c8w", "f7f8r", "f7f8w", "f7e7", "a1a2", "a1b1"], "BL8");
    let a = play(&b, "c7c8w");
    assert_eq!(a.piece_at("c8"), Some('W'));
}

// Bland §7 BL9: capturing pawn c7xc8 promotes; 7 moves.
#[test]
fn bland_bl9_capture_promotion() {
    let b = bland("k1r3/2P2P/6/5*/5*/6/6/K5 w - - 0 1 WW/WW");
    assert_moves(&b, &["c7c8r", "c7c8w", "f7f8r", "f7f8w", "f7e7", "a1a2", "a1b1"], "BL9");
    let a = play(&b, "c7c8r");
    assert_eq!(a.piece_at("c8"), Some('R'));
}

// Bland §7 BL10: NM side: c7 blocked, promotion to R, M, N; 6 moves.
#[test]
fn bland_bl10_non_capturing_promotion_set() {
    let b = bland("k1r3/2P2P/6/5*/5*/6/6/K5 w - - 0 1 NM/WW");
    assert_moves(&b, &["f7f8r", "f7f8m", "f7f8n", "f7e7", "a1a2", "a1b1"], "BL10");
}

// Bland §7 BL11 / §5: king capture rules — all 4 Wazir moves legal; after Kc4-c3, Rc2xc3 wins.
#[test]
fn bland_bl11_king_capture() {
    let b = bland("6/6/6/5*/2k2*/6/2R3/K5 b - - 0 1 WW/WW");
    assert_moves(&b, &["c4b4", "c4c3", "c4c5", "c4d4"], "BL11");
    let after = play(&b, "c4c3");
    assert_has_moves(&after, &["c2c3"], "BL11 after Kc4-c3");
    let won = play(&after, "c2c3");
    assert_eq!(won.piece_at("c3"), Some('R'), "the rook captured the king");
    // §5 perft convention: a node without one of the kings has no children.
    assert_eq!(won.perft(1), Ok(0), "no moves after the king is captured");
    assert!(won.legal_moves().is_empty(), "game over: no legal moves");
}

// Bland §7 provisional start: White's 8 first moves.
#[test]
fn bland_provisional_start_first_moves() {
    let b = bland(PROVISIONAL_START);
    assert_moves(&b, &["b1b3", "e1e3", "a2a3", "b2b3", "c2c3", "d2d3", "e2e3", "f2f3"], "provisional start");
}
