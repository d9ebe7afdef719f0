//! Game-pair counts of a match (the pentanomial model).

use std::ops::{Add, AddAssign};

use super::elo;
use super::interval::elo_figures;
use super::sample::ScoreSample;
use super::wdl::GameResult;

/// Counts of game pairs by the first player's total score in the pair (out of 2).
///
/// A pair is two games from the same opening with colours swapped. Its score is 0 (`ll`: two
/// losses), 1/2 (`ld`: a loss and a draw), 1 (`dd_wl`: two draws, or a win and a loss),
/// 3/2 (`wd`: a win and a draw) or 2 (`ww`: two wins). Modelling pairs rather than games
/// captures the correlation between the two games of a pair, which makes the variance estimate,
/// hence every error bar and the SPRT, sharper and more honest than the trinomial one.
///
/// Ratios over the number of pairs are `None` when no pair was played, Elo figures are `None`
/// (or say why in [`Pentanomial::elo_interval`]) when the pairs do not support an interval;
/// counts saturate at `u64::MAX` instead of overflowing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pentanomial {
    pub ll: u64,
    pub ld: u64,
    pub dd_wl: u64,
    pub wd: u64,
    pub ww: u64,
}

elo_figures!(Pentanomial);

impl Pentanomial {
    /// Counts as given, in increasing order of pair score (0, 1/2, 1, 3/2, 2).
    pub fn new(ll: u64, ld: u64, dd_wl: u64, wd: u64, ww: u64) -> Self {
        Self { ll, ld, dd_wl, wd, ww }
    }

    /// Counts of a list of pairs; each pair holds the first player's result in both games
    /// (in either order: `(Win, Loss)` and `(Loss, Win)` both count as `dd_wl`).
    pub fn from_pairs<I: IntoIterator<Item = (GameResult, GameResult)>>(pairs: I) -> Self {
        let mut penta = Self::default();
        for (first, second) in pairs {
            penta.record(first, second);
        }
        penta
    }

    /// Adds one pair (the first player's results in its two games).
    pub fn record(&mut self, first: GameResult, second: GameResult) {
        let count = match first.half_points() + second.half_points() {
            0 => &mut self.ll,
            1 => &mut self.ld,
            2 => &mut self.dd_wl,
            3 => &mut self.wd,
            _ => &mut self.ww,
        };
        *count = count.saturating_add(1);
    }

    /// The same match from the second player's point of view (`ll` <-> `ww`, `ld` <-> `wd`).
    pub fn flipped(self) -> Self {
        Self { ll: self.ww, ld: self.wd, dd_wl: self.dd_wl, wd: self.ld, ww: self.ll }
    }

    /// Counts in increasing order of pair score: `[ll, ld, dd_wl, wd, ww]`.
    pub fn counts(&self) -> [u64; 5] {
        [self.ll, self.ld, self.dd_wl, self.wd, self.ww]
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts().iter().fold(0u64, |acc, &c| acc.saturating_add(c))
    }

    /// Number of games, twice the number of pairs.
    pub fn games(&self) -> u64 {
        self.pairs().saturating_mul(2)
    }

    /// Points scored, `ld/2 + dd_wl + 3 wd/2 + 2 ww`.
    pub fn points(&self) -> f64 {
        0.5 * self.ld as f64 + self.dd_wl as f64 + 1.5 * self.wd as f64 + 2.0 * self.ww as f64
    }

    /// Score fraction per game, `points / (2 * pairs)`; `None` without pairs.
    pub fn score(&self) -> Option<f64> {
        self.sample().map(|s| s.mean())
    }

    /// Fraction of pairs whose total is exactly even, `dd_wl / pairs` (what fastchess prints as
    /// the draw ratio in pentanomial mode). It is a pair-level figure: a WL pair counts as even
    /// although neither game was drawn. `None` without pairs.
    pub fn draw_ratio(&self) -> Option<f64> {
        let pairs = self.pairs();
        (pairs > 0).then(|| self.dd_wl as f64 / pairs as f64)
    }

    /// Per-pair score distribution, the pair score halved to `[0, 1]` (values 0, 1/4, 1/2, 3/4,
    /// 1); `None` without pairs.
    pub fn sample(&self) -> Option<ScoreSample> {
        ScoreSample::from_counts(&self.float_counts(), 2)
    }

    /// Likelihood of superiority from the normal approximation of the mean pair score:
    /// `LOS = Phi((mu - 1/2) / sqrt(var_pair / pairs))` (see [`elo::los`]). `0.5` without pairs.
    pub fn los(&self) -> f64 {
        self.sample().map_or(0.5, |s| elo::los(&s))
    }

    pub(crate) fn float_counts(&self) -> [f64; 5] {
        self.counts().map(|c| c as f64)
    }
}

impl AddAssign for Pentanomial {
    fn add_assign(&mut self, rhs: Self) {
        self.ll = self.ll.saturating_add(rhs.ll);
        self.ld = self.ld.saturating_add(rhs.ld);
        self.dd_wl = self.dd_wl.saturating_add(rhs.dd_wl);
        self.wd = self.wd.saturating_add(rhs.wd);
        self.ww = self.ww.saturating_add(rhs.ww);
    }
}

impl Add for Pentanomial {
    type Output = Self;

    fn add(mut self, rhs: Self) -> Self {
        self += rhs;
        self
    }
}
