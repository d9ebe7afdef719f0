//! Estimator 1: piece values by regression on self-play positions (the approach of
//! Tomasev et al. 2020, "Assessing Game Balance with AlphaZero"). The game result is
//! modelled as a logistic function of
//!
//! ```text
//! eta = sum_t beta_t * (count_t(White) - count_t(Black)) + beta_stm * (+1 White to move, -1 Black) + beta_0
//! ```
//!
//! and a piece's value in pawns is `beta_t / beta_pawn`: the material advantage that shifts
//! the winning odds as much as that many pawns. `beta_0` is White's advantage and
//! `beta_stm` the worth of having the move, both also reported in pawns. Intervals are
//! BCa bootstrap intervals over games (see `maths::bootstrap`).

pub mod corpus;
pub mod dataset;

use crate::maths::bootstrap;
use crate::maths::logistic::{fit, Grouped, Model};
use crate::values::pieces::Pieces;
use dataset::Dataset;
use rayon::prelude::*;

/// Bootstrap replicates unless a caller asks otherwise. A 95 % interval's ends are read in
/// the 2.5 % tails: with 1,000 replicates 25 lie beyond each end, with 100 only 2 or 3.
pub const DEFAULT_REPLICATES: usize = 1000;

/// Groups of games left out in turn for the jackknife behind the BCa acceleration: enough
/// for a skewness estimate, few enough to cost a few percent of the bootstrap.
const JACKKNIFE_GROUPS: usize = 40;

#[derive(Clone, Debug)]
pub struct Settings {
    pub model: Model,
    pub replicates: usize,
    pub seed: u64,
    /// Differences to report besides the single values, e.g. `F-R`, so they can be set
    /// beside the imbalance matches' figures: a label and a coefficient per piece type.
    /// Their intervals come from the same bootstrap replicates, so the correlation of the
    /// two values is accounted for.
    pub contrasts: Vec<(String, Vec<i32>)>,
}

/// One estimated quantity in pawns.
#[derive(Clone, Debug)]
pub struct Estimate {
    /// Piece letter, or `white` / `side-to-move` for the two extra terms.
    pub name: String,
    pub value: f64,
    pub low: f64,
    pub high: f64,
    /// Bootstrap standard deviation.
    pub se: f64,
    /// Selected positions in which this piece's count differed between the sides.
    pub varied: usize,
}

#[derive(Clone, Debug)]
pub struct Regression {
    pub estimates: Vec<Estimate>,
    /// Piece letters without an estimate (never unequal in the data).
    pub missing: Vec<char>,
    pub games: usize,
    pub positions: usize,
    /// Bootstrap refits that failed outright (a resample without any variation of some piece).
    pub failed_replicates: usize,
    /// Bootstrap refits left out because their pawn coefficient was not positive, so they
    /// give no values in pawns. Intervals are computed without them, so many of them mean the
    /// intervals are too narrow on the low side.
    pub dropped_replicates: usize,
    pub draw_margin: Option<f64>,
}

/// `beta / beta_pawn` for every coefficient of a fit, or `None` if the pawn's coefficient
/// is not positive (a sample that says more pawns do not help is no basis for a ratio).
fn ratios(beta: &ndarray::Array1<f64>, pawn_col: usize) -> Option<Vec<f64>> {
    let bp = beta[pawn_col];
    (bp > 1e-9).then(|| beta.iter().map(|b| b / bp).collect())
}

/// (column, coefficient) pairs of a contrast, or `None` if it involves a type without a
/// column.
fn contrast_weights(coefficients: &[i32], types: &[usize]) -> Option<Vec<(usize, f64)>> {
    let mut out = Vec::new();
    for (t, &a) in coefficients.iter().enumerate() {
        if a != 0 {
            out.push((types.iter().position(|&u| u == t)?, a as f64));
        }
    }
    Some(out)
}

pub fn estimate(pieces: &Pieces, data: &Dataset, s: &Settings) -> Result<Regression, String> {
    let pawn_col = data.types.iter().position(|&t| t == pieces.pawn).ok_or("the pawn never varies")?;
    let n = data.games.len();
    let point = fit(s.model, &Grouped { x: data.x.clone(), counts: data.counts(&vec![1.0; n]) })?;
    let values = ratios(&point.beta, pawn_col).ok_or_else(|| {
        "the fitted worth of a pawn is not positive: more (or more varied) games are needed".to_string()
    })?;
    let refit = |w: &[f64]| -> Option<Option<Vec<f64>>> {
        let f = fit(s.model, &Grouped { x: data.x.clone(), counts: data.counts(w) }).ok()?;
        Some(ratios(&f.beta, pawn_col))
    };
    let (outcomes, failed) = bootstrap::run(n, s.replicates, s.seed, refit);
    let dropped = outcomes.iter().filter(|o| o.is_none()).count();
    let reps: Vec<Vec<f64>> = outcomes.into_iter().flatten().collect();
    if reps.len() < 2 {
        return Err(format!(
            "only {} of {} bootstrap refits succeeded ({failed} failed, {dropped} had a pawn worth nothing); \
             more games are needed",
            reps.len(),
            s.replicates
        ));
    }
    let groups = JACKKNIFE_GROUPS.min(n);
    let jackknife: Vec<Vec<f64>> = (0..groups)
        .into_par_iter()
        .filter_map(|g| refit(&bootstrap::leave_group_out(n, groups, g)).flatten())
        .collect();
    let interval = |value: f64, pick: &dyn Fn(&[f64]) -> f64| {
        let column: Vec<f64> = reps.iter().map(|r| pick(r)).collect();
        let jack: Vec<f64> = jackknife.iter().map(|r| pick(r)).collect();
        let (low, high) = bootstrap::bca_95(&column, value, &jack);
        (low, high, bootstrap::std_dev(&column))
    };
    let mut names: Vec<String> = data.types.iter().map(|&t| pieces.types[t].letter.to_string()).collect();
    names.push("side-to-move".into());
    names.push("white".into());
    let mut estimates = Vec::new();
    for (j, name) in names.into_iter().enumerate() {
        let (low, high, se) = interval(values[j], &|r| r[j]);
        let varied = if j < data.types.len() { data.varied[j] } else { data.positions };
        estimates.push(Estimate { name, value: values[j], low, high, se, varied });
    }
    for (label, coefficients) in &s.contrasts {
        // A contrast needs every type it involves to have a coefficient.
        let Some(weights) = contrast_weights(coefficients, &data.types) else { continue };
        let combine = |v: &[f64]| weights.iter().map(|&(j, a)| a * v[j]).sum::<f64>();
        let (low, high, se) = interval(combine(&values), &combine);
        let varied = weights.iter().map(|&(j, _)| data.varied[j]).min().unwrap_or(0);
        estimates.push(Estimate { name: label.clone(), value: combine(&values), low, high, se, varied });
    }
    Ok(Regression {
        estimates,
        missing: data.constant.iter().map(|&t| pieces.types[t].letter).collect(),
        games: n,
        positions: data.positions,
        failed_replicates: failed,
        dropped_replicates: dropped,
        draw_margin: point.theta,
    })
}
