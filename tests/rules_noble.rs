//! Noble WingS Chess: every worked example of docs/rules/noble-wings-chess.md (§6 N1–N10,
//! W1–W4; "Noble WingS §n" below). The perft table is data in tests/data/perft/.

mod common;

use common::*;

const NOBLE: &str = "noble-wings";

fn noble(fen: &str) -> fairylab::Board {
    pos(NOBLE, &[], fen)
}

// Noble WingS §6 N1: start has 20 moves (16 pawn moves + 4 Baron knight jumps).
#[test]
fn noble_n1_start_moves() {
    let v = variant(NOBLE, &[]);
    let expected = [
        "a2a3", "a2a4", "b2b3", "b2b4", "c2c3", "c2c4", "d2d3", "d2d4", "e2e3", "e2e4", "f2f3", "f2f4", "g2g3", "g2g4",
        "h2h3", "h2h4", "b1a3", "b1c3", "g1f3", "g1h3",
    ];
    assert_moves(&v.start_position(), &expected, "N1 start_position()");
    let parsed = noble("eoaqkaoe/pppppppp/8/8/8/8/PPPPPPPP/EOAQKAOE w KQkq - 0 1");
    assert_moves(&parsed, &expected, "N1 parsed start FEN");
    assert_eq!(parsed.piece_at("a1"), Some('E'));
    assert_eq!(parsed.piece_at("b8"), Some('o'));
    assert_eq!(parsed.piece_at("f1"), Some('A'));
}

// Noble WingS §6 N2: Archbishop d4 = 13 bishop moves + 4 orthogonal steps; total 22.
#[test]
fn noble_n2_archbishop() {
    let b = noble("6k1/8/8/8/3A4/8/7K/8 w - - 0 1");
    assert_moves_from(
        &b,
        "d4",
        &[
            "d4a1", "d4b2", "d4c3", "d4e5", "d4f6", "d4g7", "d4h8", "d4a7", "d4b6", "d4c5", "d4e3", "d4f2", "d4g1",
            "d4c4", "d4e4", "d4d3", "d4d5",
        ],
        "N2",
    );
    assert_legal_count(&b, 22, "N2");
}

const BARON_KNIGHT_D4: [&str; 8] = ["d4b3", "d4b5", "d4c2", "d4c6", "d4e2", "d4e6", "d4f3", "d4f5"];

// Noble WingS §6 N3: Baron d4 = 8 knight moves + 8 king steps; total 21.
#[test]
fn noble_n3_baron() {
    let b = noble("6k1/8/8/8/3O4/8/7K/8 w - - 0 1");
    let mut expected = BARON_KNIGHT_D4.to_vec();
    expected.extend(["d4c3", "d4c4", "d4c5", "d4d3", "d4d5", "d4e3", "d4e4", "d4e5"]);
    assert_moves_from(&b, "d4", &expected, "N3");
    assert_legal_count(&b, 21, "N3");
}

const EARL_ROOK_D4: [&str; 14] =
    ["d4a4", "d4b4", "d4c4", "d4e4", "d4f4", "d4g4", "d4h4", "d4d1", "d4d2", "d4d3", "d4d5", "d4d6", "d4d7", "d4d8"];

// Noble WingS §6 N4: Earl d4 = 14 rook moves + 13 diagonal moves (max 4); total 32.
#[test]
fn noble_n4_earl() {
    let b = noble("6k1/8/8/8/3E4/8/7K/8 w - - 0 1");
    let mut expected = EARL_ROOK_D4.to_vec();
    expected.extend([
        "d4c3", "d4b2", "d4a1", "d4e5", "d4f6", "d4g7", "d4h8", "d4c5", "d4b6", "d4a7", "d4e3", "d4f2", "d4g1",
    ]);
    assert_moves_from(&b, "d4", &expected, "N4");
    assert_legal_count(&b, 32, "N4");
}

// Noble WingS §6 N5: Earl diagonal blocked by f6 (no diagonal capture): 24 moves; total 29.
#[test]
fn noble_n5_earl_diagonal_blocked() {
    let b = noble("6k1/8/5p2/8/3E4/8/7K/8 w - - 0 1");
    let mut expected = EARL_ROOK_D4.to_vec();
    expected.extend(["d4c3", "d4b2", "d4a1", "d4e5", "d4c5", "d4b6", "d4a7", "d4e3", "d4f2", "d4g1"]);
    assert_moves_from(&b, "d4", &expected, "N5");
    assert_legal_count(&b, 29, "N5");
}

// Noble WingS §6 N6: Baron cannot step onto the enemy pawn d5: 15 moves; total 20.
#[test]
fn noble_n6_baron_step_never_captures() {
    let b = noble("6k1/8/8/3p4/3O4/8/7K/8 w - - 0 1");
    let mut expected = BARON_KNIGHT_D4.to_vec();
    expected.extend(["d4c3", "d4c4", "d4c5", "d4d3", "d4e3", "d4e4", "d4e5"]);
    assert_moves_from(&b, "d4", &expected, "N6");
    assert_legal_count(&b, 20, "N6");
}

// Noble WingS §6 N7: Earl on the king's diagonal does not check; all 8 king moves.
#[test]
fn noble_n7_earl_diagonal_no_check() {
    let b = noble("8/6k1/8/8/3E4/8/7K/8 b - - 0 1");
    assert!(!b.in_check(), "N7: not in check");
    assert_moves(&b, &["g7f6", "g7f7", "g7f8", "g7g6", "g7g8", "g7h6", "g7h7", "g7h8"], "N7");
}

