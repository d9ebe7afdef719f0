//! What a quiet position is, defined once for every tool that learns from recorded games
//! (the piece-value regression, the evaluation tuner). Material in the middle of an
//! exchange says nothing about who is better, so those positions are left out.
//!
//! A recorded position is quiet when it was not reached by a capture (the opponent may be
//! about to recapture), the move played from it is not a capture (it may be the first half
//! of a trade), and the side to move is not in check (a check often forces a material
//! change): a cheap stand-in for a quiescence search.

use super::output::PositionRow;
use crate::Board;

/// Whether the material of `row` is settled: neither the move played from it nor the move
/// that reached it captured. `previous` is the row before it in its file (a game's rows are
/// written together, in ply order); a row of another game or ply is no evidence.
pub fn settled(previous: Option<&PositionRow>, row: &PositionRow) -> bool {
    let reached_by_capture = previous.is_some_and(|p| p.game_id == row.game_id && p.ply + 1 == row.ply && p.capture);
    !reached_by_capture && !row.capture
}

/// The side to move is not in check: the second half of the definition, for the position
/// once it is on the board.
pub fn unchecked(board: &Board) -> bool {
    !board.in_check()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(game_id: u64, ply: u32, capture: bool) -> PositionRow {
        PositionRow { game_id, ply, fen: String::new(), score_white: None, capture, result: 0.5 }
    }

    #[test]
    fn captures_on_either_side_of_a_position_unsettle_it() {
        assert!(settled(None, &row(0, 0, false)));
        assert!(!settled(None, &row(0, 0, true)), "the move played from it captured");
        assert!(!settled(Some(&row(0, 4, true)), &row(0, 5, false)), "reached by a capture");
        assert!(settled(Some(&row(0, 4, false)), &row(0, 5, false)));
        assert!(settled(Some(&row(0, 9, true)), &row(1, 0, false)), "another game's capture");
        assert!(settled(Some(&row(0, 3, true)), &row(0, 5, false)), "not the ply before");
    }
}
