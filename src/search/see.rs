//! Static exchange estimate: does a move win at least `threshold` centipawns once the
//! opponent's best single recapture is taken into account?
//!
//! A full swap-off sequence needs "the least valuable attacker of a square", which the
//! Flying Bomber has no such thing as: its captures land away from the victim, so the next
//! capture of a bomber exchange happens on another square. One recapture, looked up with
//! `attacked_with` on the board after the move (which knows the bomber's dependence on the
//! square behind its target), is exact for every game and is what pruning and ordering need:
//! it tells a queen taking a defended pawn from a knight taking an undefended one.

use super::Searcher;
use crate::position::{code_type, moves::*, Position};
use crate::rules::Bits;

impl<B: Bits> Searcher<B> {
    /// Material removed by `m` (both bomber victims count) plus a promotion's gain.
    pub(super) fn gain(&self, pos: &Position<B>, m: Move) -> i32 {
        let value = |sq: usize| {
            let c = pos.code_at(sq);
            if c == 0 {
                0
            } else {
                self.piece_values[code_type(c)]
            }
        };
        let mut gain = match m.kind() {
            CAPTURE => value(m.to()),
            BOMB | EN_PASSANT => value(m.aux()),
            DOUBLE => value(m.aux()) + value(m.to()),
            _ => 0,
        };
        if let Some(p) = m.promo() {
            gain += self.piece_values[p] - self.piece_values[code_type(pos.code_at(m.from()))];
        }
        gain
    }

    /// Whether `m` takes the royal piece (king-capture games): always worth playing.
    pub(super) fn takes_king(&self, pos: &Position<B>, m: Move) -> bool {
        let r = pos.rules;
        if !r.is_king_capture() {
            return false;
        }
        let royal = |sq: usize| pos.code_at(sq) != 0 && code_type(pos.code_at(sq)) == r.king;
        match m.kind() {
            CAPTURE => royal(m.to()),
            BOMB | EN_PASSANT => royal(m.aux()),
            DOUBLE => royal(m.aux()) || royal(m.to()),
            _ => false,
        }
    }

    /// True when `m` is expected to gain at least `threshold` after one best recapture.
    pub(super) fn see_ge(&self, pos: &Position<B>, m: Move, threshold: i32) -> bool {
        if m.kind() == CASTLE || self.takes_king(pos, m) {
            return threshold <= 0;
        }
        let gain = self.gain(pos, m);
        if gain < threshold {
            return false;
        }
        let mover = match m.promo() {
            Some(p) => self.piece_values[p],
            None => self.piece_values[code_type(pos.code_at(m.from()))],
        };
        if gain - mover >= threshold {
            return true;
        }
        let them = pos.side() ^ 1;
        let (from, to) = (m.from(), m.to());
        let mut removed = B::ZERO;
        match m.kind() {
            CAPTURE => removed = B::bit(to),
            BOMB | EN_PASSANT => removed = B::bit(m.aux()),
            DOUBLE => removed = B::bit(m.aux()) | B::bit(to),
            _ => {}
        }
        let occ = (pos.occupied() & !B::bit(from) & !removed) | B::bit(to);
        let attackers = pos.color_bb(them) & !removed;
        if !pos.attacked_with(to, them, occ, attackers) {
            return true;
        }
        gain - mover >= threshold
    }
}
