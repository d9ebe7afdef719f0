//! Elo and normalized Elo estimates with confidence intervals, and the likelihood of superiority.
//!
//! All three are normal approximations built on a [`ScoreSample`] (number of samples `N`,
//! mean score `mu`, per-sample variance `var`), so the same code serves the trinomial model
//! (samples are games) and the pentanomial one (samples are game pairs).

use super::normal::{normal_cdf, two_sided_z};
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

/// A point estimate with a two-sided confidence interval `[lower, upper]`.
///
/// Infinite values are meaningful (a 100 % score is `+inf` Elo); NaN only appears if a NaN
/// confidence level was requested.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub value: f64,
    pub lower: f64,
    pub upper: f64,
}

impl EloEstimate {
    /// Half-width of the interval, `(upper - lower) / 2`, the "+/-" figure of match reports.
    ///
    /// It is `0` when the interval is a single point, including the point `+inf` (or `-inf`),
    /// and `+inf` when one end is infinite and the other is not.
    pub fn margin(&self) -> f64 {
        if self.lower == self.upper {
            0.0
        } else {
            (self.upper - self.lower) / 2.0
        }
    }
}

/// Logistic Elo `score_to_elo(mu)` with the confidence interval obtained by mapping the score
/// interval through the (monotone) logistic curve:
///
/// ```text
/// se    = sqrt(var / N)
/// lower = score_to_elo(mu - z * se),  upper = score_to_elo(mu + z * se),  z = Phi^-1((1 + confidence) / 2)
/// ```
///
/// `var` is the variance of the per-game score (trinomial) or of the halved pair score
/// (pentanomial, `N` = pairs); for 95 % `z = 1.96`. The interval is asymmetric in Elo because
/// the curve is not linear. Score bounds outside `[0, 1]` are clamped there, giving infinite Elo
/// bounds. A 0 % or 100 % score gives `-inf` or `+inf` for the value; with zero variance (all
/// samples identical) the interval collapses onto the value.
pub fn logistic_elo(sample: &ScoreSample, confidence: f64) -> EloEstimate {
    let mu = sample.mean();
    let se = sample.std_error();
    let half = if se > 0.0 { two_sided_z(confidence) * se } else { 0.0 };
    EloEstimate {
        value: score_to_elo(mu),
        lower: score_to_elo((mu - half).clamp(0.0, 1.0)),
        upper: score_to_elo((mu + half).clamp(0.0, 1.0)),
    }
}

/// Normalized Elo (Michel Van den Bergh's definition, as in fishtest and fastchess):
///
/// ```text
/// nElo = (mu - 1/2) / sigma * 800 / ln 10
/// sigma = sqrt(var)        trinomial: per-game standard deviation
/// sigma = sqrt(2 * var)    pentanomial: var is that of the halved pair score
/// ```
///
/// Why: `(mu - 1/2) / sigma` is the per-game t-value, i.e. how many standard deviations of a
/// single game the advantage amounts to. That measures how hard the difference is to detect
/// (the number of games a test needs scales with `1 / t^2`), independently of the draw rate,
/// which logistic Elo does not. Equivalently, with the per-pair t-value
/// `t_pair = (mu - 1/2) / sqrt(var)`, the pentanomial nElo is `t_pair / sqrt 2 * 800 / ln 10`.
///
/// Interval: the score interval `mu +/- z * sqrt(var / N)` mapped with the same `sigma`, i.e.
/// `nElo +/- z * (800 / ln 10) / sqrt(games)`; its width depends only on the number of games.
///
/// Degenerate samples: with zero variance the value is `0` when `mu = 1/2` (all draws, or
/// only even pairs) and `+inf` / `-inf` otherwise (all wins / all losses); the interval of an
/// infinite value is that single point.
pub fn normalized_elo(sample: &ScoreSample, confidence: f64) -> EloEstimate {
    let value = sample.t_value() * NELO_PER_T;
    if value.is_infinite() {
        return EloEstimate { value, lower: value, upper: value };
    }
    let half = two_sided_z(confidence) * NELO_PER_T / sample.games().sqrt();
    EloEstimate { value, lower: value - half, upper: value + half }
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
