//! The feature values of a position, fed to an [`Accumulator`]: the search sums them with
//! the weights, the tuner collects them as a sparse vector. One code path for both keeps
//! the evaluation and its features identical by construction.

use super::layout::{Layout, Pair, NONE, NO_STOP};
use crate::position::Position;
use crate::rules::{Bits, MAX_TYPES, WHITE};

pub trait Accumulator {
    /// Adds `value` to feature `index` (from White's point of view).
    fn add(&mut self, index: usize, value: f32);

    /// Whether feature `index` matters: the weighted sum skips features whose weight is 0
    /// where computing them costs more than adding them.
    #[inline(always)]
    fn wants(&self, _index: usize) -> bool {
        true
    }

    /// The square terms of one piece (centrality, advance, rank and file weights). The
    /// weighted sum reads them from a table built with the weights (see `SquareTable`);
    /// this default feeds the features one by one.
    #[inline(always)]
    fn piece_square(&mut self, l: &Layout, t: usize, color: usize, sq: usize, sign: f32, phase: f32)
    where
        Self: Sized,
    {
        tapered(self, l.center[t], sign * l.centrality[sq], phase);
        tapered(self, l.advance[t], sign * l.progress[color][sq], phase);
        tapered(self, l.rank_pst[t * l.ranks + l.rel_rank[color][sq] as usize], sign, phase);
        tapered(self, l.file_pst[t * l.file_buckets + l.file_bucket[sq] as usize], sign, phase);
        let cell = (t * l.ranks + l.rel_rank[color][sq] as usize) * l.file_buckets + l.file_bucket[sq] as usize;
        tapered(self, l.square_pst[cell], sign, phase);
    }
}

/// Per colour, type and square: the middlegame and endgame sums of one piece's square
/// terms, so that the search adds one pair per piece instead of eight weighted features.
#[derive(Clone, Debug, Default)]
pub struct SquareTable {
    entries: Vec<[f32; 2]>,
    ntypes: usize,
    nsq: usize,
}

impl SquareTable {
    pub fn new(l: &Layout, weights: &[f32]) -> SquareTable {
        let (ntypes, nsq) = (l.rank_pst.len() / l.ranks.max(1), l.centrality.len());
        let mut entries = vec![[0.0f32; 2]; 2 * ntypes * nsq];
        for color in 0..2 {
            for t in 0..ntypes {
                for sq in 0..nsq {
                    // Phase 1 puts every term in the middlegame slot, phase 0 in the endgame
                    // one; the table holds White's sign and `get`'s caller applies the piece's.
                    let part = |phase: f32| {
                        let mut one = Weighted1 { w: weights, sum: 0.0 };
                        one.piece_square(l, t, color, sq, 1.0, phase);
                        one.sum
                    };
                    entries[(color * ntypes + t) * nsq + sq] = [part(1.0), part(0.0)];
                }
            }
        }
        SquareTable { entries, ntypes, nsq }
    }

    #[inline(always)]
    pub fn get(&self, t: usize, color: usize, sq: usize) -> [f32; 2] {
        self.entries[(color * self.ntypes + t) * self.nsq + sq]
    }
}

struct Weighted1<'a> {
    w: &'a [f32],
    sum: f32,
}

impl Accumulator for Weighted1<'_> {
    fn add(&mut self, index: usize, value: f32) {
        self.sum += self.w[index] * value;
    }
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
            let (mut mobility, mut open, mut semi) = (0.0, 0.0, 0.0);
            for sq in bb.iter() {
                acc.piece_square(l, t, color, sq, sign, phase);
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
        if acc.wants(l.safe_checks) {
            if let Some(k) = pos.king_square(them) {
                let safe = !attacked[them] & !pos.color_bb(color).to_u128();
                let mut checks = 0;
                for t in 0..r.ntypes() {
                    let from = by_type[color][t] & safe;
                    if l.symmetric[t] && from != 0 {
                        let (_, a) = pos.mobility_and_attacks(k, t, color, B::ZERO);
                        checks += (a.to_u128() & from).count_ones();
                    }
                }
                if checks > 0 {
                    acc.add(l.safe_checks, sign * checks as f32 * phase);
                }
            }
        }
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
