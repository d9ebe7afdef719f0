//! Sequential probability ratio test (SPRT) of H0: elo = elo0 against H1: elo = elo1.
//!
//! After every game (or pair) the log-likelihood ratio `LLR = ln(L(H1) / L(H0))` is compared
//! with Wald's bounds
//!
//! ```text
//! lower = ln(beta / (1 - alpha))        LLR <= lower: accept H0
//! upper = ln((1 - beta) / alpha)        LLR >= upper: accept H1
//! ```
//!
//! which keep the false-positive rate (accepting H1 when elo = elo0) near `alpha` and the
//! false-negative rate (accepting H0 when elo = elo1) near `beta`.
//!
//! The outcome distribution is not assumed to follow a draw model: the test is a *generalized*
//! SPRT. Each hypothesis fixes one figure of the outcome distribution (its mean score, or its
//! t-value), and the likelihood of each is that of the most likely outcome distribution meeting
//! it (see [`super::mle`]), as fishtest and fastchess compute it.

use std::fmt;

use super::elo::{elo_to_score, NELO_PER_T};
use super::mle::{self, MAX_CELLS};
use super::pentanomial::Pentanomial;
use super::sample::{ScoreSample, REGULARIZATION};
use super::wdl::Wdl;

/// Unit in which `elo0` and `elo1` are given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EloModel {
    /// Logistic Elo: the hypotheses are expected scores `s = 1 / (1 + 10^(-elo/400))`.
    Logistic,
    /// Normalized Elo: the hypotheses are per-game t-values `t = nelo / (800 / ln 10)`.
    Normalized,
}

/// Decision of the test at the current sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SprtStatus {
    /// The LLR lies strictly between the bounds: play more games.
    Continue,
    /// The LLR reached the lower bound: the result is consistent with elo0 (the change fails).
    AcceptH0,
    /// The LLR reached the upper bound: the result is consistent with elo1 (the change passes).
    AcceptH1,
}

/// LLR of a sample together with the bounds it is compared with and the resulting decision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtResult {
    pub status: SprtStatus,
    pub llr: f64,
    pub lower_bound: f64,
    pub upper_bound: f64,
}

/// Why [`Sprt::new`] rejected its parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SprtError {
    /// `elo0` and `elo1` must be finite with `elo0 < elo1`.
    EloBounds,
    /// `alpha` must lie strictly between 0 and 1.
    Alpha,
    /// `beta` must lie strictly between 0 and 1.
    Beta,
    /// `alpha + beta` must be below 1, otherwise the lower bound is not below the upper one.
    ErrorSum,
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtError::EloBounds => "SPRT: elo0 and elo1 must be finite with elo0 < elo1",
            SprtError::Alpha => "SPRT: alpha must lie strictly between 0 and 1",
            SprtError::Beta => "SPRT: beta must lie strictly between 0 and 1",
            SprtError::ErrorSum => "SPRT: alpha + beta must be less than 1",
        })
    }
}

impl std::error::Error for SprtError {}

/// A configured SPRT: hypotheses `elo0 < elo1` (in the unit of `model`) and error rates
/// `alpha` (false positive) and `beta` (false negative).
///
/// # Log-likelihood ratio
///
/// Let `N` be the number of samples (games for [`Wdl`], pairs for [`Pentanomial`]) and `f_i`
/// the observed frequency of the sample score `a_i` (pair scores halved to `[0, 1]`). As
/// fishtest, fastchess and OpenBench do, every empty outcome cell is first given a pseudo-count
/// of 0.001, so that no hypothesis can rule out what the data have not yet shown. Then
///
/// ```text
/// LLR = N * sum_i f_i ln(p1_i / p0_i)
/// ```
///
/// where `p0` (`p1`) is the maximum-likelihood outcome distribution under H0 (H1):
///
/// * **logistic bounds**: the one with mean score `s0 = 1 / (1 + 10^(-elo0/400))` (`s1`);
/// * **normalized bounds**: the one with t-value `(mu - 1/2) / sigma = t0` (`t1`), where
///   `t0 = elo0 / (800 / ln 10)` per game, times `sqrt 2` for pairs (the halved pair score of
///   two independent games has half the variance of one game's score).
///
/// For large samples with every outcome observed this agrees with Van den Bergh's closed
/// forms `N/2 (s1 - s0)(2 mu - s0 - s1) / var` and `G/2 ln[(1 + (t - t0)^2) / (1 + (t - t1)^2)]`;
/// on small or one-sided samples (where the variance is near zero) those closed forms blow up
/// or vanish, while the exact LLR stays bounded by how much the pseudo-counts can be tilted.
/// The closed form is used only if no tilted distribution meets a hypothesis (normalized
/// bounds of several hundred nElo).
///
/// # Degenerate samples
///
/// * No games: `LLR = 0` and [`SprtStatus::Continue`].
/// * A single kind of outcome (all draws, only even pairs, ...): finite LLR; e.g. nine even
///   pairs against logistic `[0, 10]` give about -0.27 and cannot stop the test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    model: EloModel,
}

