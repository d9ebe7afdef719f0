//! The feature values of a position, fed to an [`Accumulator`]: the search sums them with
//! the weights, the tuner collects them as a sparse vector. One code path for both keeps
//! the evaluation and its features identical by construction.

use super::layout::{Layout, Pair, NONE};
use crate::position::Position;
use crate::rules::{Bits, WHITE};

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
    for color in 0..2 {
        let sign = if color == WHITE { 1.0 } else { -1.0 };
        let own = pos.color_bb(color);
        // Own and all pawns, for the file features (open: no pawn, semi-open: no own pawn).
        let pawn_files = pawn_t.map(|pt| (pos.pieces(color, pt).to_u128(), pos.type_bb(pt).to_u128()));
        for t in 0..r.ntypes() {
            let bb = own & pos.type_bb(t);
            if bb.is_empty() {
                continue;
            }
            tapered(acc, l.value[t], sign * bb.count() as f32, phase);
            let files = if l.open[t].mg != NONE { pawn_files } else { None };
            let (mut center, mut advance, mut mobility, mut open, mut semi) = (0.0, 0.0, 0.0, 0.0, 0.0);
            for sq in bb.iter() {
                center += l.centrality[sq];
                advance += l.progress[color][sq];
                if l.mobility[t].mg != NONE {
                    mobility += pos.mobility(sq, t, color) as f32;
                }
                if let Some((ours, all)) = files {
                    if l.file[sq] & all == 0 {
                        open += 1.0;
                    } else if l.file[sq] & ours == 0 {
                        semi += 1.0;
                    }
                }
            }
            tapered(acc, l.center[t], sign * center, phase);
            tapered(acc, l.advance[t], sign * advance, phase);
            tapered(acc, l.mobility[t], sign * mobility, phase);
            tapered(acc, l.open[t], sign * open, phase);
            tapered(acc, l.semiopen[t], sign * semi, phase);
        }
        if let Some(pt) = pawn_t {
            let pawns = (pos.pieces(color, pt)).to_u128();
            let theirs = (pos.pieces(color ^ 1, pt)).to_u128();
            let (mut passed, mut doubled, mut isolated) = (0.0, 0.0, 0.0);
            let mut rest = pawns;
            while rest != 0 {
                let sq = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if l.front_span[color][sq] & theirs == 0 {
                    passed += l.progress[color][sq];
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
    acc.add(l.tempo, if pos.side() == WHITE { 1.0 } else { -1.0 });
}
