//! The feature values of a position, fed to an [`Accumulator`]: the search sums them with
//! the weights, the tuner collects them as a sparse vector. One code path for both keeps
//! the evaluation and its features identical by construction.

use super::layout::{Layout, Pair, NONE, NO_STOP};
use crate::position::Position;
use crate::rules::{Bits, MAX_TYPES, WHITE};

pub trait Accumulator {
    /// Adds `value` to feature `index` (from White's point of view).
    fn add(&mut self, index: usize, value: f32);
}

/// Middlegame share of the position in [0, 1], from the non-pawn material on the board
/// against the start position's (fixed weights, so the evaluation stays linear).
pub fn phase<B: Bits>(pos: &Position<B>, phase_weights: &[f32], total: f32) -> f32 {
    let mut m = 0.0;
    for (t, &w) in phase_weights.iter().enumerate() {
        if w != 0.0 {
            m += w * pos.type_bb(t).count() as f32;
        }
    }
    if total <= 0.0 {
        0.0
    } else {
        (m / total).min(1.0)
    }
}

#[inline(always)]
fn tapered<A: Accumulator>(acc: &mut A, p: Pair, v: f32, phase: f32) {
    if p.mg != NONE && v != 0.0 {
        acc.add(p.mg, v * phase);
        acc.add(p.eg, v * (1.0 - phase));
    }
}

