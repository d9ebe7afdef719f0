//! Standard normal distribution: cumulative distribution function and its inverse.
//!
//! Every confidence interval and LOS figure in this module tree is a normal approximation, so
//! these two functions are the only special functions needed. They are implemented here with
//! `std` only:
//!
//! * `Phi(x) = erfc(-x / sqrt 2) / 2`, with `erfc` from its Maclaurin series for small
//!   arguments and from its Laplace continued fraction in the tails, where the series would
//!   lose precision. The result has close to full `f64` accuracy, including far into the tails.
//! * `Phi^-1(p)` by bisection on `Phi`, which is monotone, so it cannot fail to converge.

use std::f64::consts::PI;

/// Where [`erfc`] switches from the series (below) to the continued fraction (at and above).
const SERIES_LIMIT: f64 = 2.5;

/// Complementary error function `erfc(x) = 1 - erf(x) = 2/sqrt(pi) * integral_x^inf exp(-t^2) dt`.
///
/// * `|x| < 2.5`: `erf(x) = 2/sqrt(pi) * sum_n (-1)^n x^(2n+1) / (n! (2n+1))`.
/// * `x >= 2.5`: `erfc(x) = exp(-x^2)/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...)))))`,
///   the partial numerators being `n/2`, evaluated with the modified Lentz method.
/// * `x <= -2.5`: `erfc(x) = 2 - erfc(-x)`.
fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    if x < SERIES_LIMIT {
        return 1.0 - erf_series(x);
    }
    erfc_continued_fraction(x)
}

/// Maclaurin series of `erf`, accurate to about 1e-15 absolute for `|x| < 2.5`.
fn erf_series(x: f64) -> f64 {
    let x2 = x * x;
    // term = (-1)^n x^(2n+1) / n!
    let mut term = x;
    let mut sum = x;
    for n in 1..200u32 {
        term *= -x2 / f64::from(n);
        let contribution = term / f64::from(2 * n + 1);
        sum += contribution;
        if contribution.abs() <= 1e-17 * sum.abs() {
            break;
        }
    }
    sum * 2.0 / PI.sqrt()
}

/// Laplace continued fraction of `erfc` for `x >= 2.5` (modified Lentz evaluation).
fn erfc_continued_fraction(x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    // f = x + a1/(x + a2/(x + ...)), a_n = n/2.
    let mut f = x;
    let mut c = x;
    let mut d = 0.0;
    for n in 1..500u32 {
        let a = f64::from(n) * 0.5;
        d = x + a * d;
        if d == 0.0 {
            d = TINY;
        }
        d = 1.0 / d;
        c = x + a / c;
        if c == 0.0 {
            c = TINY;
        }
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    (-x * x).exp() / (f * PI.sqrt())
}

/// Cumulative distribution function of the standard normal law, `Phi(x) = P(Z <= x)`.
///
/// `Phi(x) = erfc(-x / sqrt 2) / 2`. `Phi(-inf) = 0`, `Phi(+inf) = 1`; only a NaN argument gives
/// NaN.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// Quantile function of the standard normal law: the `x` with `Phi(x) = p`.
///
/// Solved by bisection on [`normal_cdf`] over `[-38, 38]` (beyond which `Phi` is 0 or 1 in
/// `f64`). `p <= 0` gives `-inf`, `p >= 1` gives `+inf`, NaN gives NaN.
/// Example: `normal_quantile(0.975) = 1.959964...`, the familiar 95 % two-sided z-value.
pub fn normal_quantile(p: f64) -> f64 {
    if p.is_nan() {
        return f64::NAN;
    }
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    let (mut lo, mut hi) = (-38.0_f64, 38.0_f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if normal_cdf(mid) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Two-sided z-value of a confidence level: `Phi^-1((1 + confidence) / 2)`.
///
/// `confidence` is clamped to `[0, 1]`: 0 gives a zero-width interval (z = 0), 1 an unbounded
/// one (z = +inf). NaN gives NaN.
pub(crate) fn two_sided_z(confidence: f64) -> f64 {
    if confidence.is_nan() {
        return f64::NAN;
    }
    normal_quantile(0.5 + 0.5 * confidence.clamp(0.0, 1.0)).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erfc_matches_reference_values() {
        // Reference values of erfc from the C library (Python's math.erfc).
        let cases = [
            (0.0, 1.0),
            (0.5, 0.4795001221869535),
            (1.0, 0.15729920705028513),
            (2.0, 0.004677734981047265),
            (2.5, 0.0004069520174449589),
            (3.0, 2.2090496998585438e-05),
            (5.0, 1.5374597944280351e-12),
            (-1.0, 1.842700792949715),
        ];
        for (x, want) in cases {
            let got = erfc(x);
            assert!(((got - want) / want).abs() < 1e-12, "erfc({x}) = {got}, want {want}");
        }
    }

    #[test]
    fn quantile_inverts_cdf() {
        for p in [1e-10, 0.001, 0.025, 0.3, 0.5, 0.8, 0.975, 0.999_999] {
            let x = normal_quantile(p);
            assert!((normal_cdf(x) - p).abs() < 1e-15 + 1e-12 * p, "p = {p}");
        }
        assert!((normal_quantile(0.975) - 1.959963984540054).abs() < 1e-12);
        assert_eq!(normal_quantile(0.0), f64::NEG_INFINITY);
        assert_eq!(normal_quantile(1.0), f64::INFINITY);
        assert_eq!(two_sided_z(1.0), f64::INFINITY);
        assert_eq!(two_sided_z(0.0), 0.0);
    }
}
