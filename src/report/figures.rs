//! Figures computed from a run directory's games: balance, game length, terminations.
//! Every figure carries its sample size and 95 % interval.

use crate::stats::{normal_quantile, score_to_elo};
use crate::tournament::output::GameRow;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// JSON has no NaN or infinity: serde_json writes them as `null`, read back as NaN.
pub use crate::values::support::missing_as_nan as nan_if_null;

/// Equal when every field is equal or both are NaN (NaN stands for "not enough data", and
/// two figures that both lack data are the same record).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Interval {
    #[serde(deserialize_with = "nan_if_null")]
    pub value: f64,
    #[serde(deserialize_with = "nan_if_null")]
    pub low: f64,
    #[serde(deserialize_with = "nan_if_null")]
    pub high: f64,
}

impl PartialEq for Interval {
    fn eq(&self, other: &Interval) -> bool {
        let same = |a: f64, b: f64| a == b || (a.is_nan() && b.is_nan());
        same(self.value, other.value) && same(self.low, other.low) && same(self.high, other.high)
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Balance {
    pub label: String,
    pub nodes: u64,
    pub games: u64,
    /// White's mean score.
    pub white_score: Interval,
    /// White's advantage in Elo (logistic transform of the score interval).
    pub white_elo: Interval,
    pub draw_rate: Interval,
    /// NaN (null in JSON) with too few games, like the intervals.
    #[serde(deserialize_with = "nan_if_null")]
    pub decisive_rate: f64,
    /// Distinct openings among the games: the intervals' unit. Absent in reports written
    /// before it was recorded, whose intervals took the game pair as the unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<u64>,
}

/// Equal as [`Interval`] is: NaN figures (not enough data) equal each other.
impl PartialEq for Balance {
    fn eq(&self, o: &Balance) -> bool {
        let rate = |a: f64, b: f64| a == b || (a.is_nan() && b.is_nan());
        (&self.label, self.nodes, self.games, &self.white_score, &self.white_elo, &self.draw_rate, self.openings)
            == (&o.label, o.nodes, o.games, &o.white_score, &o.white_elo, &o.draw_rate, o.openings)
            && rate(self.decisive_rate, o.decisive_rate)
    }
}

impl Interval {
    pub const UNDEFINED: Interval = Interval { value: f64::NAN, low: f64::NAN, high: f64::NAN };

    pub fn is_defined(&self) -> bool {
        self.value.is_finite() && self.low.is_finite() && self.high.is_finite()
    }

    /// `value,low,high` for a CSV row with `digits` decimals: empty fields when undefined.
    pub fn csv(&self, digits: usize) -> String {
        if self.is_defined() {
            format!("{:.digits$},{:.digits$},{:.digits$}", self.value, self.low, self.high)
        } else {
            ",,".into()
        }
    }
}

/// Mean with a 95 % interval over clusters (the games from one opening are not
/// independent, so the opening is the unit of resampling). Undefined (NaN) below
/// [`MIN_GAMES`](crate::stats::interval::MIN_GAMES) games or with one cluster: a spread
/// measured from a handful of pairs is itself a guess, so the pages print "not enough
/// data" instead.
///
/// The interval is Wilson's on the effective sample size (the binomial sample with the
/// same variance of the mean), as `stats` does for Elo: it stays inside [0, 1] without
/// clamping and is never zero-width. When every cluster has the same mean the spread is
/// measured as zero, which the data cannot show; the games then count as independent
/// trials, whose variance p(1-p) bounds that of any score in [0, 1].
fn clustered_mean<K>(values_by_cluster: &BTreeMap<K, Vec<f64>>) -> Interval {
    let means: Vec<f64> = values_by_cluster.values().map(|v| v.iter().sum::<f64>() / v.len() as f64).collect();
    let weights: Vec<f64> = values_by_cluster.values().map(|v| v.len() as f64).collect();
    let n = means.len() as f64;
    let total: f64 = weights.iter().sum();
    if (total as u64) < crate::stats::interval::MIN_GAMES || means.len() < 2 {
        return Interval::UNDEFINED;
    }
    let mean = means.iter().zip(&weights).map(|(m, w)| m * w).sum::<f64>() / total;
    let var_of_mean =
        means.iter().zip(&weights).map(|(m, w)| w * w * (m - mean).powi(2)).sum::<f64>() / (total * total) * n
            / (n - 1.0);
    let binomial = mean * (1.0 - mean);
    // Without a measured spread, one pair's worth of games per cluster: a cluster of many
    // replayed games is no more than one opening played with both colours.
    let n_eff = if var_of_mean > 1e-15 && binomial > 0.0 { binomial / var_of_mean } else { total.min(2.0 * n) };
    let (low, high) = crate::stats::interval::wilson(mean, n_eff, normal_quantile(0.975));
    Interval { value: mean, low, high }
}

pub fn balance(label: &str, nodes: u64, games: &[GameRow]) -> Balance {
    // The cluster is the opening, not the pair: at a fixed node budget a repeated opening
    // replays the same games, which are one observation, not many. Openings drawn near the
    // engine's best moves are distinct since `tournament::book`, but folders played before
    // it repeat them (chess at a 25-centipawn margin: 258 distinct in 2,000 pairs). Rows
    // without an opening fall back to their pair.
    let mut score: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let mut draws: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for g in games {
        if let Some(w) = g.white_score() {
            let key = if g.opening.is_empty() { format!("pair {}", g.pair_id) } else { g.opening.clone() };
            score.entry(key.clone()).or_default().push(w);
            draws.entry(key).or_default().push(if w == 0.5 { 1.0 } else { 0.0 });
        }
    }
    let s = clustered_mean(&score);
    let d = clustered_mean(&draws);
    let n: u64 = score.values().map(|v| v.len() as u64).sum();
    // A score interval that reaches 0 or 1 has no finite Elo end: NaN, which the pages
    // print as not enough data (so is an undefined score: NaN fails both comparisons).
    let supported = s.low > 0.0 && s.high < 1.0;
    let elo = |x: f64| if supported { score_to_elo(x) } else { f64::NAN };
    Balance {
        label: label.into(),
        nodes,
        games: n,
        white_elo: Interval { value: elo(s.value), low: elo(s.low), high: elo(s.high) },
        white_score: s,
        decisive_rate: 1.0 - d.value,
        draw_rate: d,
        openings: Some(score.len() as u64),
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Lengths {
    pub bin_width: u32,
    /// (first ply of the bin, games).
    pub bins: Vec<(u32, u64)>,
    pub mean: f64,
    pub median: u32,
}

pub fn lengths(games: &[GameRow]) -> Lengths {
    let mut plies: Vec<u32> = games.iter().map(|g| g.plies).collect();
    plies.sort_unstable();
    let max = plies.last().copied().unwrap_or(0);
    let bin_width = ((max / 12).max(1) as f64 / 10.0).ceil() as u32 * 10;
    let mut bins: BTreeMap<u32, u64> = (0..=max / bin_width).map(|b| (b * bin_width, 0)).collect();
    if plies.is_empty() {
        bins.clear();
    }
    for &p in &plies {
        *bins.entry(p / bin_width * bin_width).or_default() += 1;
    }
    Lengths {
        bin_width,
        bins: bins.into_iter().collect(),
        mean: plies.iter().map(|&p| p as f64).sum::<f64>() / plies.len().max(1) as f64,
        median: plies.get(plies.len() / 2).copied().unwrap_or(0),
    }
}

pub fn terminations(games: &[GameRow]) -> BTreeMap<String, u64> {
    let mut t = BTreeMap::new();
    for g in games {
        *t.entry(g.termination.clone()).or_default() += 1;
    }
    t
}
