//! Pawn moves: pushes and multi-steps from the start rank, captures (diagonal or
//! straight ahead), sideways steps off listed files, en passant over one or two squares,
//! and promotion, including "only to lost pieces" with waiting pawns.

use super::movegen::Sink;
use super::moves::*;
use super::*;

impl<B: Bits> Position<B> {
    pub(super) fn generate_pawns<S: Sink<B>>(&self, list: &mut S, pawns: B, empty: B, enemy: B) {
        let r = self.rules;
        let p = r.pawn.as_ref().expect("pawn type without pawn rules");
        let us = self.side;
        let can_capture = self.pawn_capture[us];
        for from in pawns.iter() {
            let to = p.push[us][from];
            if to != NO_SQUARE && empty.has(to as usize) {
                self.pawn_move(list, from, to as usize, QUIET);
                if p.multi_step > 1 && p.start[us].has(from) {
                    let mut cur = to as usize;
                    for _ in 1..p.multi_step {
                        let next = p.push[us][cur];
                        if next == NO_SQUARE || !empty.has(next as usize) {
                            break;
                        }
                        cur = next as usize;
                        self.pawn_move(list, from, cur, MULTI);
                    }
                }
            }
            for to in (p.sideways[from] & empty).iter() {
                self.pawn_move(list, from, to, QUIET);
            }
            if can_capture {
                for to in (p.captures[us][from] & enemy).iter() {
                    self.pawn_move(list, from, to, CAPTURE);
                }
            }
        }
        if self.ep[0] != NO_SQUARE && can_capture {
            for &e in self.ep.iter().filter(|&&e| e != NO_SQUARE) {
                for from in (p.captures_rev[us][e as usize] & pawns).iter() {
                    let m = Move::new(from, e as usize, EN_PASSANT).with_aux(self.ep_victim as usize);
                    list.one(self, m);
                }
            }
        }
    }

    /// Types the side to move may promote to right now.
    #[inline]
    pub fn available_promotions(&self) -> u16 {
        let r = self.rules;
        let us = self.side;
        let mut mask = self.promo_types[us];
        if r.pawn.as_ref().is_some_and(|p| p.only_lost) {
            let mut m = mask;
            while m != 0 {
                let t = m.trailing_zeros() as usize;
                m &= m - 1;
                if self.pieces(us, t).count() >= r.initial_counts[us][t] as u32 {
                    mask &= !(1 << t);
                }
            }
        }
        mask
    }

    #[inline]
    fn pawn_move<S: Sink<B>>(&self, list: &mut S, from: usize, to: usize, kind: u32) {
        let p = self.rules.pawn.as_ref().unwrap();
        if !p.promo_zone[self.side].has(to) {
            list.one(self, Move::new(from, to, kind));
            return;
        }
        let mut mask = self.available_promotions();
        if mask == 0 && p.only_lost {
            // Nothing lost yet: the pawn waits on the last rank.
            list.one(self, Move::new(from, to, kind));
            return;
        }
        while mask != 0 {
            let t = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            list.one(self, Move::new(from, to, kind).with_promo(t));
        }
    }
}
