//! The feature values of a position, fed to an [`Accumulator`]: the search sums them with
//! the weights, the tuner collects them as a sparse vector. One code path for both keeps
//! the evaluation and its features identical by construction.

use super::layout::{Layout, Pair, NONE, NO_STOP};
use super::pawns::PawnInfo;
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

    /// Which of the pawn, piece and threat terms matter: read once per evaluation, so the
    /// weighted sum answers from a mask built with the weights rather than a lookup per term.
    #[inline(always)]
    fn wanted(&self) -> Wanted {
        Wanted::ALL
    }

    /// Whether type `t`'s mobility root matters. Asked once per type and evaluation, so
    /// the weighted sum answers from a mask built with the weights rather than two lookups.
    #[inline(always)]
    fn wants_mobility_root(&self, l: &Layout, t: usize) -> bool {
        l.mobility_root[t].mg != NONE
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

/// The pawn, piece and threat terms a set of weights uses (a bit per term, and per type for
/// the per-type ones).
#[derive(Clone, Copy, Debug, Default)]
pub struct Wanted {
    flags: u32,
    behind: u32,
    colour: u32,
}

const STRUCTURE: u32 = 1;
const PUSH: u32 = 2;
const SAFE_PAWN: u32 = 4;
const RESTRICTED: u32 = 8;
const SPACE: u32 = 16;
const QUEEN_NEXT: u32 = 32;

impl Wanted {
    pub const ALL: Wanted = Wanted { flags: u32::MAX, behind: u32::MAX, colour: u32::MAX };

    pub fn new(l: &Layout, w: &[f32]) -> Wanted {
        let on = |p: Pair| p.mg != NONE && (w[p.mg] != 0.0 || w[p.eg] != 0.0);
        let mut flags = 0;
        for (bit, yes) in [
            (STRUCTURE, on(l.backward) || on(l.weak_unopposed)),
            (PUSH, on(l.threat_push)),
            (SAFE_PAWN, on(l.threat_safe_pawn)),
            (RESTRICTED, on(l.restricted)),
            (SPACE, l.space != NONE && w[l.space] != 0.0),
            (QUEEN_NEXT, l.queen_type != NONE && on(l.threat_next)),
        ] {
            if yes {
                flags |= bit;
            }
        }
        let per_type = |pairs: &[Pair; MAX_TYPES]| {
            pairs.iter().enumerate().filter(|&(_, &p)| on(p)).fold(0u32, |m, (t, _)| m | 1 << t)
        };
        Wanted { flags, behind: per_type(&l.behind_pawn), colour: per_type(&l.colour_pawns) }
    }

    #[inline(always)]
    fn has(self, bit: u32) -> bool {
        self.flags & bit != 0
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
///
/// Bitboards are the board's own width (`B`); the layout's `u128` masks are narrowed as
/// they are read, which loses nothing since they only hold the board's squares.
pub fn features<B: Bits, A: Accumulator>(pos: &Position<B>, l: &Layout, phase: f32, acc: &mut A) {
    features_with(pos, l, &PawnInfo::new(pos, l), phase, acc);
}

/// [`features`] with the pawn terms given (from a [`super::pawns::PawnCache`]).
pub fn features_with<B: Bits, A: Accumulator>(
    pos: &Position<B>,
    l: &Layout,
    pawns: &PawnInfo<B>,
    phase: f32,
    acc: &mut A,
) {
    let r = pos.rules;
    let pawn_t = r.pawn_type;
    let m = B::from_u128;
    // Filled by the per-piece loop for the threat and king-attack terms: every square a
    // side bears on, the same per type, and its hits on the enemy king's zone.
    let mut attacked = [B::ZERO; 2];
    let mut by_type = [[B::ZERO; MAX_TYPES]; 2];
    let mut zone_hits = [0u32; 2];
    let mut zone_attackers = [0u32; 2];
    let occupied = pos.occupied();
    let zones = [0, 1].map(|c| pos.king_square(c ^ 1).map_or(B::ZERO, |k| m(l.zone[k])));
    let pawn_attacks = pawns.attacks;
    let outpost_squares = pawns.outposts;
    let wanted = acc.wanted();
    let restricted_on = wanted.has(RESTRICTED);
    // Squares a side attacks twice, for the restricted squares; only read when weighted.
    let mut twice = [B::ZERO; 2];
    // Own pawns whose stop square is occupied, for the space and bishop-pawn terms.
    let blocked =
        if wanted.has(SPACE) || wanted.colour != 0 { [0, 1].map(|c| blocked_pawns(pos, l, c)) } else { [B::ZERO; 2] };
    for color in 0..2 {
        let sign = if color == WHITE { 1.0 } else { -1.0 };
        let own = pos.color_bb(color);
        // Squares an enemy pawn attacks do not count as mobility: a piece cannot stay there.
        let area = !pawn_attacks[color ^ 1];
        // Own and all pawns, for the file features (open: no pawn, semi-open: no own pawn).
        let pawn_files = pawn_t.map(|pt| (pos.pieces(color, pt), pos.type_bb(pt)));
        let mut seen = pawn_attacks[color];
        for t in 0..r.ntypes() {
            let bb = own & pos.type_bb(t);
            if bb.is_empty() {
                continue;
            }
            let n = bb.count();
            tapered(acc, l.value[t], sign * n as f32, phase);
            if n >= 2 {
                tapered(acc, l.pair[t], sign, phase);
            }
            if Some(t) == pawn_t {
                // A pawn bears on its capture squares: together, the side's pawn attacks.
                // Pawns have no mobility, file or outpost terms.
                let captures = r.pawn.as_ref().map(|p| &p.captures[color]);
                let count_hits = t != r.king && (pawn_attacks[color] & zones[color]).any();
                for sq in bb.iter() {
                    acc.piece_square(l, t, color, sq, sign, phase);
                    if count_hits {
                        let hits = captures.map_or(0, |c| (c[sq] & zones[color]).count());
                        if hits > 0 {
                            zone_hits[color] += hits;
                            zone_attackers[color] += 1;
                        }
                    }
                }
                by_type[color][t] = pawn_attacks[color];
                attacked[color] |= pawn_attacks[color];
                continue;
            }
            let files = if l.open[t].mg != NONE { pawn_files } else { None };
            let outposts = if l.outpost[t].mg != NONE { outpost_squares[color] } else { B::ZERO };
            // Counts: their sums as `f32` are exact, so adding them up as integers first
            // gives the same values.
            let (mut mobility, mut open, mut semi) = (0u32, 0u32, 0u32);
            let root_on = acc.wants_mobility_root(l, t);
            let mut root = 0.0f32;
            let mut all = B::ZERO;
            let reach = pos.reach(t, color);
            let behind_on = wanted.behind >> t & 1 != 0;
            let colour_on = wanted.colour >> t & 1 != 0;
            let (mut behind, mut colour) = (0u32, 0u32);
            for sq in bb.iter() {
                acc.piece_square(l, t, color, sq, sign, phase);
                let (mob, attacks) = pos.mobility_and_attacks_of(&reach, sq, area);
                mobility += mob;
                if root_on {
                    root += (mob as f32).sqrt();
                }
                all |= attacks;
                if restricted_on {
                    twice[color] |= seen & attacks;
                    seen |= attacks;
                }
                if behind_on {
                    let stop = l.stop[color][sq];
                    if stop != NO_STOP && pawn_t.is_some_and(|pt| pos.type_bb(pt).has(stop)) {
                        behind += 1;
                    }
                }
                if colour_on {
                    if let Some((ours, _)) = pawn_files {
                        let (f, rk) = l.coords[sq];
                        colour += (m(l.square_colour[((f + rk) & 1) as usize]) & ours).count();
                    }
                }
                let hits = (attacks & zones[color]).count();
                if hits > 0 && t != r.king {
                    zone_hits[color] += hits;
                    zone_attackers[color] += 1;
                }
                if let Some((ours, all_pawns)) = files {
                    let file = m(l.file[sq]);
                    if (file & all_pawns).is_empty() {
                        open += 1;
                    } else if (file & ours).is_empty() {
                        semi += 1;
                    }
                }
            }
            by_type[color][t] = all;
            attacked[color] |= all;
            tapered(acc, l.mobility[t], sign * mobility as f32, phase);
            if root_on {
                tapered(acc, l.mobility_root[t], sign * root, phase);
            }
            tapered(acc, l.open[t], sign * open as f32, phase);
            tapered(acc, l.semiopen[t], sign * semi as f32, phase);
            if outposts.any() {
                tapered(acc, l.outpost[t], sign * (bb & outposts).count() as f32, phase);
            }
            tapered(acc, l.behind_pawn[t], sign * behind as f32, phase);
            if colour > 0 {
                let factor = 1 + (blocked[color] & m(l.central)).count();
                tapered(acc, l.colour_pawns[t], sign * (colour * factor) as f32, phase);
            }
        }
        if pawn_t.is_some() {
            let c = &pawns.counts[color];
            let (mut blocked, mut king, mut free) = (0.0, 0.0, 0.0);
            let kings = (pos.king_square(color), pos.king_square(color ^ 1));
            for sq in pawns.passed[color].iter() {
                let p = l.progress[color][sq];
                if (m(l.front_file[color][sq]) & occupied).is_empty() {
                    free += p;
                }
                let stop = l.stop[color][sq];
                if stop != NO_STOP {
                    if occupied.has(stop) {
                        blocked += p;
                    }
                    if let (Some(own), Some(enemy)) = kings {
                        // Capped: beyond a few squares the race is decided either way.
                        let d = |k: usize| l.distance(k, stop).min(5);
                        king += (d(enemy) - d(own)) as f32 * p;
                    }
                }
            }
            let (passed, rank2) = (c.passed, c.rank2);
            let (doubled, isolated, supported, phalanx) = (c.doubled, c.isolated, c.supported, c.phalanx);
            let (backward, unopposed) = if wanted.has(STRUCTURE) { (c.backward, c.unopposed) } else { (0, 0) };
            tapered(acc, l.backward, sign * backward as f32, phase);
            tapered(acc, l.weak_unopposed, sign * unopposed as f32, phase);
            tapered(acc, l.passed, sign * passed, phase);
            tapered(acc, l.doubled, sign * doubled as f32, phase);
            tapered(acc, l.isolated, sign * isolated as f32, phase);
            tapered(acc, l.passed_rank2, sign * rank2, phase);
            tapered(acc, l.passed_blocked, sign * blocked, phase);
            tapered(acc, l.supported, sign * supported as f32, phase);
            tapered(acc, l.phalanx, sign * phalanx as f32, phase);
            tapered(acc, l.passed_free, sign * free, phase);
            if l.passed_king != NONE && king != 0.0 {
                acc.add(l.passed_king, sign * king * (1.0 - phase));
            }
        }
        if let Some(k) = pos.king_square(color) {
            if let Some(pt) = pawn_t {
                let shelter = (m(l.shield[color][k]) & pos.pieces(color, pt)).count();
                acc.add(l.shelter, sign * shelter as f32 * phase);
            }
            let mut attackers = pos.color_bb(color ^ 1) & !pos.type_bb(r.king);
            if let Some(pt) = pawn_t {
                attackers &= !pos.type_bb(pt);
            }
            let tropism = (m(l.near[k]) & attackers).count();
            acc.add(l.tropism, sign * tropism as f32 * phase);
            if let Some(pt) = pawn_t {
                if l.king_storm != NONE && (acc.wants(l.king_storm) || acc.wants(l.king_open)) {
                    let storm = (m(l.storm[color][k]) & pos.pieces(color ^ 1, pt)).count();
                    if storm > 0 {
                        acc.add(l.king_storm, sign * storm as f32 * phase);
                    }
                    let ours = pos.pieces(color, pt);
                    let open =
                        (m(l.beside[k]) | B::bit(k)).iter().filter(|&s| (m(l.file[s]) & ours).is_empty()).count();
                    if open > 0 {
                        acc.add(l.king_open, sign * open as f32 * phase);
                    }
                }
            }
        }
    }
    for color in 0..2 {
        let sign = if color == WHITE { 1.0 } else { -1.0 };
        let them = color ^ 1;
        let (mut by_pawn, mut by_lesser) = (0u32, 0u32);
        let mut targets = B::ZERO;
        for t in 0..r.ntypes() {
            if t == r.king {
                continue;
            }
            let victims = pos.pieces(them, t);
            if victims.is_empty() {
                continue;
            }
            targets |= victims;
            if Some(t) == pawn_t {
                continue;
            }
            let mut cheaper = B::ZERO;
            if let Some(pt) = pawn_t {
                by_pawn += (victims & by_type[color][pt]).count();
                cheaper = by_type[color][pt];
            }
            let mut lesser = B::ZERO;
            let mut mask = l.lesser[t];
            while mask != 0 {
                lesser |= by_type[color][mask.trailing_zeros() as usize];
                mask &= mask - 1;
            }
            by_lesser += (victims & lesser).count();
            tapered(acc, l.threat_on[t], sign * (victims & (lesser | cheaper)).count() as f32, phase);
        }
        let hanging = (targets & attacked[color] & !attacked[them]).count();
        let n = zone_attackers[color] as f32;
        let mut checks = 0;
        if acc.wants(l.safe_checks) || acc.wants(l.king_checks_attackers) {
            if let Some(k) = pos.king_square(them) {
                let safe = !attacked[them] & !pos.color_bb(color);
                for t in 0..r.ntypes() {
                    let from = by_type[color][t] & safe;
                    if l.symmetric[t] && from.any() {
                        checks += (pos.attacks_from(k, t, color) & from).count();
                    }
                }
                if checks > 0 {
                    acc.add(l.safe_checks, sign * checks as f32 * phase);
                    acc.add(l.king_checks_attackers, sign * checks as f32 * n * phase);
                }
            }
        }
        if zone_hits[color] > 0 && (acc.wants(l.king_weak) || acc.wants(l.king_weak_attackers)) {
            // Defended by the king alone counts as weak: the king cannot take a defended piece.
            let mut defended = B::ZERO;
            for t in (0..r.ntypes()).filter(|&t| t != r.king) {
                defended |= by_type[them][t];
            }
            let weak = (zones[color] & attacked[color] & !defended).count();
            if weak > 0 {
                acc.add(l.king_weak, sign * weak as f32 * phase);
                acc.add(l.king_weak_attackers, sign * weak as f32 * n * phase);
            }
        }
        if let (Some(pt), Some(p)) = (pawn_t, r.pawn.as_ref()) {
            let (push_on, safe_on) = (wanted.has(PUSH), wanted.has(SAFE_PAWN));
            let enemies = pos.color_bb(them) & !pos.type_bb(pt) & !pos.type_bb(r.king);
            if (push_on || safe_on) && enemies.any() {
                let pawns = pos.pieces(color, pt);
                let safe = !attacked[them] | attacked[color];
                let (mut pushed, mut now) = (B::ZERO, B::ZERO);
                for sq in pawns.iter() {
                    if safe.has(sq) {
                        now |= p.captures[color][sq];
                    }
                    let stop = l.stop[color][sq];
                    if push_on
                        && stop != NO_STOP
                        && !occupied.has(stop)
                        && safe.has(stop)
                        && !pawn_attacks[them].has(stop)
                    {
                        pushed |= p.captures[color][stop];
                    }
                }
                tapered(acc, l.threat_push, sign * (pushed & enemies).count() as f32, phase);
                tapered(acc, l.threat_safe_pawn, sign * (now & enemies).count() as f32, phase);
            }
            if l.space != NONE && wanted.has(SPACE) {
                let pawns = pos.pieces(color, pt);
                let safe = m(l.space_area[color]) & !pawns & !pawn_attacks[them];
                let mut behind = B::ZERO;
                for sq in pawns.iter() {
                    behind |= m(l.rear[color][sq]);
                }
                let bonus = safe.count() + (behind & safe & !attacked[them]).count();
                let jammed = (blocked[0].count() + blocked[1].count()).min(9) as f32;
                let weight = (pos.color_bb(color).count() as f32 - 3.0 + jammed).max(0.0);
                if bonus > 0 && weight > 0.0 {
                    acc.add(l.space, sign * bonus as f32 * weight * weight / 256.0 * phase);
                }
            }
        }
        if l.queen_type != NONE && wanted.has(QUEEN_NEXT) {
            let queens = pos.pieces(them, l.queen_type);
            if queens.any() {
                let safe = !pawn_attacks[them] & !(attacked[them] & !attacked[color]) & !pos.color_bb(color);
                let mut next = 0;
                for q in queens.iter() {
                    let mut mask = l.lesser[l.queen_type];
                    while mask != 0 {
                        let t = mask.trailing_zeros() as usize;
                        mask &= mask - 1;
                        let from = by_type[color][t] & safe;
                        if l.symmetric[t] && from.any() {
                            next += (pos.attacks_from(q, t, color) & from).count();
                        }
                    }
                }
                tapered(acc, l.threat_next, sign * next as f32, phase);
            }
        }
        if restricted_on {
            let strong = pawn_attacks[them] | (twice[them] & !twice[color]);
            tapered(acc, l.restricted, sign * (attacked[them] & !strong & attacked[color]).count() as f32, phase);
        }
        tapered(acc, l.threat_pawn, sign * by_pawn as f32, phase);
        tapered(acc, l.threat_lesser, sign * by_lesser as f32, phase);
        tapered(acc, l.hanging, sign * hanging as f32, phase);
        if zone_hits[color] > 0 {
            acc.add(l.king_attack, sign * zone_hits[color] as f32 * phase);
            acc.add(l.king_attackers2, sign * n * n * phase);
            let danger = zone_hits[color] as f32 * n;
            acc.add(l.king_danger, sign * danger * phase);
            acc.add(l.king_danger2, sign * danger * danger / 64.0 * phase);
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

/// Pawns of `color` whose stop square is occupied.
fn blocked_pawns<B: Bits>(pos: &Position<B>, l: &Layout, color: usize) -> B {
    let Some(pt) = pos.rules.pawn_type else { return B::ZERO };
    let occupied = pos.occupied();
    let mut out = B::ZERO;
    for sq in pos.pieces(color, pt).iter() {
        let stop = l.stop[color][sq];
        if stop != NO_STOP && occupied.has(stop) {
            out |= B::bit(sq);
        }
    }
    out
}
