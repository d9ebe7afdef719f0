//! When a match supports an Elo interval, and which one.
//!
//! The normal interval `mu +/- z sqrt(var / N)` misleads on small or one-sided samples: ten
//! straight wins have zero variance, so it collapses to the single point `+inf`, and four
//! drawn games give `0 +/- 0`. The rule here:
//!
//! 1. Fewer than [`MIN_GAMES`] games: [`EloInterval::NotEnoughGames`]. A spread estimated from
//!    a handful of games is itself too noisy to bound anything.
//! 2. Every sample has the same score (zero variance):
//!    * all at 100 % (or 0 %): only a one-sided bound is honest, [`EloInterval::AtLeast`]
//!      (or [`EloInterval::AtMost`]): the end of the Wilson interval of `N` Bernoulli
//!      samples with every one a success (or failure), `N / (N + z^2)`. Bernoulli samples have
//!      the largest variance a score in `[0, 1]` can have at a given mean, so this is the
//!      cautious bound;
//!    * any other single score (all draws, only even pairs): the data show no spread at all,
//!      so no width can be estimated: [`EloInterval::NotEnoughGames`].
//! 3. Otherwise the Wilson score interval with an effective sample size (below), mapped
//!    through the monotone Elo curve: [`EloInterval::Estimate`]. Both ends are then strictly
//!    inside `(0, 1)` and strictly on either side of the estimate, so the Elo interval is finite
//!    and never of zero width.
//!
//! Effective sample size: a game (or halved pair) score is not Bernoulli; draws shrink its
//! variance below `mu (1 - mu)`. With `n_eff = N mu (1 - mu) / var`, `n_eff` Bernoulli
//! samples have the same standard error of the mean as the match, so the Wilson interval on
//! `(mu, n_eff)` keeps the observed draw structure while gaining Wilson's behaviour near 0 and 1
//! (it never leaves `[0, 1]` and is asymmetric there). For large samples it matches the normal
//! interval.

use std::fmt;

use super::elo::{score_to_elo, EloEstimate, NELO_PER_T};
use super::normal::two_sided_z;
use super::sample::ScoreSample;

/// Fewest games for which any interval is reported.
pub const MIN_GAMES: u64 = 10;

/// What a match says about an Elo-like figure: a two-sided interval, a one-sided bound, or
/// nothing. None of the variants holds NaN; only the one-sided bounds hold no estimate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EloInterval {
    /// A finite value strictly inside a finite interval.
    Estimate(EloEstimate),
    /// Every game won: the figure is at least `lower` (the lower end of the two-sided interval).
    AtLeast { lower: f64, games: u64 },
    /// Every game lost: the figure is at most `upper` (the upper end of the two-sided interval).
    AtMost { upper: f64, games: u64 },
    /// Too few games, or results without any spread (see the module documentation).
    NotEnoughGames { games: u64 },
}

impl EloInterval {
    /// The two-sided estimate, if the data support one.
    pub fn estimate(&self) -> Option<EloEstimate> {
        match self {
            EloInterval::Estimate(e) => Some(*e),
            _ => None,
        }
    }
}

impl fmt::Display for EloInterval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EloInterval::Estimate(e) => {
                write!(f, "{:+.2} ± {:.2} [{:+.2}, {:+.2}]", e.value, e.margin(), e.lower, e.upper)
            }
            EloInterval::AtLeast { lower, games } => {
                write!(f, "at least {lower:+.2} (all {games} games won: lower bound only)")
            }
            EloInterval::AtMost { upper, games } => {
                write!(f, "at most {upper:+.2} (all {games} games lost: upper bound only)")
            }
            EloInterval::NotEnoughGames { games } => write!(f, "not enough games ({games})"),
        }
    }
}

/// Which case of the module rule a sample falls in, with the score bounds it supports.
enum Support {
    None,
    Above(f64),
    Below(f64),
    Between(f64, f64),
}

/// Confidence levels outside `(0, 1)` would give zero-width or unbounded intervals.
fn sane_z(confidence: f64) -> f64 {
    let c = if confidence.is_nan() { super::elo::DEFAULT_CONFIDENCE } else { confidence.clamp(1e-6, 1.0 - 1e-12) };
    two_sided_z(c)
}

