//! The feature matrix the tuner streams over, in a compact sparse form.
//!
//! The evaluation is `eval = sum_i w_i * f_i` with the game phase `p` folded into the feature
//! values (`value.N.mg` counts `n * p`, `value.N.eg` counts `n * (1 - p)`). Storing both
//! halves would double the data, so a position is stored as its phase plus *terms*: a term
//! `t` with value `v` contributes `v * (p * w[mg_t] + (1 - p) * w[eg_t])`. A tapered pair is
//! one term; a feature that ignores the phase (tempo) is a term with `mg_t == eg_t`; any
//! other feature is split into an `(i, zero)` and a `(zero, i)` term, where `zero` is an
//! extra weight slot that is always 0. The terms are derived, not assumed: the features are
//! computed at phase 1 and at phase 0, which is exact because every feature is affine in
//! the phase, so a change to `eval::features` cannot silently break the tuner.
//!
//! Layout: `offsets[i]..offsets[i + 1]` index the entries (`index`, `value`) of position `i`;
//! `phase[i]` and `result[i]` (White's score) complete it. 6 bytes per entry.

use super::positions::LabelledPosition;
use crate::eval::features::{self, Accumulator};
use crate::eval::{Evaluator, Layout};
use crate::position::Position;
use crate::rules::Bits;
use crate::tournament::quiet;
use crate::{Board, Error, Variant};
use rayon::prelude::*;

/// Term table: the weight multiplied by `p` and the one multiplied by `1 - p`.
#[derive(Clone, Debug)]
pub struct Terms {
    /// Number of real weights; index `n` is the zero slot.
    pub n: usize,
    pub mg: Vec<u32>,
    pub eg: Vec<u32>,
    /// For each weight: the term pairing it (as `.mg`) with its `.eg` partner, and that partner.
    pair: Vec<Option<(u16, usize)>>,
}

impl Terms {
    pub fn new(layout: &Layout) -> Terms {
        let n = layout.len();
        assert!(4 * n < u16::MAX as usize, "too many weights for 16-bit term indices");
        let (mut mg, mut eg) = (Vec::new(), Vec::new());
        // Terms 3i, 3i+1, 3i+2: weight i regardless of phase, at phase 1 only, at phase 0 only.
        for i in 0..n {
            mg.extend([i as u32, i as u32, n as u32]);
            eg.extend([i as u32, n as u32, i as u32]);
        }
        let mut pair = vec![None; n];
        for (i, name) in layout.names.iter().enumerate() {
            if let Some(base) = name.strip_suffix(".mg") {
                if let Some(j) = layout.index(&format!("{base}.eg")) {
                    pair[i] = Some((mg.len() as u16, j));
                    mg.push(i as u32);
                    eg.push(j as u32);
                }
            }
        }
        Terms { n, mg, eg, pair }
    }

    pub fn len(&self) -> usize {
        self.mg.len()
    }

    pub fn is_empty(&self) -> bool {
        self.mg.is_empty()
    }

    /// Per term: (weight at phase 1, weight at phase 0), for the inner loops.
    pub fn gather(&self, weights: &[f32], out: &mut [[f32; 2]]) {
        let w = |i: u32| if (i as usize) < self.n { weights[i as usize] } else { 0.0 };
        for (t, o) in out.iter_mut().enumerate() {
            *o = [w(self.mg[t]), w(self.eg[t])];
        }
    }

    /// Adds per-term gradients (phase-1 part, phase-0 part) to per-weight gradients.
    pub fn scatter(&self, term_grad: &[[f64; 2]], out: &mut [f64]) {
        for (t, g) in term_grad.iter().enumerate() {
            let (a, b) = (self.mg[t] as usize, self.eg[t] as usize);
            if a < self.n {
                out[a] += g[0];
            }
            if b < self.n {
                out[b] += g[1];
            }
        }
    }
}

/// Dense feature buffers reused across positions (one per worker thread).
struct Scratch {
    at1: Vec<f32>,
    at0: Vec<f32>,
    seen: Vec<bool>,
    touched: Vec<u32>,
}

struct Collect<'a> {
    v: &'a mut [f32],
    seen: &'a mut [bool],
    touched: &'a mut Vec<u32>,
}

impl Accumulator for Collect<'_> {
    fn add(&mut self, index: usize, value: f32) {
        if !self.seen[index] {
            self.seen[index] = true;
            self.touched.push(index as u32);
        }
        self.v[index] += value;
    }
}

