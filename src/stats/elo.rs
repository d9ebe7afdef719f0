//! Elo and normalized Elo estimates with confidence intervals, and the likelihood of superiority.
//!
//! The intervals themselves live in [`super::interval`], which decides when a match supports
//! one. Everything works from a [`ScoreSample`] (number of samples `N`, mean score `mu`,
//! per-sample variance `var`), so the same code serves the trinomial model (samples are games)
//! and the pentanomial one (samples are game pairs).

use super::normal::normal_cdf;
use super::sample::ScoreSample;

/// Confidence level of the intervals returned by the `elo()` / `nelo()` convenience methods.
pub const DEFAULT_CONFIDENCE: f64 = 0.95;

/// Normalized Elo per unit of per-game t-value: `800 / ln 10 = 347.4355855...`.
///
/// Why this constant: near equal strength the logistic curve `score = 1 / (1 + 10^(-elo/400))`
/// has slope `d score / d elo = ln 10 / 1600`. A per-game score standard deviation of `1/2`
/// (the value for a match without draws at equal strength) then turns a t-value `t` into
/// `t * (1/2) * 1600 / ln 10 = t * 800 / ln 10` Elo, so normalized and logistic Elo agree for
/// draw-free play near 50 %. Fishtest calls this number `nelo_divided_by_nt`.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// Logistic Elo difference for an expected score: `elo = -400 * log10(1/score - 1)`.
///
/// This inverts `score = 1 / (1 + 10^(-elo/400))`. Scores at or beyond the ends give
/// infinities rather than NaN: `score <= 0` gives `-inf`, `score >= 1` gives `+inf`; only a
/// NaN score gives NaN. Example: a 60 % score is `400 * log10(1.5) = +70.44` Elo.
pub fn score_to_elo(score: f64) -> f64 {
    if score.is_nan() {
        f64::NAN
    } else if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Expected score of a logistic Elo difference: `score = 1 / (1 + 10^(-elo/400))`.
///
/// `+inf` gives 1, `-inf` gives 0.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// A finite point estimate strictly inside a finite two-sided confidence interval
/// `[lower, upper]`; see [`super::interval`] for when a match supports one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub value: f64,
    pub lower: f64,
    pub upper: f64,
}

impl EloEstimate {
    /// Half-width of the interval, `(upper - lower) / 2`, the "+/-" figure of match reports.
    pub fn margin(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }
}

/// Likelihood of superiority from the normal approximation of the mean score:
///
/// ```text
/// LOS = Phi((mu - 1/2) / sqrt(var / N))
/// ```
///
/// This is the probability, under a flat prior, that the true expected score exceeds 1/2.
/// Used for pentanomial samples (`N` = pairs); [`crate::stats::Wdl::los`] uses the classic
/// `Phi((W - L) / sqrt(W + L))` instead. With zero variance the result is 1 if `mu > 1/2`,
/// 0 if `mu < 1/2` and 0.5 if `mu = 1/2`.
pub fn los(sample: &ScoreSample) -> f64 {
    let se = sample.std_error();
    let excess = sample.mean() - 0.5;
    if se > 0.0 {
        normal_cdf(excess / se)
    } else if excess > 0.0 {
        1.0
    } else if excess < 0.0 {
        0.0
    } else {
        0.5
    }
}
