//! The chi-square distribution's upper tail, for goodness-of-fit tests: the p-value of a
//! sum of `dof` squared standardized residuals is `Q(dof / 2, chi2 / 2)`, the regularized
//! upper incomplete gamma function. Below `x < a + 1` its complement is summed as a power
//! series; above, the continued fraction converges fast (the usual split, where each
//! converges in a few dozen terms).

/// A p-value as a page prints it: three decimals, and below 0.001 a bound, since "p =
/// 0.000" would claim an impossible certainty.
pub fn p_text(p: f64) -> String {
    if p < 0.001 {
        "p < 0.001".into()
    } else {
        format!("p = {p:.3}")
    }
}

/// `P(X > x)` for `X ~ chi2(dof)`; NaN for `dof == 0` (no test) or a negative or NaN `x`.
pub fn upper_tail(x: f64, dof: usize) -> f64 {
    if dof == 0 || x.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if x == f64::INFINITY {
        return 0.0;
    }
    let (a, x) = (dof as f64 / 2.0, x / 2.0);
    if x == 0.0 {
        return 1.0;
    }
    // x^a e^-x / Gamma(a), the common factor of both expansions, in logs to avoid overflow.
    let front = (a * x.ln() - x - ln_gamma(a)).exp();
    if x < a + 1.0 {
        // Lower tail: sum_n x^n / (a (a+1) ... (a+n)).
        let (mut term, mut sum, mut n) = (1.0 / a, 1.0 / a, 0.0);
        while term > sum * 1e-16 && n < 1000.0 {
            n += 1.0;
            term *= x / (a + n);
            sum += term;
        }
        (1.0 - front * sum).clamp(0.0, 1.0)
    } else {
        // Upper tail: 1 / (x + 1 - a - 1 (1 - a) / (x + 3 - a - 2 (2 - a) / (x + 5 - a - ...))),
        // evaluated by the modified Lentz method.
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..1000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            d = if d.abs() < tiny { tiny } else { d };
            c = b + an / c;
            c = if c.abs() < tiny { tiny } else { c };
            d = 1.0 / d;
            let step = d * c;
            h *= step;
            if (step - 1.0).abs() < 1e-16 {
                break;
            }
        }
        (front * h).clamp(0.0, 1.0)
    }
}

/// `ln Gamma(a)` for `a > 0` (Lanczos approximation, g = 7, nine terms: about 15 digits).
fn ln_gamma(a: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if a < 0.5 {
        // Reflection: Gamma(a) Gamma(1 - a) = pi / sin(pi a).
        let pi = std::f64::consts::PI;
        return (pi / (pi * a).sin()).ln() - ln_gamma(1.0 - a);
    }
    let a = a - 1.0;
    let t = a + G + 0.5;
    let series = C[1..].iter().enumerate().fold(C[0], |s, (i, c)| s + c / (a + i as f64 + 1.0));
    0.5 * (2.0 * std::f64::consts::PI).ln() + (a + 0.5) * t.ln() - t + series.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_gamma_matches_factorials_and_the_half() {
        for (n, fact) in [(1.0, 1.0), (2.0, 1.0), (5.0, 24.0), (11.0, 3_628_800.0f64)] {
            assert!((ln_gamma(n) - fact.ln()).abs() < 1e-12, "{n}");
        }
        assert!((ln_gamma(0.5) - std::f64::consts::PI.sqrt().ln()).abs() < 1e-12);
    }

    #[test]
    fn a_p_value_too_small_for_three_decimals_is_printed_as_a_bound() {
        // The Grand Chess chain's additivity test: chi2 48.94 on 8 dof.
        assert_eq!(p_text(upper_tail(48.94, 8)), "p < 0.001");
        assert_eq!(p_text(upper_tail(3.841459, 1)), "p = 0.050");
        assert_eq!(p_text(0.001), "p = 0.001");
    }

    #[test]
    fn upper_tail_matches_the_tables() {
        // Two degrees of freedom: exactly exp(-x / 2).
        for x in [0.1, 1.0, 5.991, 20.0] {
            assert!((upper_tail(x, 2) - (-x / 2.0f64).exp()).abs() < 1e-12, "{x}");
        }
        // 95 % points of the chi-square tables (1, 4, 10 and 30 dof) and a 99 % point.
        for (x, dof, p) in [(3.841459, 1, 0.05), (9.487729, 4, 0.05), (18.307038, 10, 0.05), (43.772972, 30, 0.05)] {
            assert!((upper_tail(x, dof) - p).abs() < 1e-6, "{x} on {dof}: {}", upper_tail(x, dof));
        }
        assert!((upper_tail(6.634897, 1) - 0.01).abs() < 1e-6);
        assert_eq!(upper_tail(0.0, 3), 1.0);
        assert!(upper_tail(1.0, 0).is_nan() && upper_tail(-1.0, 2).is_nan());
    }
}