/// Computes the term entries of positions of one variant.
pub struct Extractor {
    eval: Evaluator,
    terms: Terms,
}

impl Extractor {
    pub fn new(variant: Variant) -> Extractor {
        let eval = match variant {
            Variant::Narrow(r) => Evaluator::default_for(r),
            Variant::Wide(r) => Evaluator::default_for(r),
        };
        let terms = Terms::new(&eval.layout);
        Extractor { eval, terms }
    }

    pub fn layout(&self) -> &Layout {
        &self.eval.layout
    }

    /// The variant's default weights (no engine config).
    pub fn default_weights(&self) -> &[f32] {
        self.eval.weights()
    }

    pub fn terms(&self) -> &Terms {
        &self.terms
    }

    fn scratch(&self) -> Scratch {
        let n = self.terms.n;
        Scratch { at1: vec![0.0; n], at0: vec![0.0; n], seen: vec![false; n], touched: Vec::with_capacity(n) }
    }

    /// Appends the entries of `pos` to `out` and returns its phase.
    fn extract<B: Bits>(&self, pos: &Position<B>, s: &mut Scratch, out: &mut Vec<(u16, f32)>) -> f32 {
        let l = &*self.eval.layout;
        let mut acc1 = Collect { v: &mut s.at1, seen: &mut s.seen, touched: &mut s.touched };
        features::features(pos, l, 1.0, &mut acc1);
        let mut acc0 = Collect { v: &mut s.at0, seen: &mut s.seen, touched: &mut s.touched };
        features::features(pos, l, 0.0, &mut acc0);
        s.touched.sort_unstable();
        for &i in &s.touched {
            let i = i as usize;
            if let Some((term, j)) = self.terms.pair[i] {
                let x = s.at1[i];
                if x != 0.0 && s.at0[i] == 0.0 && s.at1[j] == 0.0 && s.at0[j] == x {
                    out.push((term, x));
                    s.at1[i] = 0.0;
                    s.at0[j] = 0.0;
                }
            }
        }
        for &i in &s.touched {
            let i = i as usize;
            let (x, y) = (s.at1[i], s.at0[i]);
            if x == y {
                if x != 0.0 {
                    out.push(((3 * i) as u16, x));
                }
            } else {
                if x != 0.0 {
                    out.push(((3 * i + 1) as u16, x));
                }
                if y != 0.0 {
                    out.push(((3 * i + 2) as u16, y));
                }
            }
            s.at1[i] = 0.0;
            s.at0[i] = 0.0;
            s.seen[i] = false;
        }
        s.touched.clear();
        self.eval.phase(pos)
    }

    fn extract_board(&self, b: &Board, s: &mut Scratch, out: &mut Vec<(u16, f32)>) -> f32 {
        match b {
            Board::Narrow(p) => self.extract(p, s, out),
            Board::Wide(p) => self.extract(p, s, out),
        }
    }
}

/// One extracted position before it is packed.
struct Row {
    entries: Vec<(u16, f32)>,
    phase: f32,
    result: f32,
}

#[derive(Clone, Debug, Default)]
pub struct Dataset {
    pub offsets: Vec<u32>,
    pub index: Vec<u16>,
    pub value: Vec<f32>,
    pub phase: Vec<f32>,
    pub result: Vec<f32>,
}

impl Dataset {
    fn pack(rows: Vec<Row>) -> Result<Dataset, Error> {
        let total: usize = rows.iter().map(|r| r.entries.len()).sum();
        if total >= u32::MAX as usize {
            return Err(Error::Tuning(format!("{total} feature entries exceed the 32-bit offsets; use less data")));
        }
        let mut d = Dataset {
            offsets: Vec::with_capacity(rows.len() + 1),
            index: Vec::with_capacity(total),
            value: Vec::with_capacity(total),
            phase: Vec::with_capacity(rows.len()),
            result: Vec::with_capacity(rows.len()),
        };
        d.offsets.push(0);
        for r in rows {
            for (t, v) in r.entries {
                d.index.push(t);
                d.value.push(v);
            }
            d.offsets.push(d.index.len() as u32);
            d.phase.push(r.phase);
            d.result.push(r.result);
        }
        Ok(d)
    }

