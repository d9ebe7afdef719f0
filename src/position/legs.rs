//! Multi-leg moves (`rules::legs`) walked on a position: move generation, attack tests and
//! the squares a piece bears on all walk the same paths, leg by leg, and differ only in
//! what they keep of each path's ends.

use super::movegen::Sink;
use super::moves::{Move, BOMB, DOUBLE};
use super::*;
use crate::rules::{LegPath, SpecialAtom, SpecialKind};
use crate::variant::betza::legs::{FRIEND, HOP};
use crate::variant::betza::{CAPTURE, MOVE};

/// The board as one walk sees it: the mover lifted off `origin`, and a piece taken on the
/// way gone from `occ` and `enemy` for the legs after it.
#[derive(Clone, Copy)]
struct Sides<B> {
    occ: B,
    own: B,
    /// Pieces the mover may remove.
    enemy: B,
    origin: usize,
}

/// Walks `path` from leg `leg` on, starting on `sq` with `victim` (or NO_SQUARE) removed so
/// far, calling `end(to, victim, captures_on_to)` for every way the path ends; stops as soon
/// as `end` returns true, and returns whether it did.
fn walk<B: Bits, F: FnMut(usize, u8, bool) -> bool>(
    r: &Rules<B>,
    path: &LegPath,
    leg: usize,
    sq: usize,
    victim: u8,
    s: Sides<B>,
    end: &mut F,
) -> bool {
    let l = &path.legs[leg];
    let last = leg + 1 == path.n as usize;
    let mut cur = sq;
    let mut n = 0;
    loop {
        let next = r.ray(l.step, cur);
        if next.is_empty() {
            return false;
        }
        let q = next.lsb();
        n += 1;
        if !s.occ.has(q) {
            if l.mode & MOVE != 0 {
                let stop = if last {
                    q != s.origin && end(q, victim, false)
                } else {
                    walk(r, path, leg + 1, q, victim, s, end)
                };
                if stop {
                    return true;
                }
            }
        } else {
            // A piece ends the leg whatever happens to it.
            let enemy = s.enemy.has(q);
            if last {
                return l.mode & CAPTURE != 0 && enemy && end(q, victim, true);
            }
            if l.mode & CAPTURE != 0 && enemy && victim == NO_SQUARE {
                let gone = Sides { occ: s.occ & !B::bit(q), enemy: s.enemy & !B::bit(q), ..s };
                if walk(r, path, leg + 1, q, q as u8, gone, end) {
                    return true;
                }
            }
            let jumps = l.mode & HOP != 0 || (l.mode & FRIEND != 0 && s.own.has(q));
            return jumps && walk(r, path, leg + 1, q, victim, s, end);
        }
        if l.range != 0 && n >= l.range {
            return false;
        }
        cur = q;
    }
}

/// Per victim square, where the moves that remove it land (one generation's scratch; every
/// entry is cleared again after use).
pub(super) struct Landings<B>(pub [B; 128]);

impl<B: Bits> Position<B> {
    /// The multi-leg moves of the side to move's piece on `from` with special atoms `atoms`:
    /// those that remove nothing before they land join `quiet` and `caps` (so a square
    /// other moves reach too is one move); those that do are emitted, once per victim and
    /// landing square.
    pub(super) fn leg_moves<S: Sink<B>>(
        &self,
        list: &mut S,
        atoms: &[SpecialAtom],
        from: usize,
        quiet: &mut B,
        caps: &mut B,
        scratch: &mut Landings<B>,
    ) {
        let r = self.rules;
        let lifted = !B::bit(from);
        let s = Sides {
            occ: self.occ & lifted,
            own: self.by_color[self.side] & lifted,
            enemy: self.targets(),
            origin: from,
        };
        let mut victims = B::ZERO;
        for a in atoms.iter().filter(|a| a.kind == SpecialKind::Legs) {
            walk(r, &r.leg_paths[a.path as usize], 0, from, NO_SQUARE, s, &mut |to, v, cap| {
                // Landing where its victim stood is taking it.
                if v == NO_SQUARE || v as usize == to {
                    if cap || v != NO_SQUARE {
                        *caps |= B::bit(to);
                    } else {
                        *quiet |= B::bit(to);
                    }
                } else {
                    victims |= B::bit(v as usize);
                    scratch.0[v as usize] |= B::bit(to);
                }
                false
            });
        }
        for v in victims.iter() {
            for to in scratch.0[v].iter() {
                let kind = if s.enemy.has(to) { DOUBLE } else { BOMB };
                list.one(self, Move::new(from, to, kind).with_aux(v));
            }
            scratch.0[v] = B::ZERO;
        }
    }

