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
        self.reward_cont(pos, m, ply, bonus);
        for &q in tried {
            let h = &mut self.history[Self::history_index(us, q)];
            *h += -bonus - *h * bonus / HISTORY_MAX;
            self.reward_cont(pos, q, ply, -bonus);
        }
    }

    /// The (piece type, target) key of `m` in `pos` (before it is made).
    #[inline(always)]
    pub(super) fn move_key(&self, pos: &Position<B>, m: Move) -> u16 {
        (code_type(pos.code_at(m.from())) * self.cont_dims.1 + m.to()) as u16
    }

    /// Where `m` after the move made `back` plies before `ply` is kept in `cont`, if there
    /// was such a move.
    #[inline(always)]
    pub(super) fn cont_index(&self, pos: &Position<B>, m: Move, ply: usize, back: usize) -> Option<usize> {
        if ply < back || self.moved[ply - back] == NO_KEY {
            return None;
        }
        let keys = self.cont_dims.0 * self.cont_dims.1;
        let own = pos.side() * keys + self.move_key(pos, m) as usize;
        Some(self.moved[ply - back] as usize * 2 * keys + own)
    }

    /// A quiet move's history: its own, plus how it fared after the last two moves.
    #[inline]
    pub(super) fn quiet_score(&self, pos: &Position<B>, m: Move, ply: usize) -> i32 {
        let mut s = self.history[Self::history_index(pos.side(), m)];
        for back in [1, 2] {
            if let Some(i) = self.cont_index(pos, m, ply, back) {
                s += self.cont[i] as i32;
            }
        }
        s
    }

    pub(super) fn reward_cont(&mut self, pos: &Position<B>, m: Move, ply: usize, bonus: i32) {
        for back in [1, 2] {
            if let Some(i) = self.cont_index(pos, m, ply, back) {
                let h = self.cont[i] as i32;
                self.cont[i] = (h + bonus - h * bonus.abs() / HISTORY_MAX) as i16;
            }
        }
    }
}
