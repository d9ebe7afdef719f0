//! The history heuristics: killers, counter-moves, the butterfly history and the
//! continuation history (a quiet move after the moves one and two plies before), the
//! capture history (a piece taking a victim on a square), and how a cutoff rewards them.

use super::{Searcher, HISTORY_MAX, NO_KEY};
use crate::position::{code_type, moves::*, Move, Position};
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
        // The quiet moves that failed before the cutoff are pushed down.
        let bonus = cutoff_bonus(depth);
        let h = &mut self.history[Self::history_index(us, m)];
        *h = with_gravity(*h, bonus);
        let bases = self.cont_bases(us, ply);
        self.reward_cont(pos, m, bases, bonus);
        for &q in tried {
            let h = &mut self.history[Self::history_index(us, q)];
            *h = with_gravity(*h, -bonus);
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
                self.cont[base + key] = with_gravity(self.cont[base + key] as i32, bonus) as i16;
            }
        }
    }

    /// The capture-history slot of a noisy move (before it is made): side, moving type,
    /// target and the victim's type, or one past the types when nothing is taken (a
    /// promotion).
    #[inline(always)]
    fn capture_index(&self, pos: &Position<B>, m: Move) -> usize {
        let (types, nsq) = self.cont_dims;
        let victim_sq = match m.kind() {
            CAPTURE => Some(m.to()),
            // A bomber's double capture keys on the victim away from its target.
            BOMB | EN_PASSANT | DOUBLE => Some(m.aux()),
            _ => None,
        };
        let victim = victim_sq.map(|sq| pos.code_at(sq)).filter(|&c| c != 0).map_or(types, code_type);
        ((pos.side() * types + code_type(pos.code_at(m.from()))) * nsq + m.to()) * (types + 1) + victim
    }

    /// A noisy move's capture history, scaled by `capture_history` (percent); 0 when off.
    #[inline(always)]
    pub(super) fn capture_score(&self, pos: &Position<B>, m: Move) -> i32 {
        let w = self.params.capture_history;
        if w == 0 {
            return 0;
        }
        self.capt[self.capture_index(pos, m)] as i32 * w / 100
    }

    /// After a cutoff at `depth`: the cutting noisy move (if it was one) gains, the noisy
    /// moves searched before it lose.
    pub(super) fn reward_captures(&mut self, pos: &Position<B>, cut: Option<Move>, depth: i32, tried: &[Move]) {
        if self.params.capture_history == 0 {
            return;
        }
        let bonus = cutoff_bonus(depth);
        let push = |s: &mut Self, m: Move, b: i32| {
            let i = s.capture_index(pos, m);
            s.capt[i] = with_gravity(s.capt[i] as i32, b) as i16;
        };
        if let Some(m) = cut {
            push(self, m, bonus);
        }
        for &m in tried {
            push(self, m, -bonus);
        }
    }
}

/// What a cutoff at `depth` adds to the cutting move's histories (and takes from the moves
/// tried before it).
fn cutoff_bonus(depth: i32) -> i32 {
    (32 * depth * depth).min(1600)
}

/// History with gravity: `h` moved by `bonus` and pulled toward 0 by its own size, so it
/// stays within ±HISTORY_MAX without rescaling.
#[inline(always)]
fn with_gravity(h: i32, bonus: i32) -> i32 {
    h + bonus - h * bonus.abs() / HISTORY_MAX
}
