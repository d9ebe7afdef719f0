//! Maximum-likelihood outcome distributions under a constraint, the heart of the exact
//! generalized SPRT (Van den Bergh, "Comments on normalized Elo", sections 1 and 4).
//!
//! Given observed frequencies `f_i` of the sample scores `a_i`, the distribution `p` that
//! maximizes the log-likelihood `sum f_i ln p_i` subject to `sum p_i = 1` and one more
//! constraint has, by the Lagrange conditions, the form `p_i = f_i / (1 + theta g_i)` for some
//! function `g` of the constraint; the multiplier `theta` is the single root of
//! `sum f_i g_i / (1 + theta g_i) = 0` for which every `1 + theta g_i` is positive. That
//! function of `theta` falls monotonically from `+inf` to `-inf` between the poles
//! `-1 / max g` and `-1 / min g`, so a bracketing root search finds it.
//!
//! Every frequency must be positive (the SPRT regularizes empty cells first).

use crate::maths::root::decreasing_root;

/// Most cells a distribution here has (pentanomial).
pub(crate) const MAX_CELLS: usize = 5;

/// A discrete distribution over at most [`MAX_CELLS`] scores.
pub(crate) type Dist = [f64; MAX_CELLS];

/// `p_i = f_i / (1 + theta g_i)` for the root `theta`; `None` if `g` does not change sign (no
/// distribution of that form meets the constraint).
fn tilt(freq: &[f64], g: &[f64]) -> Option<Dist> {
    let (min, max) = g.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    if !(min < 0.0 && max > 0.0) {
        return None;
    }
    let slope = |theta: f64| freq.iter().zip(g).map(|(f, g)| f * g / (1.0 + theta * g)).sum::<f64>();
    let theta = decreasing_root(slope, -1.0 / max, -1.0 / min);
    let mut p = [0.0; MAX_CELLS];
    for ((p, f), g) in p.iter_mut().zip(freq).zip(g) {
        *p = f / (1.0 + theta * g);
    }
    let total: f64 = p[..freq.len()].iter().sum();
    if !(total.is_finite() && total > 0.0) || p[..freq.len()].iter().any(|&x| x.is_nan() || x <= 0.0) {
        return None;
    }
    // The root is exact only up to rounding; renormalizing keeps p a distribution.
    p.iter_mut().for_each(|x| *x /= total);
    Some(p)
}

/// The most likely distribution with mean score `s`: the constraint `sum p_i a_i = s` gives
/// `g_i = a_i - s`. `None` unless `s` lies strictly between the smallest and largest score.
pub(crate) fn with_mean(freq: &[f64], scores: &[f64], s: f64) -> Option<Dist> {
    let mut g = [0.0; MAX_CELLS];
    for (g, a) in g.iter_mut().zip(scores) {
        *g = a - s;
    }
    tilt(freq, &g[..freq.len()])
}

/// The most likely distribution with t-value `(mu - 1/2) / sigma = t` (mean and standard
/// deviation of the sample score under `p`).
///
/// The constraint is not linear in `p`, so its gradient depends on `p`: section 4.1 of the
/// notes linearizes it around the current `p`, with
/// `g_i = a_i - 1/2 - t sigma (1 + ((a_i - mu) / sigma)^2) / 2`, and iterates from the uniform
/// distribution until `p` stops moving. `None` if an iteration finds no sign change in `g`
/// (very large `|t|`), or if it does not settle.
pub(crate) fn with_t_value(freq: &[f64], scores: &[f64], t: f64) -> Option<Dist> {
    const TOLERANCE: f64 = 1e-12;
    const MAX_ROUNDS: usize = 10_000;
    let n = freq.len();
    let mut p = [0.0; MAX_CELLS];
    p[..n].iter_mut().for_each(|x| *x = 1.0 / n as f64);
    for _ in 0..MAX_ROUNDS {
        let mu: f64 = p[..n].iter().zip(scores).map(|(p, a)| p * a).sum();
        let var: f64 = p[..n].iter().zip(scores).map(|(p, a)| p * (a - mu) * (a - mu)).sum();
        let sigma = var.sqrt();
        if sigma.is_nan() || sigma <= 0.0 {
            return None;
        }
        let mut g = [0.0; MAX_CELLS];
        for (g, a) in g.iter_mut().zip(scores) {
            let z = (a - mu) / sigma;
            *g = a - 0.5 - 0.5 * t * sigma * (1.0 + z * z);
        }
        let next = tilt(freq, &g[..n])?;
        let moved = next[..n].iter().zip(&p[..n]).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        p = next;
        if moved < TOLERANCE {
            return Some(p);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const PENTA: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

    fn mean_var(p: &Dist, a: &[f64]) -> (f64, f64) {
        let mu: f64 = p.iter().zip(a).map(|(p, a)| p * a).sum();
        (mu, p.iter().zip(a).map(|(p, a)| p * (a - mu) * (a - mu)).sum())
    }

    fn log_lik(f: &[f64], p: &Dist) -> f64 {
        f.iter().zip(p).map(|(f, p)| f * p.ln()).sum()
    }

    #[test]
    fn mean_constraint_is_met_and_beats_nearby_distributions() {
        let f = [0.05, 0.1, 0.4, 0.3, 0.15];
        let p = with_mean(&f, &PENTA, 0.55).unwrap();
        let (mu, _) = mean_var(&p, &PENTA);
        assert!((mu - 0.55).abs() < 1e-12, "{mu}");
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        // Moving mass along a direction that keeps the sum and the mean (second difference
        // [1, -2, 1] on three cells) lowers the likelihood of an optimum.
        for (i, eps) in [(0, 1e-4), (1, -1e-4), (2, 1e-4)] {
            let mut q = p;
            q[i] += eps;
            q[i + 1] -= 2.0 * eps;
            q[i + 2] += eps;
            assert!(log_lik(&f, &q) < log_lik(&f, &p), "direction {i}");
        }
        // At the observed mean the optimum is the observation itself.
        let own = with_mean(&f, &PENTA, 0.6).unwrap();
        for (a, b) in own.iter().zip(&f) {
            assert!((a - b).abs() < 1e-12);
        }
    }

    #[test]
    fn t_value_constraint_is_met() {
        let f = [0.05, 0.1, 0.4, 0.3, 0.15];
        for t in [-0.3, 0.0, 0.02, 0.2] {
            let p = with_t_value(&f, &PENTA, t).unwrap();
            let (mu, var) = mean_var(&p, &PENTA);
            assert!(((mu - 0.5) / var.sqrt() - t).abs() < 1e-9, "t {t}: got {}", (mu - 0.5) / var.sqrt());
        }
    }

    #[test]
    fn impossible_constraints_give_none() {
        let f = [0.5, 0.5];
        assert!(with_mean(&f, &[0.0, 1.0], 1.0).is_none());
        assert!(with_mean(&f, &[0.0, 1.0], -0.1).is_none());
    }
}
