//! Move ordering: hash move, captures that survive one recapture by the value of everything
//! they remove (both bomber victims count) minus a little for the capturer, promotions,
//! killers, the counter-move, losing captures, then quiet moves by history.

use super::Searcher;
use crate::position::{code_type, moves::*, Position};
use crate::rules::Bits;
use std::mem::MaybeUninit;

const TT_MOVE: i32 = 1 << 30;
pub(super) const GOOD_NOISY: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
const COUNTER: i32 = (1 << 27) - 1;
pub(super) const BAD_NOISY: i32 = 1 << 26;

/// Room for one node's move scores, left uninitialised like `MoveList`: zeroing 4 KB at
/// every node cost more than scoring the moves.
pub(super) struct Scores([MaybeUninit<i32>; MAX_MOVES]);

impl Scores {
    #[inline(always)]
    pub(super) fn new() -> Scores {
        Scores([const { MaybeUninit::uninit() }; MAX_MOVES])
    }
}

impl<B: Bits> Searcher<B> {
    /// Scores every move of `list` into `room`; the returned slice has one score per move.
    pub(super) fn score_moves<'a>(
        &self,
        pos: &Position<B>,
        list: &MoveList,
        room: &'a mut Scores,
        tt: Move,
        ply: usize,
        counter: Move,
    ) -> &'a mut [i32] {
        let bases = self.cont_bases(pos.side(), ply);
        for (i, &m) in list.iter().enumerate() {
            room.0[i].write(if m == tt {
                TT_MOVE
            } else if m.is_capture() || m.promo().is_some() {
                let gain = self.gain(pos, m);
                let king = self.takes_king(pos, m);
                let order = (gain + if king { 100_000 } else { 0 }) * 16
                    - self.piece_values[code_type(pos.code_at(m.from()))] / 16
                    + self.capture_score(pos, m);
                // `see_ge(pos, m, 0)`, reusing the gain: castling and taking the king pass.
                let good = m.kind() == CASTLE || king || self.see_ge_gaining(pos, m, 0, gain);
                if good {
                    GOOD_NOISY + order
                } else {
                    BAD_NOISY + order
                }
            } else if self.killers[ply][0] == m {
                KILLER + 1
            } else if self.killers[ply][1] == m {
                KILLER
            } else if m == counter {
                COUNTER
            } else {
                self.quiet_score_at(pos, m, bases)
            });
        }
        // SAFETY: the loop above wrote the first `list.len()` entries (at most MAX_MOVES).
        unsafe { std::slice::from_raw_parts_mut(room.0.as_mut_ptr() as *mut i32, list.len()) }
    }

    #[inline(always)]
    pub(super) fn history_index(side: usize, m: Move) -> usize {
        side * 16384 + m.from() * 128 + m.to()
    }
}

/// Moves the best-scored remaining move to position `i` and returns it.
#[inline]
pub fn pick(list: &mut MoveList, scores: &mut [i32], i: usize) -> Move {
    // The first of the best scores, as a scan with `>` finds it.
    let mut best = i;
    let mut top = scores[i];
    for (j, &s) in scores[..list.len()].iter().enumerate().skip(i + 1) {
        if s > top {
            best = j;
            top = s;
        }
    }
    list.swap(i, best);
    scores.swap(i, best);
    list[i]
}
