//! Whether neutral weights move the unit. Each comparison is played with its own neutral
//! weights (N at 400 for N=P+P+P, Q at 1140 for Q=R+R+P) while the pawn-odds match uses
//! the engine's defaults, so every equation's Elo may be on another engine's scale. This
//! check plays the pawn-odds match again under each comparison's weights and tests the
//! Elo of a pawn for one value across all configurations (chi-square of homogeneity).
//! A small p-value, or a spread the figures show, says the per-match weights change the
//! scale; then prefer `--no-neutral` (one configuration for the whole study) or the
//! bracketed values, whose pawns are measured under the comparison's own weights.

use super::calibration::Measure;
use super::matches::{pair_score_elo, per_pawn, slug, Match, MatchResult, Settings};
use crate::maths::chi2;
use crate::values::ValuesError;
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Configuration {
    /// `default`, or the comparison whose neutral weights were used.
    pub weights_of: String,
    pub games: u64,
    /// Elo of one pawn under these weights and its standard error.
    pub elo_per_pawn: Option<f64>,
    pub se: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScaleCheck {
    pub configurations: Vec<Configuration>,
    /// Homogeneity of the measured Elo per pawn (NaN p-value with fewer than two).
    pub chi2: f64,
    pub dof: usize,
    #[serde(serialize_with = "crate::values::support::nan_as_missing")]
    pub p_value: f64,
    /// Largest relative departure of a configuration's Elo per pawn from the defaults'.
    #[serde(serialize_with = "crate::values::support::nan_as_missing")]
    pub largest_shift: f64,
}

/// Chi-square of `measures` about their weighted mean, its degrees of freedom and p-value.
pub fn homogeneity(measures: &[Measure]) -> (f64, usize, f64) {
    let usable: Vec<&Measure> = measures.iter().filter(|m| m.value.is_finite() && m.se > 0.0).collect();
    if usable.len() < 2 {
        return (f64::NAN, 0, f64::NAN);
    }
    let w: Vec<f64> = usable.iter().map(|m| 1.0 / (m.se * m.se)).collect();
    let mean = usable.iter().zip(&w).map(|(m, w)| w * m.value).sum::<f64>() / w.iter().sum::<f64>();
    let chi2: f64 = usable.iter().zip(&w).map(|(m, w)| w * (m.value - mean).powi(2)).sum();
    let dof = usable.len() - 1;
    (chi2, dof, chi2::upper_tail(chi2, dof))
}

/// Plays the pawn-odds match (`matches[0]`) under each distinct configuration of the
/// comparisons (`matches[1..]`) and tests them against the defaults.
pub(super) fn run(
    s: &Settings,
    matches: &[Match],
    pawns: u32,
) -> Result<(ScaleCheck, Vec<std::path::PathBuf>), ValuesError> {
    let cal = &matches[0];
    let measure = |r: &MatchResult| pair_score_elo(r).map(|e| per_pawn(e, pawns));
    let config = |weights_of: String, r: &MatchResult| {
        let e = measure(r);
        Configuration { weights_of, games: r.penta.games(), elo_per_pawn: e.map(|e| e.value), se: e.map(|e| e.se) }
    };
    let mut out = vec![config("default".into(), &cal.result)];
    let mut dirs = vec![];
    let mut seen = vec![cal.result.engine.clone()];
    for m in &matches[1..] {
        let Some(c) = &m.result.comparison else { continue };
        if seen.contains(&m.result.engine) {
            continue;
        }
        seen.push(m.result.engine.clone());
        let result = MatchResult { engine: m.result.engine.clone(), ..cal.result.clone() };
        let mut again =
            Match::new(s, result, cal.removal.clone(), s.play.out.join("scale-check").join(slug(&c.text())))?;
        again.play_to(s, s.max_pairs)?;
        out.push(config(c.text(), &again.result));
        dirs.push(again.dir);
    }
    let measures: Vec<Measure> =
        out.iter().filter_map(|c| Some(Measure { value: c.elo_per_pawn?, se: c.se? })).collect();
    let (chi2, dof, p_value) = homogeneity(&measures);
    let base = out[0].elo_per_pawn;
    let largest_shift =
        out[1..].iter().filter_map(|c| Some(((c.elo_per_pawn? - base?) / base?).abs())).fold(f64::NAN, f64::max);
    Ok((ScaleCheck { configurations: out, chi2, dof, p_value, largest_shift }, dirs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn homogeneity_is_chi2_about_the_weighted_mean() {
        let m = |value, se| Measure { value, se };
        let (c, dof, p) = homogeneity(&[m(50.0, 5.0), m(50.0, 10.0)]);
        assert!(c.abs() < 1e-12 && dof == 1 && (p - 1.0).abs() < 1e-9);
        // 40 and 60 with errors 5: mean 50, chi2 = 4 + 4 = 8 on 1 dof.
        let (c, _, p) = homogeneity(&[m(40.0, 5.0), m(60.0, 5.0)]);
        assert!((c - 8.0).abs() < 1e-9 && p < 0.01);
        assert!(homogeneity(&[m(40.0, 5.0)]).2.is_nan());
    }
}
