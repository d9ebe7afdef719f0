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
        let promo = p.promo_zone[us];
        let dir = if us == 0 { r.geo.files as isize } else { -(r.geo.files as isize) };
        // Set-wise: pushes, multi-steps, and (orthodox) captures by shifting all pawns at
        // once; the few promotions go one by one.
        let mut cur = pawns.shift(dir) & empty;
        self.pawn_targets(list, cur, dir, QUIET, promo);
        cur &= (p.start[us]).shift(dir);
        for k in 2..=p.multi_step as isize {
            cur = cur.shift(dir) & empty;
            if cur.is_empty() {
                break;
            }
            self.pawn_targets(list, cur, dir * k, MULTI, promo);
        }
        if p.setwise {
            if can_capture {
                for (side, dx) in [(0, -1), (1, 1)] {
                    let caps = (pawns & p.capture_from[side]).shift(dir + dx) & enemy;
                    self.pawn_targets(list, caps, dir + dx, CAPTURE, promo);
                }
            }
        } else {
            for from in pawns.iter() {
                for to in (p.sideways[from] & empty).iter() {
                    self.pawn_move(list, from, to, QUIET);
                }
                if can_capture {
                    for to in (p.captures[us][from] & enemy).iter() {
                        self.pawn_move(list, from, to, CAPTURE);
                    }
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

    #[inline(always)]
    fn pawn_targets<S: Sink<B>>(&self, list: &mut S, to: B, delta: isize, kind: u32, promo: B) {
        list.shifted(self, to & !promo, delta, kind);
        for t in (to & promo).iter() {
            self.pawn_move(list, (t as isize - delta) as usize, t, kind);
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
