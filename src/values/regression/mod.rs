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
//! `beta_stm` the worth of having the move, both also reported in pawns.
//!
//! Intervals: the coefficients' covariance comes from a bootstrap over games (positions of
//! one game share its result, so the model's own standard errors would be far too small),
//! and each ratio's interval from Fieller's theorem on it (`maths::fieller`). A ratio has a
//! bounded 95 % interval only when the pawn's coefficient is significantly above zero; when
//! it is not, every value is marked not supported (`values::support`) instead of printed.

pub mod corpus;
pub mod dataset;

use crate::maths::bootstrap;
use crate::maths::fieller::{self, Ratio, RatioInput};
use crate::maths::logistic::{fit, Grouped, Model};
use crate::values::pieces::Pieces;
use crate::values::support::Support;
use dataset::Dataset;

/// Bootstrap replicates unless a caller asks otherwise. A 95 % interval's ends are read in
/// the 2.5 % tails: with 1,000 replicates 25 lie beyond each end, with 100 only 2 or 3.
pub const DEFAULT_REPLICATES: usize = 1000;

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

/// One estimated quantity in pawns. Without support, `value`, `low`, `high` and `se` are
/// NaN and `note` says why.
#[derive(Clone, Debug)]
pub struct Estimate {
    /// Piece letter, or `white` / `side-to-move` for the two extra terms.
    pub name: String,
    pub value: f64,
    pub low: f64,
    pub high: f64,
    /// Delta-method standard error from the bootstrap covariance (a summary of precision;
    /// the interval is Fieller's).
    pub se: f64,
    pub support: Support,
    pub note: String,
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
    /// The pawn's coefficient over its bootstrap standard deviation: values in pawns are
    /// supported only above 1.96 (Fieller's condition).
    pub pawn_z: f64,
    pub draw_margin: Option<f64>,
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

/// Sample covariance of two columns of replicates.
fn covariance(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len() as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    a.iter().zip(b).map(|(x, y)| (x - ma) * (y - mb)).sum::<f64>() / (n - 1.0).max(1.0)
}

/// The estimate `sum a_j beta_j / beta_pawn` of `weights`, from the point fit and the
/// bootstrap refits' coefficients.
fn ratio_estimate(
    name: String,
    weights: &[(usize, f64)],
    point: &[f64],
    reps: &[Vec<f64>],
    pawn_col: usize,
    varied: usize,
) -> Estimate {
    let num = |b: &[f64]| weights.iter().map(|&(j, a)| a * b[j]).sum::<f64>();
    let nums: Vec<f64> = reps.iter().map(|b| num(b)).collect();
    let dens: Vec<f64> = reps.iter().map(|b| b[pawn_col]).collect();
    let input = RatioInput {
        num: num(point),
        den: point[pawn_col],
        var_num: covariance(&nums, &nums),
        var_den: covariance(&dens, &dens),
        cov: covariance(&nums, &dens),
    };
    let unsupported = |note: String| Estimate {
        name: name.clone(),
        value: f64::NAN,
        low: f64::NAN,
        high: f64::NAN,
        se: f64::NAN,
        support: Support::NotEnoughData,
        note,
        varied,
    };
    match fieller::ratio(input, crate::stats::normal_quantile(0.975)) {
        Ratio::Bounded { value, low, high, se } if input.den > 0.0 => {
            Estimate { name, value, low, high, se, support: Support::Supported, note: String::new(), varied }
        }
        Ratio::Bounded { .. } => unsupported(format!(
            "more pawns went with worse results ({:.1} standard errors below zero): no unit to measure in",
            -input.den / input.var_den.sqrt()
        )),
        Ratio::Unbounded { den_z } => unsupported(format!(
            "the pawn's coefficient is {den_z:.2} standard errors from zero, under the 1.96 a bounded \
             95 % interval needs"
        )),
    }
}

pub fn estimate(pieces: &Pieces, data: &Dataset, s: &Settings) -> Result<Regression, String> {
    let pawn_col = data.types.iter().position(|&t| t == pieces.pawn).ok_or("the pawn never varies")?;
    let n = data.games.len();
    let point = fit(s.model, &Grouped { x: data.x.clone(), counts: data.counts(&vec![1.0; n]) })?;
    let point_beta = point.beta.to_vec();
    let refit = |w: &[f64]| -> Option<Vec<f64>> {
        fit(s.model, &Grouped { x: data.x.clone(), counts: data.counts(w) }).ok().map(|f| f.beta.to_vec())
    };
    let (reps, failed) = bootstrap::run(n, s.replicates, s.seed, refit);
    if reps.len() < 2 {
        return Err(format!(
            "only {} of {} bootstrap refits succeeded ({failed} failed); more games are needed",
            reps.len(),
            s.replicates
        ));
    }
    let pawn_reps: Vec<f64> = reps.iter().map(|b| b[pawn_col]).collect();
    let pawn_z = point_beta[pawn_col] / covariance(&pawn_reps, &pawn_reps).sqrt();
    let mut names: Vec<String> = data.types.iter().map(|&t| pieces.types[t].letter.to_string()).collect();
    names.push("side-to-move".into());
    names.push("white".into());
    let mut estimates = Vec::new();
    for (j, name) in names.into_iter().enumerate() {
        let varied = if j < data.types.len() { data.varied[j] } else { data.positions };
        estimates.push(ratio_estimate(name, &[(j, 1.0)], &point_beta, &reps, pawn_col, varied));
    }
    for (label, coefficients) in &s.contrasts {
        // A contrast needs every type it involves to have a coefficient.
        let Some(weights) = contrast_weights(coefficients, &data.types) else { continue };
        let varied = weights.iter().map(|&(j, _)| data.varied[j]).min().unwrap_or(0);
        estimates.push(ratio_estimate(label.clone(), &weights, &point_beta, &reps, pawn_col, varied));
    }
    Ok(Regression {
        estimates,
        missing: data.constant.iter().map(|&t| pieces.types[t].letter).collect(),
        games: n,
        positions: data.positions,
        failed_replicates: failed,
        pawn_z,
        draw_margin: point.theta,
    })
}
