//! Move ordering: hash move, captures by the value of everything they remove (both bomber
//! victims count) minus a little for the capturer, promotions, killers, history.

use super::Searcher;
use crate::position::{code_type, moves::*, Position};
use crate::rules::Bits;

impl<B: Bits> Searcher<B> {
    pub(super) fn score_moves(&self, pos: &Position<B>, list: &MoveList, scores: &mut [i32], tt: Move, ply: usize) {
        let us = pos.side();
        for (i, &m) in list.iter().enumerate() {
            scores[i] = if m == tt {
                1 << 30
            } else if m.is_capture() || m.promo().is_some() {
                let mut gain = 0;
                let value = |sq: usize| {
                    let c = pos.code_at(sq);
                    if c == 0 {
                        0
                    } else {
                        self.piece_values[code_type(c)]
                    }
                };
                match m.kind() {
                    CAPTURE => gain += value(m.to()),
                    BOMB | EN_PASSANT => gain += value(m.aux()),
                    DOUBLE => gain += value(m.aux()) + value(m.to()),
                    _ => {}
                }
                if pos.rules.is_king_capture()
                    && (m.kind() == CAPTURE)
                    && code_type(pos.code_at(m.to())) == pos.rules.king
                {
                    gain += 100_000;
                }
                if let Some(p) = m.promo() {
                    gain += self.piece_values[p];
                }
                (1 << 28) + gain * 16 - self.piece_values[code_type(pos.code_at(m.from()))] / 16
            } else if self.killers[ply][0] == m {
                (1 << 27) + 1
            } else if self.killers[ply][1] == m {
                1 << 27
            } else {
                self.history[us * 16384 + m.from() * 128 + m.to()]
            };
        }
    }
}

/// Moves the best-scored remaining move to position `i` and returns it.
#[inline]
pub fn pick(list: &mut MoveList, scores: &mut [i32], i: usize) -> Move {
    let mut best = i;
    for j in i + 1..list.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    list.swap(i, best);
    scores.swap(i, best);
    list[i]
}
