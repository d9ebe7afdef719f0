//! Orthodox chess perft table (/work/shared/rules/chess.md §4) and the
//! Capablanca start-position perft.

mod common;

use common::*;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POS3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POS4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POS5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const POS6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

const CAPABLANCA_START: &str = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";

fn chess(fen: &str) -> fairylab::Board {
    pos("chess", &[], fen)
}

// chess.md §4: start position, depths 1–4.
#[test]
fn chess_perft_start() {
    assert_perft(&chess(START), &[20, 400, 8_902, 197_281], "start");
}

// chess.md §4: start position, depth 5 = 4 865 609.
#[test]
fn chess_perft_start_d5() {
    assert_perft_at(&chess(START), 5, 4_865_609, "start");
}

// chess.md §1: start_position() of the "chess" variant is the documented start FEN.
#[test]
fn chess_start_position_matches_fen() {
    let v = variant("chess", &[]);
    assert_eq!(moves_of(&v.start_position()), moves_of(&chess(START)));
    assert_eq!(v.start_position().side_to_move(), 'w');
}

// chess.md §4: "Kiwipete" (position 2), depths 1–4.
#[test]
fn chess_perft_kiwipete() {
    assert_perft(&chess(KIWIPETE), &[48, 2_039, 97_862, 4_085_603], "Kiwipete");
}

// chess.md §4: position 3, depths 1–4.
#[test]
fn chess_perft_position3() {
    assert_perft(&chess(POS3), &[14, 191, 2_812, 43_238], "position 3");
}

// chess.md §4: position 3, depth 5 = 674 624.
#[test]
fn chess_perft_position3_d5() {
    assert_perft_at(&chess(POS3), 5, 674_624, "position 3");
}

// chess.md §4: position 4, depths 1–4.
#[test]
fn chess_perft_position4() {
    assert_perft(&chess(POS4), &[6, 264, 9_467, 422_333], "position 4");
}

// chess.md §4: position 4, depth 5 = 15 833 292.
#[test]
fn chess_perft_position4_d5() {
    assert_perft_at(&chess(POS4), 5, 15_833_292, "position 4");
}

// chess.md §4: position 5, depths 1–4.
#[test]
fn chess_perft_position5() {
    assert_perft(&chess(POS5), &[44, 1_486, 62_379, 2_103_487], "position 5");
}

// chess.md §4: position 6, depths 1–4.
#[test]
fn chess_perft_position6() {
    assert_perft(&chess(POS6), &[46, 2_079, 89_890, 3_894_594], "position 6");
}

// Capablanca (10×8) start perft, depths 1–4: 28 / 784 / 25 228 / 805 128.
#[test]
fn capablanca_perft_start() {
    let b = pos("capablanca", &[], CAPABLANCA_START);
    assert_perft(&b, &[28, 784, 25_228, 805_128], "Capablanca start");
}

// Capablanca start, depth 5 = 28 741 319 (Fairy-Stockfish's value; about a second in release).
#[test]
fn capablanca_perft_start_d5() {
    let b = pos("capablanca", &[], CAPABLANCA_START);
    assert_perft_at(&b, 5, 28_741_319, "Capablanca start");
}

// Capablanca: start_position() equals the documented start FEN.
#[test]
fn capablanca_start_position_matches_fen() {
    let v = variant("capablanca", &[]);
    let parsed = pos("capablanca", &[], CAPABLANCA_START);
    assert_eq!(moves_of(&v.start_position()), moves_of(&parsed));
    assert_eq!(parsed.piece_at("c1"), Some('A'));
    assert_eq!(parsed.piece_at("h1"), Some('C'));
    assert_eq!(parsed.piece_at("f8"), Some('k'));
}
