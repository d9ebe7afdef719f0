//! Figures computed from a run directory's games: balance, game length, terminations.
//! Every figure carries its sample size and 95 % interval.

use crate::stats::{normal_quantile, score_to_elo};
use crate::tournament::output::GameRow;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// JSON has no NaN or infinity: serde_json writes them as `null`, read back as NaN.
pub fn nan_if_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
}

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

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Balance {
    pub label: String,
    pub nodes: u64,
    pub games: u64,
    /// White's mean score.
    pub white_score: Interval,
    /// White's advantage in Elo (logistic transform of the score interval).
    pub white_elo: Interval,
    pub draw_rate: Interval,
    pub decisive_rate: f64,
}

/// Mean with a 95 % interval over clusters (game pairs share an opening and are not
/// independent, so the pair is the unit of resampling).
fn clustered_mean(values_by_cluster: &BTreeMap<u64, Vec<f64>>) -> Interval {
    let means: Vec<f64> = values_by_cluster.values().map(|v| v.iter().sum::<f64>() / v.len() as f64).collect();
    let weights: Vec<f64> = values_by_cluster.values().map(|v| v.len() as f64).collect();
    let n = means.len() as f64;
    let total: f64 = weights.iter().sum();
    if total == 0.0 {
        return Interval { value: f64::NAN, low: f64::NAN, high: f64::NAN };
    }
    let mean = means.iter().zip(&weights).map(|(m, w)| m * w).sum::<f64>() / total;
    let var = if n > 1.0 {
        means.iter().zip(&weights).map(|(m, w)| w * w * (m - mean).powi(2)).sum::<f64>() / (total * total) * n
            / (n - 1.0)
    } else {
        0.0
    };
    let z = normal_quantile(0.975);
    // Scores and rates live in [0, 1]; so do their intervals.
    Interval { value: mean, low: (mean - z * var.sqrt()).max(0.0), high: (mean + z * var.sqrt()).min(1.0) }
}

pub fn balance(label: &str, nodes: u64, games: &[GameRow]) -> Balance {
    let mut score: BTreeMap<u64, Vec<f64>> = BTreeMap::new();
    let mut draws: BTreeMap<u64, Vec<f64>> = BTreeMap::new();
    for g in games {
        if let Some(w) = g.white_score() {
            score.entry(g.pair_id).or_default().push(w);
            draws.entry(g.pair_id).or_default().push(if w == 0.5 { 1.0 } else { 0.0 });
        }
    }
    let s = clustered_mean(&score);
    let d = clustered_mean(&draws);
    let n: u64 = score.values().map(|v| v.len() as u64).sum();
    // A score interval that reaches 0 or 1 has no finite Elo end, and below MIN_GAMES the
    // spread itself is a guess: NaN, which the pages print as not enough data.
    let supported = n >= crate::stats::interval::MIN_GAMES && s.low > 0.0 && s.high < 1.0;
    let elo = |x: f64| if supported { score_to_elo(x) } else { f64::NAN };
    Balance {
        label: label.into(),
        nodes,
        games: n,
        white_elo: Interval { value: elo(s.value), low: elo(s.low), high: elo(s.high) },
        white_score: s,
        decisive_rate: 1.0 - d.value,
        draw_rate: d,
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