// Noble WingS §6 N8: Archbishop on the diagonal checks; 6 king moves.
#[test]
fn noble_n8_archbishop_check() {
    let b = noble("8/6k1/8/8/3A4/8/7K/8 b - - 0 1");
    assert!(b.in_check(), "N8: in check");
    assert_moves(&b, &["g7f7", "g7f8", "g7g6", "g7g8", "g7h6", "g7h7"], "N8");
}

// Noble WingS §6 N9: adjacent Baron does not check; the king may take it.
#[test]
fn noble_n9_adjacent_baron_no_check() {
    let b = noble("8/8/8/3k4/3O4/8/7K/8 b - - 0 1");
    assert!(!b.in_check(), "N9: not in check");
    assert_moves(&b, &["d5c4", "d5c5", "d5d6", "d5e4", "d5e5", "d5d4"], "N9");
}

// Noble WingS §6 N10 / §5.1: castling with Earls (e1g1, e1c1).
#[test]
fn noble_n10_castling_with_earls() {
    let b = noble("e3k2e/8/8/8/8/8/8/E3K2E w KQkq - 0 1");
    assert_moves_from(&b, "e1", &["e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1", "e1c1"], "N10");
    let a = play(&b, "e1g1");
    assert_eq!(a.piece_at("g1"), Some('K'));
    assert_eq!(a.piece_at("f1"), Some('E'));
    assert_eq!(a.piece_at("h1"), None);
    let a = play(&b, "e1c1");
    assert_eq!(a.piece_at("c1"), Some('K'));
    assert_eq!(a.piece_at("d1"), Some('E'));
    assert_eq!(a.piece_at("a1"), None);
}

// Noble WingS §6 W1 / §5.2: nothing lost → b7-b8 and b7xc8 without promotion; total 69.
#[test]
fn noble_w1_waiting_pawn_moves() {
    let b = noble("2e1k3/1P6/8/8/8/8/8/EOAQKAOE w - - 0 1");
    assert_moves_from(&b, "b7", &["b7b8", "b7c8"], "W1");
    assert_legal_count(&b, 69, "W1");
    let a = play(&b, "b7b8");
    assert_eq!(a.piece_at("b8"), Some('P'), "waiting pawn stays a pawn");
    let a = play(&b, "b7c8");
    assert_eq!(a.piece_at("c8"), Some('P'), "waiting pawn after capture");
}

const W2: &str = "1Pe1k3/8/8/8/8/8/8/EOAQKAOE b - - 0 1";

// Noble WingS §6 W2: the waiting pawn b8 cannot be captured; Black's 17 moves.
#[test]
fn noble_w2_waiting_pawn_not_capturable() {
    let b = noble(W2);
    assert_moves(
        &b,
        &[
            "c8a6", "c8b7", "c8c2", "c8c3", "c8c4", "c8c5", "c8c6", "c8c7", "c8d7", "c8d8", "c8e6", "c8f5", "c8g4",
            "c8c1", "e8e7", "e8f7", "e8f8",
        ],
        "W2",
    );
    // W2 is W1 after b7b8.
    let from_w1 = play(&noble("2e1k3/1P6/8/8/8/8/8/EOAQKAOE w - - 0 1"), "b7b8");
    assert_eq!(moves_of(&from_w1), moves_of(&b), "W1 + b7b8 = W2");
}

// Noble WingS §6 W2 / §5.2 rule 4: after Ec8xc1 the b8 pawn becomes a White Archbishop.
#[test]
fn noble_w2_waiting_pawn_converts() {
    let b = noble(W2);
    let a = play(&b, "c8c1");
    assert_eq!(a.piece_at("b8"), Some('A'), "b8 converts to the lost Archbishop");
    assert_eq!(a.piece_at("c1"), Some('e'));
}

// Noble WingS §6 W3 / §5.2 rule 5: Ed2xd1 illegal (b8 would become a checking queen); 25 moves.
#[test]
fn noble_w3_conversion_check_makes_capture_illegal() {
    let b = noble("1P2k3/8/8/8/8/8/3e4/EOAQKAOE b - - 0 1");
    assert_lacks_moves(&b, &["d2d1"], "W3");
    assert_moves(
        &b,
        &[
            "d2a2", "d2b2", "d2c2", "d2e2", "d2f2", "d2g2", "d2h2", "d2d3", "d2d4", "d2d5", "d2d6", "d2d7", "d2d8",
            "d2c3", "d2b4", "d2a5", "d2e3", "d2f4", "d2g5", "d2h6", "e8d7", "e8d8", "e8e7", "e8f7", "e8f8",
        ],
        "W3",
    );
}

// Noble WingS §6 W4 / §5.2: queen lost → only b7-b8=Q and b7xc8=Q; total 57.
#[test]
fn noble_w4_promotion_to_lost_queen_only() {
    let b = noble("2e1k3/1P6/8/8/8/8/8/EOA1KAOE w - - 0 1");
    assert_moves_from(&b, "b7", &["b7b8q", "b7c8q"], "W4");
    assert_legal_count(&b, 57, "W4");
    let a = play(&b, "b7b8q");
    assert_eq!(a.piece_at("b8"), Some('Q'));
}
