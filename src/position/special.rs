//! Reach and attacks of the special atoms (`rules::special`): hoppers, lame leaps and
//! initial moves. Each is tested on the occupancy the caller passes, since a hopper's
//! screen and a lame leap's leg are squares other than the target.

use super::legs::Landings;
use super::movegen::Sink;
use super::moves::{CAPTURE as CAPTURE_MOVE, QUIET};
use super::*;
use crate::rules::{SpecialAtom, SpecialKind};
use crate::variant::betza::{CAPTURE, MOVE};

impl<B: Bits> Position<B> {
    /// Squares atom `a` of a `color` piece on `from` may land on, empty or not, given
    /// occupancy `occ` (the caller keeps the empty ones for moves, the enemy ones for
    /// captures).
    #[inline]
    pub(crate) fn special_reach(&self, a: &SpecialAtom, from: usize, color: usize, occ: B) -> B {
        let r = self.rules;
        if a.initial && !r.initial_zone[color].has(from) {
            return B::ZERO;
        }
        match a.kind {
            SpecialKind::Slide => r.ray_attacks(a.ray, from, occ),
            SpecialKind::Hop => match r.first_blocker(a.ray, from, occ) {
                Some(screen) => r.ray_attacks(a.ray, screen, occ),
                None => B::ZERO,
            },
            SpecialKind::Grasshop => match r.first_blocker(a.ray, from, occ) {
                Some(screen) => r.ray(a.step, screen),
                None => B::ZERO,
            },
            SpecialKind::Lame => {
                let leap = &r.lame[a.lame as usize + from];
                if (leap.path & occ).is_empty() {
                    leap.to_set()
                } else {
                    B::ZERO
                }
            }
            // Walked by `position::legs`, which keeps what each caller needs of a path.
            SpecialKind::Legs => B::ZERO,
        }
    }

    /// Of a `color` piece on `sq` with special atoms `atoms`: the squares its moving atoms
    /// reach (empty or not) and those its capturing atoms bear on (kept out of line: most
    /// games have none).
    #[inline(never)]
    pub(crate) fn special_bearing(&self, atoms: &[SpecialAtom], sq: usize, color: usize) -> (B, B) {
        let (mut moves, mut attacks) = (B::ZERO, B::ZERO);
        for a in atoms {
            if a.kind == SpecialKind::Legs {
                let (m, c) = self.leg_bearing(a, sq, color);
                moves |= m;
                attacks |= c;
                continue;
            }
            let reach = self.special_reach(a, sq, color, self.occ);
            if a.mode & MOVE != 0 {
                moves |= reach;
            }
            if a.mode & CAPTURE != 0 {
                attacks |= reach;
            }
        }
        (moves, attacks)
    }

    /// Moves of the side to move's pieces `bb` of type `t`, which has special atoms: its
    /// table moves and the special ones, merged per origin so a square both reach is one
    /// move.
    #[inline(never)]
    pub(super) fn generate_special_type<S: Sink<B>>(&self, list: &mut S, t: usize, bb: B, empty: B, enemy: B) {
        let r = self.rules;
        let k = self.side * r.ntypes() + t;
        let legs = r.special[k].iter().any(|a| a.kind == SpecialKind::Legs);
        let mut scratch = Landings([B::ZERO; 128]);
        for from in bb.iter() {
            let (mut quiet, mut caps) = self.table_moves(t, &r.riders[k], from, empty, enemy);
            let (q, c) = self.special_moves(&r.special[k], from, empty, enemy);
            quiet |= q;
            caps |= c;
            if legs {
                self.leg_moves(list, &r.special[k], from, &mut quiet, &mut caps, &mut scratch);
            }
            list.bulk(self, from, quiet, QUIET);
            list.bulk(self, from, caps, CAPTURE_MOVE);
            if Some(t) == r.bomber {
                self.generate_bomber(list, from, empty, enemy);
            }
        }
    }

    /// Quiet and capture targets of the side to move's piece on `from` by its special
    /// atoms `atoms`.
    fn special_moves(&self, atoms: &[SpecialAtom], from: usize, empty: B, enemy: B) -> (B, B) {
        let (mut quiet, mut caps) = (B::ZERO, B::ZERO);
        for a in atoms {
            let reach = self.special_reach(a, from, self.side, self.occ);
            if a.mode & MOVE != 0 {
                quiet |= reach & empty;
            }
            if a.mode & CAPTURE != 0 {
                caps |= reach & enemy;
            }
        }
        (quiet, caps)
    }

