//! The empirical score distribution of a match: the one input every estimator works from.
//!
//! A match is a sequence of independent *samples*. In the trinomial model a sample is one game,
//! scoring 0, 1/2 or 1. In the pentanomial model a sample is a game pair (same opening, colours
//! swapped) whose score is normalised to `[0, 1]` by halving the pair's points, so it takes the
//! values 0, 1/4, 1/2, 3/4, 1. Either way the *mean* of the sample score is the expected score
//! per game, and Elo, nElo and LOS (and the closed-form approximations of the SPRT
//! log-likelihood ratio) are functions of `N` (number of samples), the mean `mu` and the
//! variance `var` of the sample score:
//!
//! ```text
//! mu  = sum_i p_i * a_i              a_i = i / (k - 1), the k possible sample scores
//! var = sum_i p_i * (a_i - mu)^2     p_i = count_i / N, the empirical frequencies
//! ```
//!
//! The pentanomial variance is the better estimate: the two games of a pair are correlated
//! (they share an opening), which the trinomial model ignores.

/// Pseudo-count given to every empty outcome cell before an SPRT log-likelihood ratio is
/// computed, as fishtest, fastchess and OpenBench do. No hypothesis can then give an outcome
/// probability zero, so the LLR stays finite for any non-empty sample.
pub(crate) const REGULARIZATION: f64 = 1e-3;

/// Number of samples, mean and variance of the per-sample score of a match.
///
/// Obtained from [`crate::stats::Wdl::sample`] (one game per sample) or
/// [`crate::stats::Pentanomial::sample`] (one game pair per sample, score normalised to
/// `[0, 1]`). Never empty: the constructors return `None` for a match without games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreSample {
    samples: f64,
    games_per_sample: u32,
    mean: f64,
    variance: f64,
}

impl ScoreSample {
    /// Distribution of `counts[i]` observations of the score `i / (counts.len() - 1)`.
    /// `None` if there are fewer than two possible scores or no observation at all.
    pub(crate) fn from_counts(counts: &[f64], games_per_sample: u32) -> Option<Self> {
        let samples: f64 = counts.iter().sum();
        if counts.len() < 2 || samples <= 0.0 || samples.is_nan() {
            return None;
        }
        let step = 1.0 / (counts.len() - 1) as f64;
        let score = |i: usize| i as f64 * step;
        let mean = (counts.iter().enumerate().map(|(i, &c)| c * score(i)).sum::<f64>() / samples).clamp(0.0, 1.0);
        let variance = counts
            .iter()
            .enumerate()
            .map(|(i, &c)| {
                let d = score(i) - mean;
                c * d * d
            })
            .sum::<f64>()
            / samples;
        Some(Self { samples, games_per_sample, mean, variance })
    }

    /// As [`ScoreSample::from_counts`] after replacing every zero count by [`REGULARIZATION`];
    /// `None` if all counts are zero (no games at all). Serves up to five cells (pentanomial).
    pub(crate) fn regularized(counts: &[f64], games_per_sample: u32) -> Option<Self> {
        const MAX_CELLS: usize = 5;
        if counts.len() > MAX_CELLS || counts.iter().all(|&c| c <= 0.0) {
            return None;
        }
        let mut regularized = [0.0; MAX_CELLS];
        for (r, &c) in regularized.iter_mut().zip(counts) {
            *r = if c > 0.0 { c } else { REGULARIZATION };
        }
        Self::from_counts(&regularized[..counts.len()], games_per_sample)
    }

    /// Number of samples `N`: games (trinomial) or game pairs (pentanomial).
    pub fn samples(&self) -> f64 {
        self.samples
    }

    /// Games per sample: 1 (trinomial) or 2 (pentanomial).
    pub fn games_per_sample(&self) -> u32 {
        self.games_per_sample
    }

    /// Number of games, `N * games_per_sample`.
    pub fn games(&self) -> f64 {
        self.samples * f64::from(self.games_per_sample)
    }

    /// Mean score per game `mu`, in `[0, 1]`.
    pub fn mean(&self) -> f64 {
        self.mean
    }

    /// Variance `var` of the per-sample score (per game, or per pair with the pair score halved).
    pub fn variance(&self) -> f64 {
        self.variance
    }

    /// Standard error of the mean score, `sqrt(var / N)`.
    pub fn std_error(&self) -> f64 {
        (self.variance / self.samples).sqrt()
    }

    /// Standard deviation of the score of *one game*, as used by normalized Elo:
    /// `sqrt(var)` for trinomial samples and `sqrt(2 var)` for pentanomial ones.
    ///
    /// Why `sqrt(2 var)`: if the two games of a pair were independent with per-game variance
    /// `s^2`, the halved pair score would have variance `s^2 / 2`, so `s = sqrt(2 var)`. The
    /// pentanomial `var` already includes the correlation inside pairs, which is the point of it.
    pub fn per_game_std_dev(&self) -> f64 {
        (f64::from(self.games_per_sample) * self.variance).sqrt()
    }

    /// Per-game t-value `t = (mu - 1/2) / per_game_std_dev()`, the quantity behind normalized Elo.
    ///
    /// With zero variance (every sample identical) it is `0` when `mu = 1/2` (e.g. all draws)
    /// and `+inf` / `-inf` otherwise (e.g. all wins / all losses); never NaN.
    pub(crate) fn t_value(&self) -> f64 {
        let sigma = self.per_game_std_dev();
        let excess = self.mean - 0.5;
        if sigma > 0.0 {
            excess / sigma
        } else if excess > 0.0 {
            f64::INFINITY
        } else if excess < 0.0 {
            f64::NEG_INFINITY
        } else {
            0.0
        }
    }
}