impl Sprt {
    /// Validated parameters: `elo0 < elo1` (both finite), `0 < alpha < 1`, `0 < beta < 1` and
    /// `alpha + beta < 1`. Typical: `Sprt::new(0.0, 5.0, 0.05, 0.05, EloModel::Logistic)`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64, model: EloModel) -> Result<Self, SprtError> {
        let open_unit = |x: f64| x > 0.0 && x < 1.0;
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(SprtError::EloBounds);
        }
        if !open_unit(alpha) {
            return Err(SprtError::Alpha);
        }
        if !open_unit(beta) {
            return Err(SprtError::Beta);
        }
        if alpha + beta >= 1.0 {
            return Err(SprtError::ErrorSum);
        }
        Ok(Self { elo0, elo1, alpha, beta, model })
    }

    pub fn elo0(&self) -> f64 {
        self.elo0
    }

    pub fn elo1(&self) -> f64 {
        self.elo1
    }

    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    pub fn beta(&self) -> f64 {
        self.beta
    }

    pub fn model(&self) -> EloModel {
        self.model
    }

    /// `ln(beta / (1 - alpha))`, negative; e.g. -2.944 for `alpha = beta = 0.05`.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// `ln((1 - beta) / alpha)`, positive; e.g. +2.944 for `alpha = beta = 0.05`.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// LLR of a trinomial (per-game) sample; see the type documentation.
    pub fn llr_wdl(&self, wdl: &Wdl) -> f64 {
        self.llr_counts(&wdl.float_counts(), 1)
    }

    /// LLR of a pentanomial (per-pair) sample; see the type documentation.
    pub fn llr_pentanomial(&self, penta: &Pentanomial) -> f64 {
        self.llr_counts(&penta.float_counts(), 2)
    }

    /// Decision for a given LLR: `AcceptH1` at or above the upper bound, `AcceptH0` at or below
    /// the lower bound, `Continue` in between (and for a NaN LLR, which this module never
    /// produces).
    pub fn status(&self, llr: f64) -> SprtStatus {
        if llr >= self.upper_bound() {
            SprtStatus::AcceptH1
        } else if llr <= self.lower_bound() {
            SprtStatus::AcceptH0
        } else {
            SprtStatus::Continue
        }
    }

    /// LLR, bounds and decision of a trinomial sample.
    pub fn test_wdl(&self, wdl: &Wdl) -> SprtResult {
        self.result(self.llr_wdl(wdl))
    }

    /// LLR, bounds and decision of a pentanomial sample.
    pub fn test_pentanomial(&self, penta: &Pentanomial) -> SprtResult {
        self.result(self.llr_pentanomial(penta))
    }

    fn result(&self, llr: f64) -> SprtResult {
        SprtResult { status: self.status(llr), llr, lower_bound: self.lower_bound(), upper_bound: self.upper_bound() }
    }

    fn llr_counts(&self, counts: &[f64], games_per_sample: u32) -> f64 {
        let mut freq = [0.0; MAX_CELLS];
        let Some(total) = regularized(counts, &mut freq) else {
            return 0.0;
        };
        let freq = &freq[..counts.len()];
        let mut scores = [0.0; MAX_CELLS];
        let step = 1.0 / (counts.len() - 1) as f64;
        scores.iter_mut().enumerate().for_each(|(i, a)| *a = i as f64 * step);
        let scores = &scores[..counts.len()];
        let fitted = match self.model {
            EloModel::Logistic => {
                let (s0, s1) = (elo_to_score(self.elo0), elo_to_score(self.elo1));
                mle::with_mean(freq, scores, s0).zip(mle::with_mean(freq, scores, s1))
            }
            EloModel::Normalized => {
                let per_sample = f64::from(games_per_sample).sqrt() / NELO_PER_T;
                let (t0, t1) = (self.elo0 * per_sample, self.elo1 * per_sample);
                mle::with_t_value(freq, scores, t0).zip(mle::with_t_value(freq, scores, t1))
            }
        };
        match fitted {
            Some((p0, p1)) => {
                total * freq.iter().zip(p0.iter().zip(&p1)).map(|(f, (a, b))| f * (b / a).ln()).sum::<f64>()
            }
            None => self.closed_form(counts, games_per_sample),
        }
    }

    /// Van den Bergh's closed-form approximations (see the type documentation).
    fn closed_form(&self, counts: &[f64], games_per_sample: u32) -> f64 {
        let Some(sample) = ScoreSample::regularized(counts, games_per_sample) else {
            return 0.0;
        };
        match self.model {
            EloModel::Logistic => {
                let (s0, s1) = (elo_to_score(self.elo0), elo_to_score(self.elo1));
                sample.samples() / 2.0 * (s1 - s0) * (2.0 * sample.mean() - s0 - s1) / sample.variance()
            }
            EloModel::Normalized => {
                let (t0, t1) = (self.elo0 / NELO_PER_T, self.elo1 / NELO_PER_T);
                let t = sample.t_value();
                sample.games() / 2.0 * ((1.0 + (t - t0).powi(2)) / (1.0 + (t - t1).powi(2))).ln()
            }
        }
    }
}

/// Frequencies of `counts` after the pseudo-count [`REGULARIZATION`] replaced every empty cell,
/// and their regularized total; `None` without any game or with too many cells.
fn regularized(counts: &[f64], freq: &mut [f64; MAX_CELLS]) -> Option<f64> {
    if counts.len() < 2 || counts.len() > MAX_CELLS || counts.iter().all(|&c| c.is_nan() || c <= 0.0) {
        return None;
    }
    for (f, &c) in freq.iter_mut().zip(counts) {
        *f = if c > 0.0 { c } else { REGULARIZATION };
    }
    let total: f64 = freq.iter().sum();
    freq.iter_mut().for_each(|f| *f /= total);
    Some(total)
}