    /// The pieces among `candidates` (all of colour `by`) whose special atoms capture on
    /// `sq` with occupancy `occ`. Each atom is looked at from the target: the cannon is the
    /// second piece back along the line, the grasshopper the first piece behind an occupied
    /// neighbour, the lame leaper the leap's source with its leg empty; a multi-leg move is
    /// walked from each candidate (with `locust` also the moves that remove the piece on
    /// `sq` on their way and land elsewhere; `candidates` are then the mover's side).
    #[inline(never)]
    pub(crate) fn special_attackers_to(&self, sq: usize, by: usize, occ: B, candidates: B, locust: bool) -> B {
        let r = self.rules;
        let nt = r.ntypes();
        let mut found = B::ZERO;
        let mut types = r.special_attackers[by];
        while types != 0 {
            let t = types.trailing_zeros() as usize;
            types &= types - 1;
            let ours = candidates & self.by_type[t];
            if ours.is_empty() {
                continue;
            }
            for a in &r.special[by * nt + t] {
                if a.mode & CAPTURE == 0 || a.initial {
                    continue;
                }
                match a.kind {
                    SpecialKind::Slide => {}
                    SpecialKind::Hop => {
                        if let Some(screen) = r.first_blocker(a.back, sq, occ) {
                            if let Some(f) = r.first_blocker(a.back, screen, occ) {
                                if ours.has(f) {
                                    found |= B::bit(f);
                                }
                            }
                        }
                    }
                    SpecialKind::Grasshop => {
                        let hurdle = r.ray(a.back_step, sq) & occ;
                        if hurdle.any() {
                            if let Some(f) = r.first_blocker(a.back, hurdle.lsb(), occ) {
                                if ours.has(f) {
                                    found |= B::bit(f);
                                }
                            }
                        }
                    }
                    SpecialKind::Legs => {
                        for f in (ours & occ & !found).iter() {
                            if self.leg_attacks(a, f, sq, occ, candidates & occ, locust) {
                                found |= B::bit(f);
                            }
                        }
                    }
                    SpecialKind::Lame => {
                        let src = r.lame[a.lame as usize + sq].source;
                        if src != NO_SQUARE
                            && ours.has(src as usize)
                            && (r.lame[a.lame as usize + src as usize].path & occ).is_empty()
                        {
                            found |= B::bit(src as usize);
                        }
                    }
                }
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::moves::MoveList;
    use crate::rng::Rng;
    use crate::{Board, Variant};

    /// Attack tests and move generation agree, in the Fairy-Stockfish test variants: a
    /// square holding a piece of the side not to move is attacked exactly when some
    /// pseudo-legal capture lands on it, `attackers_to` names exactly the capturers, and
    /// `attacks_from` covers every capture target.
    fn agree<B: Bits>(mut pos: Position<B>, rng: &mut Rng) -> usize {
        let mut attacked = 0;
        for _ in 0..40 {
            let us = pos.side();
            let mut list = MoveList::new();
            pos.generate(&mut list);
            let them = pos.color_bb(us ^ 1);
            for sq in them.iter() {
                let from: Vec<usize> =
                    list.iter().filter(|m| m.kind() == CAPTURE_MOVE && m.to() == sq).map(|m| m.from()).collect();
                assert_eq!(pos.attacked(sq, us), !from.is_empty(), "{}: {}", pos.fen(), pos.rules.geo.name(sq));
                attacked += !from.is_empty() as usize;
                let expect = from.iter().fold(B::ZERO, |a, &f| a | B::bit(f));
                let all = pos.occupied();
                assert_eq!(pos.attackers_to(sq, all, all) & pos.color_bb(us), expect, "{}", pos.fen());
                for &f in &from {
                    let t = code_type(pos.code_at(f));
                    assert!(pos.attacks_from(f, t, us).has(sq), "{}", pos.fen());
                }
            }
            let legal = pos.legal_move_vec();
            if legal.is_empty() {
                break;
            }
            pos.make(legal[rng.below(legal.len())]);
        }
        attacked
    }

    #[test]
    fn attacks_agree_with_captures() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/betza");
        let mut rng = Rng::new(40);
        for name in ["betza-cannons", "betza-grasshoppers", "betza-lame", "betza-initial", "betza-directions"] {
            let v = Variant::load(dir.join(format!("{name}.toml")).to_str().unwrap(), &[]).unwrap();
            let mut attacked = 0;
            for _ in 0..20 {
                attacked += match v.start_position() {
                    Board::Narrow(p) => agree(p, &mut rng),
                    Board::Wide(p) => agree(p, &mut rng),
                };
            }
            assert!(attacked > 100, "{name}: only {attacked} attacked pieces seen");
        }
    }
}
