//! Win/draw/loss counts of a match (the trinomial model).

use std::ops::{Add, AddAssign};

use super::interval::elo_figures;
use super::normal::normal_cdf;
use super::sample::ScoreSample;

/// Result of one game from the point of view of the first player (the engine under test).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    Win,
    Draw,
    Loss,
}

impl GameResult {
    /// Points scored: 1 for a win, 1/2 for a draw, 0 for a loss.
    pub fn score(self) -> f64 {
        f64::from(self.half_points()) / 2.0
    }

    /// Points scored in half points: 2, 1 or 0 (exact integer form of [`GameResult::score`]).
    pub fn half_points(self) -> u8 {
        match self {
            GameResult::Win => 2,
            GameResult::Draw => 1,
            GameResult::Loss => 0,
        }
    }

    /// The same game seen from the other player: a win becomes a loss and vice versa.
    pub fn flipped(self) -> Self {
        match self {
            GameResult::Win => GameResult::Loss,
            GameResult::Draw => GameResult::Draw,
            GameResult::Loss => GameResult::Win,
        }
    }
}

/// Wins, draws and losses of the first player.
///
/// Each game is one sample scoring 1, 1/2 or 0. Ratios over the number of games
/// ([`Wdl::score`], [`Wdl::draw_ratio`]) are `None` when no game was played, Elo figures are
/// `None` (or say why in [`Wdl::elo_interval`]) when the games do not support an interval; counts saturate at `u64::MAX` instead of overflowing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

elo_figures!(Wdl);

impl Wdl {
    /// Counts as given.
    pub fn new(wins: u64, draws: u64, losses: u64) -> Self {
        Self { wins, draws, losses }
    }

    /// Counts of a list of game results.
    pub fn from_results<I: IntoIterator<Item = GameResult>>(results: I) -> Self {
        let mut wdl = Self::default();
        for result in results {
            wdl.record(result);
        }
        wdl
    }

    /// Adds one game.
    pub fn record(&mut self, result: GameResult) {
        let count = match result {
            GameResult::Win => &mut self.wins,
            GameResult::Draw => &mut self.draws,
            GameResult::Loss => &mut self.losses,
        };
        *count = count.saturating_add(1);
    }

    /// The same match from the second player's point of view (wins and losses swapped).
    pub fn flipped(self) -> Self {
        Self { wins: self.losses, draws: self.draws, losses: self.wins }
    }

    /// Number of games `W + D + L`.
    pub fn games(&self) -> u64 {
        self.wins.saturating_add(self.draws).saturating_add(self.losses)
    }

    /// Points scored, `W + D/2`.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Score fraction `(W + D/2) / (W + D + L)`; `None` without games.
    pub fn score(&self) -> Option<f64> {
        self.sample().map(|s| s.mean())
    }

    /// Draw ratio `D / (W + D + L)`; `None` without games.
    pub fn draw_ratio(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| self.draws as f64 / games as f64)
    }

    /// Per-game score distribution (values 0, 1/2, 1 with frequencies L, D, W); `None` without
    /// games.
    pub fn sample(&self) -> Option<ScoreSample> {
        ScoreSample::from_counts(&self.float_counts(), 1)
    }

    /// Likelihood of superiority, the probability that the first player is the stronger one:
    ///
    /// ```text
    /// LOS = Phi((W - L) / sqrt(W + L))
    /// ```
    ///
    /// Why: draws carry no information about which side is stronger. Conditioned on the
    /// `n = W + L` decisive games, `W` is binomial(n, p); under `p = 1/2` its mean is `n/2` and
    /// variance `n/4`, so `(W - n/2) / sqrt(n/4) = (W - L) / sqrt(W + L)` is approximately
    /// standard normal. Without decisive games there is no evidence either way and the result
    /// is exactly `0.5`.
    pub fn los(&self) -> f64 {
        let decisive = self.wins as f64 + self.losses as f64;
        if decisive > 0.0 {
            normal_cdf((self.wins as f64 - self.losses as f64) / decisive.sqrt())
        } else {
            0.5
        }
    }

    /// Counts ordered by score, `[L, D, W]`.
    pub(crate) fn float_counts(&self) -> [f64; 3] {
        [self.losses as f64, self.draws as f64, self.wins as f64]
    }
}

impl AddAssign for Wdl {
    fn add_assign(&mut self, rhs: Self) {
        self.wins = self.wins.saturating_add(rhs.wins);
        self.draws = self.draws.saturating_add(rhs.draws);
        self.losses = self.losses.saturating_add(rhs.losses);
    }
}

impl Add for Wdl {
    type Output = Self;

    fn add(mut self, rhs: Self) -> Self {
        self += rhs;
        self
    }
}
