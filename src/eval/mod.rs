//! Evaluation: linear in named weights, so fitting and tuning can read and write them.

pub mod config;
pub mod features;
pub mod layout;
pub mod pawns;
pub mod weights;

use crate::position::Position;
use crate::rules::{Bits, Rules};
pub use config::EngineConfig;
use features::{Accumulator, SquareTable, Wanted};
pub use layout::Layout;
use pawns::{PawnCache, PawnInfo};
use std::sync::Arc;

/// A variant's evaluation with one set of weights.
#[derive(Clone, Debug)]
pub struct Evaluator {
    pub layout: Arc<Layout>,
    /// Private so that the square table is rebuilt with every change (`set_weight`).
    weights: Vec<f32>,
    squares: SquareTable,
    /// Bit per type whose mobility root has a weight, rebuilt with the square table.
    roots: u32,
    /// The pawn, piece and threat terms with a weight, rebuilt with the square table.
    wanted: Wanted,
    phase_weights: Vec<f32>,
    phase_total: f32,
}

struct Weighted<'a> {
    w: &'a [f32],
    squares: &'a SquareTable,
    roots: u32,
    wanted: Wanted,
    sum: f32,
    /// The square terms, summed apart and tapered once at the end.
    mg: f32,
    eg: f32,
}

impl Accumulator for Weighted<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, value: f32) {
        self.sum += self.w[index] * value;
    }

    #[inline(always)]
    fn wants(&self, index: usize) -> bool {
        self.w[index] != 0.0
    }

    #[inline(always)]
    fn wants_mobility_root(&self, _: &Layout, t: usize) -> bool {
        self.roots >> t & 1 != 0
    }

    #[inline(always)]
    fn wanted(&self) -> Wanted {
        self.wanted
    }

    #[inline(always)]
    fn piece_square(&mut self, _: &Layout, t: usize, color: usize, sq: usize, sign: f32, _: f32) {
        let [mg, eg] = self.squares.get(t, color, sq);
        self.mg += sign * mg;
        self.eg += sign * eg;
    }
}

/// Collects the sparse feature vector.
pub struct Sparse(pub Vec<(u32, f32)>);

impl Accumulator for Sparse {
    fn add(&mut self, index: usize, value: f32) {
        match self.0.iter_mut().find(|(i, _)| *i == index as u32) {
            Some(e) => e.1 += value,
            None => self.0.push((index as u32, value)),
        }
    }
}

/// The types whose mobility root has a non-zero weight, as a bit per type.
fn root_mask(l: &Layout, w: &[f32]) -> u32 {
    let mut mask = 0;
    for (t, p) in l.mobility_root.iter().enumerate() {
        if p.mg != layout::NONE && (w[p.mg] != 0.0 || w[p.eg] != 0.0) {
            mask |= 1 << t;
        }
    }
    mask
}

impl Evaluator {
    pub fn new<B: Bits>(r: &Rules<B>, weights: Vec<f32>) -> Evaluator {
        let layout = Arc::new(Layout::new(r));
        Self::with_layout(r, layout, weights)
    }

    pub fn with_layout<B: Bits>(r: &Rules<B>, layout: Arc<Layout>, weights: Vec<f32>) -> Evaluator {
        assert_eq!(weights.len(), layout.len(), "weight vector does not match the layout");
        let est = weights::estimated_values(r);
        let phase_weights: Vec<f32> =
            (0..r.ntypes()).map(|t| if t == r.king || r.types[t].pawn { 0.0 } else { est[t] }).collect();
        let phase_total =
            (0..r.ntypes()).map(|t| phase_weights[t] * (r.initial_counts[0][t] + r.initial_counts[1][t]) as f32).sum();
        let squares = SquareTable::new(&layout, &weights);
        let roots = root_mask(&layout, &weights);
        let wanted = Wanted::new(&layout, &weights);
        Evaluator { layout, weights, squares, roots, wanted, phase_weights, phase_total }
    }

    /// The evaluator with the variant's default weights.
    pub fn default_for<B: Bits>(r: &Rules<B>) -> Evaluator {
        let layout = Layout::new(r);
        let w = weights::default_weights(r, &layout);
        Self::with_layout(r, Arc::new(layout), w)
    }

    pub fn phase<B: Bits>(&self, pos: &Position<B>) -> f32 {
        features::phase(pos, &self.phase_weights, self.phase_total)
    }

    /// Score in centipawns from the side to move's point of view.
    #[inline]
    pub fn evaluate<B: Bits>(&self, pos: &Position<B>) -> i32 {
        self.evaluate_with(pos, &PawnInfo::new(pos, &self.layout))
    }

    /// [`Evaluator::evaluate`] reading the pawn terms from `cache`: the same score.
    #[inline]
    pub fn evaluate_cached<B: Bits>(&self, pos: &Position<B>, cache: &mut PawnCache<B>) -> i32 {
        self.evaluate_with(pos, cache.get(pos, &self.layout))
    }

    #[inline(always)]
    fn evaluate_with<B: Bits>(&self, pos: &Position<B>, pawns: &PawnInfo<B>) -> i32 {
        let mut acc = Weighted {
            w: &self.weights,
            squares: &self.squares,
            roots: self.roots,
            wanted: self.wanted,
            sum: 0.0,
            mg: 0.0,
            eg: 0.0,
        };
        let phase = self.phase(pos);
        features::features_with(pos, &self.layout, pawns, phase, &mut acc);
        let s = (acc.sum + acc.mg * phase + acc.eg * (1.0 - phase)).round() as i32;
        if pos.side() == 0 {
            s
        } else {
            -s
        }
    }

    /// The sparse feature vector of a position (White's point of view).
    pub fn features<B: Bits>(&self, pos: &Position<B>) -> Vec<(u32, f32)> {
        let mut acc = Sparse(Vec::with_capacity(48));
        features::features(pos, &self.layout, self.phase(pos), &mut acc);
        acc.0
    }

    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    pub fn into_weights(self) -> Vec<f32> {
        self.weights
    }

    /// Sets one weight by name.
    pub fn set_weight(&mut self, name: &str, value: f32) -> Result<(), String> {
        weights::apply(&self.layout, &mut self.weights, name, value)?;
        self.squares = SquareTable::new(&self.layout, &self.weights);
        self.roots = root_mask(&self.layout, &self.weights);
        self.wanted = Wanted::new(&self.layout, &self.weights);
        Ok(())
    }

    /// Value of a weight by name.
    pub fn weight(&self, name: &str) -> Option<f32> {
        self.layout.index(name).map(|i| self.weights[i])
    }

    /// Middlegame material value of a type (move ordering, SEE-like decisions).
    pub fn piece_value(&self, t: usize) -> i32 {
        let i = self.layout.value[t].mg;
        if i == layout::NONE {
            0
        } else {
            self.weights[i] as i32
        }
    }
}
