//! Pseudo-legal move generation: every move the pieces make, before the king-safety test.
//!
//! One generator feeds a [`Sink`]: a move list collects the moves, a leaf counter counts
//! most of them by population count without ever building them (bulk perft).

use super::moves::*;
use super::*;
use crate::variant::betza::{CAPTURE as CAP, MOVE as MV};

/// Receives generated moves.
pub trait Sink<B: Bits> {
    /// Moves of one kind from `from` to every square of `to` (never promotions).
    fn bulk(&mut self, pos: &Position<B>, from: usize, to: B, kind: u32);
    fn one(&mut self, pos: &Position<B>, m: Move);
    /// Moves of one kind to every square of `to`, each from `to - delta` (pawns; never
    /// promotions).
    fn shifted(&mut self, pos: &Position<B>, to: B, delta: isize, kind: u32);
}

impl<B: Bits> Sink<B> for MoveList {
    #[inline(always)]
    fn bulk(&mut self, _: &Position<B>, from: usize, to: B, kind: u32) {
        for t in to.iter() {
            self.push(Move::new(from, t, kind));
        }
    }
    #[inline(always)]
    fn one(&mut self, _: &Position<B>, m: Move) {
        self.push(m);
    }
    #[inline(always)]
    fn shifted(&mut self, _: &Position<B>, to: B, delta: isize, kind: u32) {
        for t in to.iter() {
            self.push(Move::new((t as isize - delta) as usize, t, kind));
        }
    }
}

impl<B: Bits> Position<B> {
    /// Pieces of the side to move may capture these (enemy pieces minus uncapturable
    /// waiting pawns).
    #[inline(always)]
    pub(super) fn targets(&self) -> B {
        self.by_color[self.side ^ 1] & !self.waiting_pawns(self.side ^ 1)
    }

    /// Appends all pseudo-legal moves of the side to move.
    pub fn generate(&self, list: &mut MoveList) {
        self.generate_into(list);
    }

    /// Feeds all pseudo-legal moves of the side to move to a sink.
    #[inline(always)]
    pub fn generate_into<S: Sink<B>>(&self, list: &mut S) {
        let r = self.rules;
        let us = self.side;
        let own = self.by_color[us];
        let empty = r.exists & !self.occ;
        let enemy = self.targets();
        let nt = r.ntypes();
        for t in 0..nt {
            let bb = self.by_type[t] & own;
            if bb.is_empty() {
                continue;
            }
            // The pawn and the types with special atoms have generators of their own, so the
            // loop below stays that of plain leapers and riders.
            if r.apart[us] >> t & 1 != 0 {
                if Some(t) == r.pawn_type {
                    self.generate_pawns(list, bb, empty, enemy);
                } else {
                    self.generate_special_type(list, t, bb, empty, enemy);
                }
                continue;
            }
            let riders = &r.riders[us * nt + t];
            let bomber = Some(t) == r.bomber;
            for from in bb.iter() {
                let (quiet, caps) = self.table_moves(t, riders, from, empty, enemy);
                list.bulk(self, from, quiet, QUIET);
                list.bulk(self, from, caps, CAPTURE);
                if bomber {
                    self.generate_bomber(list, from, empty, enemy);
                }
            }
        }
        if self.castling & (0xF << (us * 4)) != 0 {
            self.generate_castling(list);
        }
    }

    /// Quiet and capture targets of the side to move's piece of type `t` on `from` by its
    /// leaps and rides (`riders` its rider atoms).
    #[inline(always)]
    pub(super) fn table_moves(
        &self,
        t: usize,
        riders: &[crate::rules::RiderAtom],
        from: usize,
        empty: B,
        enemy: B,
    ) -> (B, B) {
        let r = self.rules;
        let i = r.idx(self.side, t, from);
        let mut quiet = r.leap_quiet[i] & empty;
        let mut caps = r.leap_cap[i] & enemy;
        for a in riders {
            let att = r.rider_attacks(a, from, self.occ);
            if a.mode & MV != 0 {
                quiet |= att & empty;
            }
            if a.mode & CAP != 0 {
                caps |= att & enemy;
            }
        }
        (quiet, caps)
    }

    fn generate_castling<S: Sink<B>>(&self, list: &mut S) {
        let r = self.rules;
        let us = self.side;
        let mut checked = None;
        for (i, o) in r.castling.iter().enumerate() {
            if o.color != us || self.castling & (1 << o.right) == 0 || (self.occ & o.empty).any() {
                continue;
            }
            let in_check = *checked.get_or_insert_with(|| self.in_check());
            if in_check {
                return;
            }
            let kf = o.king_from as usize;
            // Transit squares are tested with the king standing on them (bombers see
            // the square behind the king), the rook still at home.
            let safe = o.transit.iter().all(|&s| {
                let occ = (self.occ & !B::bit(kf)) | B::bit(s as usize);
                !self.attacked_with(s as usize, us ^ 1, occ, self.by_color[us ^ 1])
            });
            if safe {
                list.one(self, Move::new(kf, o.king_to as usize, CASTLE).with_aux(i));
            }
        }
    }
}