    /// Extracts features of labelled positions in parallel; order is kept. Returns the
    /// dataset and the number of positions dropped for being in check.
    pub fn from_positions(
        ex: &Extractor,
        variant: Variant,
        samples: &[LabelledPosition],
        skip_checks: bool,
    ) -> Result<(Dataset, usize), Error> {
        let rows: Vec<Result<Option<Row>, Error>> = samples
            .par_iter()
            .map_init(
                || ex.scratch(),
                |s, lp| {
                    let b = variant.parse_fen(&lp.fen).map_err(|e| {
                        Error::Tuning(format!("position '{}' does not fit {}: {e}", lp.fen, variant.name()))
                    })?;
                    if skip_checks && !quiet::unchecked(&b) {
                        return Ok(None);
                    }
                    let mut entries = Vec::with_capacity(48);
                    let phase = ex.extract_board(&b, s, &mut entries);
                    Ok(Some(Row { entries, phase, result: lp.result }))
                },
            )
            .collect();
        let mut kept = Vec::with_capacity(rows.len());
        let mut dropped = 0;
        for r in rows {
            match r? {
                Some(row) => kept.push(row),
                None => dropped += 1,
            }
        }
        Ok((Self::pack(kept)?, dropped))
    }

    /// Extracts features of boards with given results (White's score, any value in [0, 1]).
    pub fn from_boards(ex: &Extractor, boards: &[Board], results: &[f32]) -> Result<Dataset, Error> {
        if boards.len() != results.len() {
            return Err(Error::Tuning(format!("{} boards but {} results", boards.len(), results.len())));
        }
        let rows: Vec<Row> = boards
            .par_iter()
            .zip(results.par_iter())
            .map_init(
                || ex.scratch(),
                |s, (b, &result)| {
                    let mut entries = Vec::with_capacity(48);
                    let phase = ex.extract_board(b, s, &mut entries);
                    Row { entries, phase, result }
                },
            )
            .collect();
        Self::pack(rows)
    }

    pub fn len(&self) -> usize {
        self.phase.len()
    }

    pub fn is_empty(&self) -> bool {
        self.phase.is_empty()
    }

    /// Stored entries (terms) in all positions.
    pub fn entries(&self) -> usize {
        self.index.len()
    }

    /// Sets every label, e.g. to expected scores computed from known weights.
    pub fn set_results(&mut self, results: &[f32]) -> Result<(), Error> {
        if results.len() != self.len() {
            return Err(Error::Tuning(format!("{} results for {} positions", results.len(), self.len())));
        }
        self.result.copy_from_slice(results);
        Ok(())
    }

    /// White's evaluation of position `i` (centipawns, unrounded) from gathered term weights.
    #[inline]
    pub fn eval(&self, i: usize, wt: &[[f32; 2]]) -> f32 {
        let (s, e) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
        let (mut a, mut b) = (0.0f32, 0.0f32);
        for (&t, &v) in self.index[s..e].iter().zip(&self.value[s..e]) {
            let w = wt[t as usize];
            a += v * w[0];
            b += v * w[1];
        }
        let p = self.phase[i];
        p * a + (1.0 - p) * b
    }

    /// White's evaluation of every position with `weights` (one per layout name), in parallel.
    pub fn evals(&self, terms: &Terms, weights: &[f32]) -> Vec<f32> {
        let mut wt = vec![[0.0f32; 2]; terms.len()];
        terms.gather(weights, &mut wt);
        (0..self.len()).into_par_iter().map(|i| self.eval(i, &wt)).collect()
    }

    /// The dataset repeated `times` times (benchmarks on more data than the cache holds).
    pub fn repeated(&self, times: usize) -> Dataset {
        let mut d = Dataset {
            offsets: Vec::with_capacity(self.len() * times + 1),
            index: Vec::with_capacity(self.entries() * times),
            value: Vec::with_capacity(self.entries() * times),
            phase: Vec::with_capacity(self.len() * times),
            result: Vec::with_capacity(self.len() * times),
        };
        d.offsets.push(0);
        for _ in 0..times {
            let base = d.index.len() as u32;
            d.offsets.extend(self.offsets[1..].iter().map(|&o| o + base));
            d.index.extend_from_slice(&self.index);
            d.value.extend_from_slice(&self.value);
            d.phase.extend_from_slice(&self.phase);
            d.result.extend_from_slice(&self.result);
        }
        d
    }
}
