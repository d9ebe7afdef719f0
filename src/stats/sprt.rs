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
//! SPRT whose LLR depends on the data only through the empirical mean and variance of the
//! sample score (see [`crate::stats::ScoreSample`]). The closed forms used are the GSPRT
//! approximations described by Michel Van den Bergh for fishtest; fastchess and fishtest today
//! compute the exact multinomial maximum-likelihood LLR, which agrees with these to within about
//! a percent on realistic samples (thousands of games, every outcome observed).

use std::fmt;

use super::elo::{elo_to_score, NELO_PER_T};
use super::pentanomial::Pentanomial;
use super::sample::ScoreSample;
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
/// Let `N` be the number of samples (games for [`Wdl`], pairs for [`Pentanomial`]), and `mu`,
/// `var` the empirical mean and variance of the sample score (pair scores halved to `[0, 1]`).
/// As fishtest, fastchess and OpenBench do, every empty outcome cell is first given a
/// pseudo-count of 0.001, which keeps `var > 0`.
///
/// **Logistic bounds.** With `s0`, `s1` the expected scores of `elo0`, `elo1`:
///
/// ```text
/// LLR = N/2 * (s1 - s0) * (2 mu - s0 - s1) / var
/// ```
///
/// Why: by the central limit theorem the mean score is approximately normal with variance
/// `var / N`, so the log-likelihood of a true score `s` is `-N (mu - s)^2 / (2 var)` up to a
/// constant, and `[(mu - s0)^2 - (mu - s1)^2] * N / (2 var)` expands to the formula above.
/// It is positive exactly when `mu` is closer to `s1` than to `s0`.
///
/// **Normalized bounds.** With the per-game t-value `t = (mu - 1/2) / sigma` (`sigma = sqrt(var)`
/// for games, `sqrt(2 var)` for pairs, as in normalized Elo), `t0 = elo0 / (800 / ln 10)`,
/// `t1 = elo1 / (800 / ln 10)` and `G` the number of games (`N`, or `2N` for pairs):
///
/// ```text
/// LLR = G/2 * ln[(1 + (t - t0)^2) / (1 + (t - t1)^2)]
/// ```
///
/// Why: this is the normal-model likelihood ratio when the variance is unknown and profiled
/// out (the hypothesis fixes the ratio mean/sigma, not the mean); it is the approximation of
/// section 4.2 of Van den Bergh's "normalized Elo" notes, used by fishtest. To first order in
/// the t-values it is `G/2 * (t1 - t0) * (2 t - t0 - t1)`, the same shape as the logistic form.
///
/// # Degenerate samples
///
/// * No games: `LLR = 0` and [`SprtStatus::Continue`].
/// * A single kind of outcome (all draws, all wins, only even pairs, ...): the pseudo-counts
///   give a tiny but positive variance, so the LLR is always finite, but the approximation
///   trusts that near-zero variance and is unreliable there:
///   - logistic bounds overreact: against `[0, 5]`, ten straight draws give about -5.2
///     (accept H0) and ten straight wins about +286 (accept H1);
///   - normalized bounds underreact: the t-value of such a sample is huge, so the LLR stays
///     near 0 (ten wins against `[0, 5]` give +0.003, a hundred wins +0.01) and the test does
///     not stop while the sample stays one-sided.
///
///   The exact maximum-likelihood LLR of fishtest/fastchess differs most on such samples
///   (104 double-win pairs against nElo `[0, 5]`: 2.94 exact, 0.04 here). Callers running very
///   short tests may want a minimum number of games before acting on the status.
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