/// Wilson score interval of `n` Bernoulli trials with success rate `p`.
pub(crate) fn wilson(p: f64, n: f64, z: f64) -> (f64, f64) {
    let z2n = z * z / n;
    let centre = (p + z2n / 2.0) / (1.0 + z2n);
    let half = z * (p * (1.0 - p) / n + z2n / (4.0 * n)).sqrt() / (1.0 + z2n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

fn support(sample: &ScoreSample, z: f64) -> Support {
    if (sample.games().round() as u64) < MIN_GAMES {
        return Support::None;
    }
    let (mu, var, n) = (sample.mean(), sample.variance(), sample.samples());
    if var > 0.0 && mu > 0.0 && mu < 1.0 {
        let n_eff = n * mu * (1.0 - mu) / var;
        let (lo, hi) = wilson(mu, n_eff, z);
        return Support::Between(lo, hi);
    }
    if mu >= 1.0 {
        Support::Above(wilson(1.0, n, z).0)
    } else if mu <= 0.0 {
        Support::Below(wilson(0.0, n, z).1)
    } else {
        Support::None
    }
}

/// Score interval of the module rule as `(lower, upper)` scores, `None` where the rule gives no
/// two-sided interval.
pub fn score_interval(sample: &ScoreSample, confidence: f64) -> Option<(f64, f64)> {
    match support(sample, sane_z(confidence)) {
        Support::Between(lo, hi) => Some((lo, hi)),
        _ => None,
    }
}

/// The Elo figures of a result type with a `sample()` (game counts and pair counts alike):
/// one definition, so the two types cannot drift apart in how they report Elo. The sample
/// fixes the variance (per game, or per pair for pentanomial counts).
macro_rules! elo_figures {
    ($t:ty) => {
        impl $t {
            /// Logistic Elo with its 95 % interval from the sample's variance, or why there
            /// is none (see [`crate::stats::interval`]).
            pub fn elo_interval(&self) -> $crate::stats::EloInterval {
                $crate::stats::interval::of_sample(self.sample(), $crate::stats::interval::logistic_elo)
            }

            /// Normalized Elo with its 95 % interval (per-game standard deviation; for
            /// pairs `sqrt(2 var_pair)`), or why there is none.
            pub fn nelo_interval(&self) -> $crate::stats::EloInterval {
                $crate::stats::interval::of_sample(self.sample(), $crate::stats::interval::normalized_elo)
            }

            /// `elo_interval` when it is a two-sided estimate.
            pub fn elo(&self) -> Option<$crate::stats::EloEstimate> {
                self.elo_interval().estimate()
            }

            /// `nelo_interval` when it is a two-sided estimate.
            pub fn nelo(&self) -> Option<$crate::stats::EloEstimate> {
                self.nelo_interval().estimate()
            }
        }
    };
}
pub(crate) use elo_figures;

/// `figure` of a sample at the default confidence; no games without a sample.
pub fn of_sample(sample: Option<ScoreSample>, figure: fn(&ScoreSample, f64) -> EloInterval) -> EloInterval {
    sample.map_or(EloInterval::NotEnoughGames { games: 0 }, |s| figure(&s, super::elo::DEFAULT_CONFIDENCE))
}

/// Logistic Elo `score_to_elo(mu)` with the interval of the module rule mapped through the
/// logistic curve (asymmetric in Elo because the curve is not linear).
pub fn logistic_elo(sample: &ScoreSample, confidence: f64) -> EloInterval {
    let games = sample.games().round() as u64;
    match support(sample, sane_z(confidence)) {
        Support::Between(lo, hi) => EloInterval::Estimate(EloEstimate {
            value: score_to_elo(sample.mean()),
            lower: score_to_elo(lo),
            upper: score_to_elo(hi),
        }),
        Support::Above(lo) => EloInterval::AtLeast { lower: score_to_elo(lo), games },
        Support::Below(hi) => EloInterval::AtMost { upper: score_to_elo(hi), games },
        Support::None => EloInterval::NotEnoughGames { games },
    }
}

/// Normalized Elo `(mu - 1/2) / sigma * 800 / ln 10` (Van den Bergh's definition, as in fishtest
/// and fastchess; `sigma` is [`ScoreSample::per_game_std_dev`]) with the score interval of the
/// module rule mapped through the same linear map.
///
/// Why normalized Elo: `(mu - 1/2) / sigma` is the per-game t-value, how many standard
/// deviations of one game the advantage amounts to. It measures how hard a difference is to
/// detect (the games a test needs scale with `1 / t^2`) whatever the draw rate.
///
/// One-sided samples have `sigma = 0`, an infinite t-value and no bound in this unit, so they
/// give [`EloInterval::NotEnoughGames`] too.
pub fn normalized_elo(sample: &ScoreSample, confidence: f64) -> EloInterval {
    let games = sample.games().round() as u64;
    let sigma = sample.per_game_std_dev();
    match support(sample, sane_z(confidence)) {
        Support::Between(lo, hi) if sigma > 0.0 => {
            let nelo = |score: f64| (score - 0.5) / sigma * NELO_PER_T;
            EloInterval::Estimate(EloEstimate { value: nelo(sample.mean()), lower: nelo(lo), upper: nelo(hi) })
        }
        _ => EloInterval::NotEnoughGames { games },
    }
}
