//! The nonparametric bootstrap over games: each replicate draws as many games as there
//! are, with replacement, and refits. Positions of one game share its result, so games
//! (not positions) are the independent units to resample. Every replicate has its own
//! generator derived from the seed and the replicate number, so the result does not
//! depend on how rayon schedules the replicates.

use crate::rng::Rng;
use rayon::prelude::*;

/// Multiplicity of each of `n` games in replicate `r`.
pub fn resample(n: usize, seed: u64, r: usize) -> Vec<f64> {
    let mut rng = Rng::new(seed ^ (r as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03));
    let mut w = vec![0.0; n];
    for _ in 0..n {
        w[rng.below(n)] += 1.0;
    }
    w
}

/// Runs `replicates` refits of `fit` (given game multiplicities) in parallel. Replicates
/// whose fit fails (a resample without any variation of some piece, say) are counted,
/// not returned.
pub fn run<T: Send>(
    n: usize,
    replicates: usize,
    seed: u64,
    fit: impl Fn(&[f64]) -> Option<T> + Sync,
) -> (Vec<T>, usize) {
    let results: Vec<Option<T>> = (0..replicates).into_par_iter().map(|r| fit(&resample(n, seed, r))).collect();
    let failed = results.iter().filter(|r| r.is_none()).count();
    (results.into_iter().flatten().collect(), failed)
}

/// The `q`-quantile of a sample (linear interpolation between order statistics).
pub fn quantile(values: &[f64], q: f64) -> f64 {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| !x.is_nan()).collect();
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(|a, b| a.partial_cmp(b).expect("NaN filtered"));
    let pos = q.clamp(0.0, 1.0) * (v.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    v[lo] + (v[hi] - v[lo]) * (pos - lo as f64)
}

/// Percentile interval `[q(2.5 %), q(97.5 %)]` and the standard deviation.
pub fn percentile_95(values: &[f64]) -> (f64, f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let sd = (values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
    (quantile(values, 0.025), quantile(values, 0.975), sd)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resamples_have_the_right_size_and_depend_on_the_seed() {
        let a = resample(50, 7, 0);
        assert_eq!(a.iter().sum::<f64>(), 50.0);
        assert_eq!(a, resample(50, 7, 0));
        assert_ne!(a, resample(50, 7, 1));
        assert_ne!(a, resample(50, 8, 0));
    }

    #[test]
    fn quantiles_interpolate() {
        let v = [3.0, 1.0, 2.0, 4.0, 5.0];
        assert_eq!(quantile(&v, 0.0), 1.0);
        assert_eq!(quantile(&v, 0.5), 3.0);
        assert_eq!(quantile(&v, 0.125), 1.5);
        assert_eq!(quantile(&v, 1.0), 5.0);
    }

    #[test]
    fn bootstrap_of_a_mean_matches_its_standard_error() {
        // Games scoring 0 or 1 with p = 0.3: the bootstrap sd of the mean is sqrt(p(1-p)/n).
        let data: Vec<f64> = (0..1000).map(|i| if i % 10 < 3 { 1.0 } else { 0.0 }).collect();
        let (means, failed) =
            run(data.len(), 400, 1, |w| Some(w.iter().zip(&data).map(|(w, x)| w * x).sum::<f64>() / data.len() as f64));
        assert_eq!(failed, 0);
        let (_, _, sd) = percentile_95(&means);
        let expect = (0.3f64 * 0.7 / 1000.0).sqrt();
        assert!((sd / expect - 1.0).abs() < 0.15, "{sd} vs {expect}");
    }
}
