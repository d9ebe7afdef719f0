//! The history heuristics: killers, counter-moves, the butterfly history and the
//! continuation history (a quiet move after the moves one and two plies before), and
//! how a cutoff rewards them.

use super::{Searcher, HISTORY_MAX, NO_KEY};
use crate::position::{code_type, Move, Position};
use crate::rules::Bits;

impl<B: Bits> Searcher<B> {
    /// The reply that last refuted the opponent's previous move.
    pub(super) fn counter_move(&self, pos: &Position<B>, ply: usize) -> Move {
        if ply == 0 {
            return Move::NULL;
        }
        let prev = self.moves_made[ply - 1];
        if prev == Move::NULL {
            return Move::NULL;
        }
        self.counters[Self::history_index(pos.side() ^ 1, prev)]
    }

    pub(super) fn is_killer(&self, m: Move, ply: usize) -> bool {
        self.killers[ply][0] == m || self.killers[ply][1] == m
    }

    pub(super) fn reward_quiet(&mut self, pos: &Position<B>, m: Move, depth: i32, ply: usize, tried: &[Move]) {
        if self.killers[ply][0] != m {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = m;
        }
        let us = pos.side();
        if ply > 0 && self.moves_made[ply - 1] != Move::NULL {
            let prev = self.moves_made[ply - 1];
            self.counters[Self::history_index(us ^ 1, prev)] = m;
        }
        // History with gravity: bounded in [-HISTORY_MAX, HISTORY_MAX] without rescaling,
        // and the quiet moves that failed before the cutoff are pushed down.
        let bonus = (32 * depth * depth).min(1600);
        let h = &mut self.history[Self::history_index(us, m)];
        *h += bonus - *h * bonus / HISTORY_MAX;
        let bases = self.cont_bases(us, ply);
        self.reward_cont(pos, m, bases, bonus);
        for &q in tried {
            let h = &mut self.history[Self::history_index(us, q)];
            *h += -bonus - *h * bonus / HISTORY_MAX;
            self.reward_cont(pos, q, bases, -bonus);
        }
    }

    /// The (piece type, target) key of `m` in `pos` (before it is made).
    #[inline(always)]
    pub(super) fn move_key(&self, pos: &Position<B>, m: Move) -> u16 {
        (code_type(pos.code_at(m.from())) * self.cont_dims.1 + m.to()) as u16
    }

    /// Where the continuation entries after the moves one and two plies before `ply` start
    /// in `cont`, for the side to move; without such a move, the zero slab at the end, so
    /// a lookup needs no branch.
    #[inline(always)]
    pub(super) fn cont_bases(&self, side: usize, ply: usize) -> [usize; 2] {
        let keys = self.cont_dims.0 * self.cont_dims.1;
        let zero = self.cont.len() - keys;
        [1, 2].map(|back| {
            if ply < back || self.moved[ply - back] == NO_KEY {
                zero
            } else {
                self.moved[ply - back] as usize * 2 * keys + side * keys
            }
        })
    }

    /// A quiet move's history: its own, plus how it fared after the last two moves
    /// (`bases` from `cont_bases`).
    #[inline(always)]
    pub(super) fn quiet_score_at(&self, pos: &Position<B>, m: Move, bases: [usize; 2]) -> i32 {
        let own = self.history[Self::history_index(pos.side(), m)];
        if !self.params.continuation_history {
            return own;
        }
        let key = self.move_key(pos, m) as usize;
        own + self.cont[bases[0] + key] as i32 + self.cont[bases[1] + key] as i32
    }

    #[inline]
    pub(super) fn quiet_score(&self, pos: &Position<B>, m: Move, ply: usize) -> i32 {
        self.quiet_score_at(pos, m, self.cont_bases(pos.side(), ply))
    }

    fn reward_cont(&mut self, pos: &Position<B>, m: Move, bases: [usize; 2], bonus: i32) {
        if !self.params.continuation_history {
            return;
        }
        let key = self.move_key(pos, m) as usize;
        let zero = self.cont.len() - self.cont_dims.0 * self.cont_dims.1;
        for base in bases {
            if base != zero {
                let h = self.cont[base + key] as i32;
                self.cont[base + key] = (h + bonus - h * bonus.abs() / HISTORY_MAX) as i16;
            }
        }
    }
}
