//! Orthodox chess and Capablanca chess: the shipped start positions are the documented
//! ones (docs/rules/chess.md). Their perft tables are data: tests/data/perft/, run by
//! tests/perft.rs.

mod common;

use common::*;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

const CAPABLANCA_START: &str = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";

fn chess(fen: &str) -> fairylab::Board {
    pos("chess", &[], fen)
}

// chess.md §1: start_position() of the "chess" variant is the documented start FEN.
#[test]
fn chess_start_position_matches_fen() {
    let v = variant("chess", &[]);
    assert_eq!(moves_of(&v.start_position()), moves_of(&chess(START)));
    assert_eq!(v.start_position().side_to_move(), 'w');
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