    /// Does the piece on `from` remove the piece on `sq` by the multi-leg path of atom `a`,
    /// on a board with occupancy `occ` where `own` are the mover's side? With `locust`
    /// false only moves that land on `sq` count (an exchange on `sq`).
    pub(crate) fn leg_attacks(&self, a: &SpecialAtom, from: usize, sq: usize, occ: B, own: B, locust: bool) -> bool {
        let r = self.rules;
        let lifted = !B::bit(from);
        let s = Sides { occ: occ & lifted, own: own & lifted, enemy: occ & !own, origin: from };
        walk(r, &r.leg_paths[a.path as usize], 0, from, NO_SQUARE, s, &mut |to, v, cap| {
            (cap && to == sq) || (locust && v as usize == sq)
        })
    }

    /// Of a `color` piece on `sq`, atom `a`'s multi-leg moves: the squares they may land on
    /// empty, and those whose pieces they remove.
    pub(crate) fn leg_bearing(&self, a: &SpecialAtom, sq: usize, color: usize) -> (B, B) {
        let r = self.rules;
        let lifted = !B::bit(sq);
        let s = Sides {
            occ: self.occ & lifted,
            own: self.by_color[color] & lifted,
            enemy: self.by_color[color ^ 1],
            origin: sq,
        };
        let (mut moves, mut attacks) = (B::ZERO, B::ZERO);
        walk(r, &r.leg_paths[a.path as usize], 0, sq, NO_SQUARE, s, &mut |to, v, cap| {
            if cap {
                attacks |= B::bit(to);
            } else {
                moves |= B::bit(to);
            }
            if v != NO_SQUARE {
                attacks |= B::bit(v as usize);
            }
            false
        });
        (moves, attacks)
    }
}

#[cfg(test)]
mod tests {
    use super::super::moves::{MoveList, CAPTURE as CAPTURE_MOVE};
    use super::*;
    use crate::rng::Rng;
    use crate::{Board, Variant};

    /// Attack tests agree with move generation for a multi-leg piece: a piece of the side
    /// not to move is attacked exactly when some pseudo-legal move removes it (landing on
    /// it or passing over it), and `attackers_to` names exactly the pieces whose captures
    /// land on it.
    fn agree<B: Bits>(mut pos: Position<B>, rng: &mut Rng) -> usize {
        let mut removed_on_the_way = 0;
        for _ in 0..60 {
            let us = pos.side();
            let mut list = MoveList::new();
            pos.generate(&mut list);
            for sq in pos.color_bb(us ^ 1).iter() {
                let removes = list.iter().any(|m| match m.kind() {
                    CAPTURE_MOVE => m.to() == sq,
                    BOMB => m.aux() == sq,
                    DOUBLE => m.aux() == sq || m.to() == sq,
                    _ => false,
                });
                assert_eq!(pos.attacked(sq, us), removes, "{}: {}", pos.fen(), pos.rules.geo.name(sq));
                let landing = list
                    .iter()
                    .filter(|m| matches!(m.kind(), CAPTURE_MOVE | DOUBLE) && m.to() == sq)
                    .fold(B::ZERO, |a, m| a | B::bit(m.from()));
                let all = pos.occupied();
                assert_eq!(pos.attackers_to(sq, all, all) & pos.color_bb(us), landing, "{}", pos.fen());
                removed_on_the_way += list.iter().any(|m| m.kind() == BOMB && m.aux() == sq) as usize;
            }
            let legal = pos.legal_move_vec();
            if legal.is_empty() {
                break;
            }
            pos.make(legal[rng.below(legal.len())]);
        }
        removed_on_the_way
    }

    #[test]
    fn leg_attacks_agree_with_leg_moves() {
        let mut rng = Rng::new(41);
        for game in ["bomber-diagram", "flying-bombers-hangars"] {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("configs/variants/{game}.toml"));
            let text =
                std::fs::read_to_string(path).unwrap().replacen("\n[rules]\n", "\n[rules]\nleg_fast_path = false\n", 1);
            let v = Variant::from_toml(&text, &[]).unwrap();
            let mut seen = 0;
            for _ in 0..40 {
                seen += match v.start_position() {
                    Board::Narrow(p) => agree(p, &mut rng),
                    Board::Wide(p) => agree(p, &mut rng),
                };
            }
            assert!(seen > 0, "{game}: no piece removed on the way");
        }
    }
}