/// Feeds every feature of `pos` (White's point of view) to `acc`.
pub fn features<B: Bits, A: Accumulator>(pos: &Position<B>, l: &Layout, phase: f32, acc: &mut A) {
    let r = pos.rules;
    let pawn_t = r.pawn_type;
    // Filled by the per-piece loop for the threat and king-attack terms: every square a
    // side bears on, the same per type, and its hits on the enemy king's zone.
    let mut attacked = [0u128; 2];
    let mut by_type = [[0u128; MAX_TYPES]; 2];
    let mut zone_hits = [0u32; 2];
    let mut zone_attackers = [0u32; 2];
    let occupied = pos.occupied().to_u128();
    let zones = [0, 1].map(|c| pos.king_square(c ^ 1).map_or(0, |k| l.zone[k]));
    let pawn_attacks = [0, 1].map(|c| pawn_attacks(pos, c));
    let outpost_squares = [0, 1].map(|c| outposts(pos, l, c, pawn_attacks[c].to_u128()));
    for color in 0..2 {
        let sign = if color == WHITE { 1.0 } else { -1.0 };
        let own = pos.color_bb(color);
        // Squares an enemy pawn attacks do not count as mobility: a piece cannot stay there.
        let area = !pawn_attacks[color ^ 1];
        // Own and all pawns, for the file features (open: no pawn, semi-open: no own pawn).
        let pawn_files = pawn_t.map(|pt| (pos.pieces(color, pt).to_u128(), pos.type_bb(pt).to_u128()));
        for t in 0..r.ntypes() {
            let bb = own & pos.type_bb(t);
            if bb.is_empty() {
                continue;
            }
            tapered(acc, l.value[t], sign * bb.count() as f32, phase);
            if bb.count() >= 2 {
                tapered(acc, l.pair[t], sign, phase);
            }
            let files = if l.open[t].mg != NONE { pawn_files } else { None };
            let outposts = if l.outpost[t].mg != NONE { outpost_squares[color] } else { 0 };
            let pawn = Some(t) == pawn_t;
            let (mut center, mut advance, mut mobility, mut open, mut semi) = (0.0, 0.0, 0.0, 0.0, 0.0);
            for sq in bb.iter() {
                center += l.centrality[sq];
                advance += l.progress[color][sq];
                tapered(acc, l.rank_pst[t * l.ranks + l.rel_rank[color][sq] as usize], sign, phase);
                tapered(acc, l.file_pst[t * l.file_buckets + l.file_bucket[sq] as usize], sign, phase);
                let attacks = if pawn {
                    r.pawn.as_ref().map_or(0, |p| p.captures[color][sq].to_u128())
                } else {
                    let (m, a) = pos.mobility_and_attacks(sq, t, color, area);
                    mobility += m as f32;
                    a.to_u128()
                };
                by_type[color][t] |= attacks;
                let hits = (attacks & zones[color]).count_ones();
                if hits > 0 && t != r.king {
                    zone_hits[color] += hits;
                    zone_attackers[color] += 1;
                }
                if let Some((ours, all)) = files {
                    if l.file[sq] & all == 0 {
                        open += 1.0;
                    } else if l.file[sq] & ours == 0 {
                        semi += 1.0;
                    }
                }
            }
            attacked[color] |= by_type[color][t];
            tapered(acc, l.center[t], sign * center, phase);
            tapered(acc, l.advance[t], sign * advance, phase);
            tapered(acc, l.mobility[t], sign * mobility, phase);
            tapered(acc, l.open[t], sign * open, phase);
            tapered(acc, l.semiopen[t], sign * semi, phase);
            if outposts != 0 {
                tapered(acc, l.outpost[t], sign * (bb.to_u128() & outposts).count_ones() as f32, phase);
            }
        }
        if let Some(pt) = pawn_t {
            let pawns = (pos.pieces(color, pt)).to_u128();
            let theirs = (pos.pieces(color ^ 1, pt)).to_u128();
            let (mut passed, mut doubled, mut isolated) = (0.0, 0.0, 0.0);
            let (mut rank2, mut blocked, mut king) = (0.0, 0.0, 0.0);
            let (mut supported, mut phalanx) = (0.0, 0.0);
            let defenders = r.pawn.as_ref().map(|p| &p.captures_rev[color]);
            let kings = (pos.king_square(color), pos.king_square(color ^ 1));
            let mut rest = pawns;
            while rest != 0 {
                let sq = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if let Some(d) = defenders {
                    if d[sq].to_u128() & pawns != 0 {
                        supported += 1.0;
                    }
                }
                if l.beside[sq] & pawns != 0 {
                    phalanx += 1.0;
                }
                if l.front_span[color][sq] & theirs == 0 {
                    let p = l.progress[color][sq];
                    passed += p;
                    rank2 += p * p;
                    let stop = l.stop[color][sq];
                    if stop != NO_STOP {
                        if occupied >> stop & 1 != 0 {
                            blocked += p;
                        }
                        if let (Some(own), Some(enemy)) = kings {
                            // Capped: beyond a few squares the race is decided either way.
                            let d = |k: usize| l.distance(k, stop).min(5);
                            king += (d(enemy) - d(own)) as f32 * p;
                        }
                    }
                }
                if l.front_file[color][sq] & pawns != 0 {
                    doubled += 1.0;
                }
                if l.adjacent_files[sq] & pawns == 0 {
                    isolated += 1.0;
                }
            }
            tapered(acc, l.passed, sign * passed, phase);
            tapered(acc, l.doubled, sign * doubled, phase);
            tapered(acc, l.isolated, sign * isolated, phase);
            tapered(acc, l.passed_rank2, sign * rank2, phase);
            tapered(acc, l.passed_blocked, sign * blocked, phase);
            tapered(acc, l.supported, sign * supported, phase);
            tapered(acc, l.phalanx, sign * phalanx, phase);
            if l.passed_king != NONE && king != 0.0 {
                acc.add(l.passed_king, sign * king * (1.0 - phase));
            }
        }
        if let Some(k) = pos.king_square(color) {
            if let Some(pt) = pawn_t {
                let shelter = (l.shield[color][k] & pos.pieces(color, pt).to_u128()).count_ones();
                acc.add(l.shelter, sign * shelter as f32 * phase);
            }
            let mut attackers = pos.color_bb(color ^ 1) & !pos.type_bb(r.king);
            if let Some(pt) = pawn_t {
                attackers &= !pos.type_bb(pt);
            }
            let tropism = (l.near[k] & attackers.to_u128()).count_ones();
            acc.add(l.tropism, sign * tropism as f32 * phase);
        }
    }
    for color in 0..2 {
        let sign = if color == WHITE { 1.0 } else { -1.0 };
        let them = color ^ 1;
        let (mut by_pawn, mut by_lesser) = (0u32, 0u32);
        let mut targets = 0u128;
        for t in 0..r.ntypes() {
            if t == r.king {
                continue;
            }
            let victims = pos.pieces(them, t).to_u128();
            if victims == 0 {
                continue;
            }
            targets |= victims;
            if Some(t) == pawn_t {
                continue;
            }
            if let Some(pt) = pawn_t {
                by_pawn += (victims & by_type[color][pt]).count_ones();
            }
            let mut lesser = 0u128;
            let mut mask = l.lesser[t];
            while mask != 0 {
                lesser |= by_type[color][mask.trailing_zeros() as usize];
                mask &= mask - 1;
            }
            by_lesser += (victims & lesser).count_ones();
        }
        let hanging = (targets & attacked[color] & !attacked[them]).count_ones();
        tapered(acc, l.threat_pawn, sign * by_pawn as f32, phase);
        tapered(acc, l.threat_lesser, sign * by_lesser as f32, phase);
        tapered(acc, l.hanging, sign * hanging as f32, phase);
        if zone_hits[color] > 0 {
            acc.add(l.king_attack, sign * zone_hits[color] as f32 * phase);
            let n = zone_attackers[color] as f32;
            acc.add(l.king_attackers2, sign * n * n * phase);
        }
        if l.castling != NONE {
            let rights = (pos.castling() >> (4 * color) & 0xF).count_ones();
            if rights > 0 {
                acc.add(l.castling, sign * rights as f32 * phase);
            }
        }
    }
    acc.add(l.tempo, if pos.side() == WHITE { 1.0 } else { -1.0 });
}

/// Squares in the enemy half that an own pawn defends and no enemy pawn can ever attack
/// (none on the adjacent files ahead).
fn outposts<B: Bits>(pos: &Position<B>, l: &Layout, color: usize, defended: u128) -> u128 {
    let Some(pt) = pos.rules.pawn_type else { return 0 };
    let theirs = pos.pieces(color ^ 1, pt).to_u128();
    let mut out = 0u128;
    let mut rest = defended & l.enemy_half[color];
    while rest != 0 {
        let sq = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        if l.front_span[color][sq] & l.adjacent_files[sq] & theirs == 0 {
            out |= 1u128 << sq;
        }
    }
    out
}

/// Squares the pawns of `color` attack.
fn pawn_attacks<B: Bits>(pos: &Position<B>, color: usize) -> B {
    let (Some(pt), Some(p)) = (pos.rules.pawn_type, pos.rules.pawn.as_ref()) else { return B::ZERO };
    let mut attacked = B::ZERO;
    for sq in pos.pieces(color, pt).iter() {
        attacked |= p.captures[color][sq];
    }
    attacked
}
