//! Flying Bomber moves (docs/rules/flying-bombers-grand-chess.md §4.2.3): per direction
//! the quiet slide, long bombing over the first piece, and the two-square helicopter
//! cases, each move produced exactly once.

use super::movegen::Sink;
use super::moves::*;
use super::*;

impl<B: Bits> Position<B> {
    #[inline(always)]
    pub(super) fn generate_bomber<S: Sink<B>>(&self, list: &mut S, from: usize, empty: B, enemy: B) {
        let r = self.rules;
        let own = self.by_color[self.side];
        for d in 0..4 {
            let ray = r.orth[d];
            let line = r.ray(ray, from);
            let Some(t) = r.first_blocker(ray, from, self.occ) else {
                // Nothing on the line: slides only.
                list.bulk(self, from, line, QUIET);
                continue;
            };
            let slide = line & !r.ray(ray, t) & !B::bit(t);
            list.bulk(self, from, slide, QUIET);
            if enemy.has(t) {
                let behind = r.step[t][d];
                if behind != NO_SQUARE && empty.has(behind as usize) {
                    if r.immediate_landing {
                        list.one(self, Move::new(from, behind as usize, BOMB).with_aux(t));
                    } else {
                        let landing = r.ray_attacks(ray, t, self.occ) & empty;
                        for to in landing.iter() {
                            list.one(self, Move::new(from, to, BOMB).with_aux(t));
                        }
                    }
                }
            }
            let s1 = r.step[from][d];
            if s1 == NO_SQUARE {
                continue;
            }
            let s2 = r.step[s1 as usize][d];
            if s2 == NO_SQUARE {
                continue;
            }
            let (s1, s2) = (s1 as usize, s2 as usize);
            if own.has(s1) {
                if empty.has(s2) {
                    list.one(self, Move::new(from, s2, QUIET));
                } else if enemy.has(s2) {
                    list.one(self, Move::new(from, s2, CAPTURE));
                }
            } else if enemy.has(s2) {
                if !self.occ.has(s1) {
                    list.one(self, Move::new(from, s2, CAPTURE));
                } else if enemy.has(s1) {
                    list.one(self, Move::new(from, s2, DOUBLE).with_aux(s1));
                }
            }
        }
    }
}
