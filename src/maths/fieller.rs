//! Confidence sets for a ratio of two estimates, `num / den`, by Fieller's theorem (Fieller
//! 1954). A piece value in pawns is such a ratio (a piece's coefficient or Elo over the
//! pawn's), and its honest confidence set is bounded only when the denominator is clearly
//! away from zero: the set of ratios `r` that the data cannot reject is
//!
//! ```text
//! (num - r den)^2 <= z^2 (v_nn - 2 r v_nd + r^2 v_dd)
//! ```
//!
//! a quadratic inequality in `r`. When `den^2 / v_dd > z^2` (Fieller's condition: the
//! denominator is significantly non-zero) it holds on a closed interval around
//! `num / den`; otherwise on the whole line or its complement of an interval, and no
//! finite interval is a 95 % confidence set. The delta method's symmetric interval
//! ignores this and under-covers on the side where the denominator could be small.

/// Two jointly (approximately) normal estimates and their covariance matrix.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatioInput {
    pub num: f64,
    pub den: f64,
    pub var_num: f64,
    pub var_den: f64,
    pub cov: f64,
}

/// The confidence set of `num / den` at the two-sided normal quantile `z`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ratio {
    /// A closed interval holding the point estimate; `se` is the delta-method standard
    /// error, kept as a summary of precision, not used for the ends.
    Bounded { value: f64, low: f64, high: f64, se: f64 },
    /// The denominator is not significantly non-zero (or the input is not finite): every
    /// large ratio is compatible with the data, so there is no figure to give.
    Unbounded {
        /// `den / sd(den)`, the denominator's z statistic, to say how far from the
        /// condition the data are (NaN without a finite variance).
        den_z: f64,
    },
}

pub fn ratio(p: RatioInput, z: f64) -> Ratio {
    let den_z = if p.var_den > 0.0 { p.den / p.var_den.sqrt() } else { f64::NAN };
    let finite = [p.num, p.den, p.var_num, p.var_den, p.cov].iter().all(|x| x.is_finite());
    let z2 = z * z;
    let a = p.den * p.den - z2 * p.var_den;
    // `a > 0` is Fieller's condition; a zero denominator with no variance is not a ratio.
    if !finite || p.var_num < 0.0 || p.var_den < 0.0 || a.is_nan() || a <= 0.0 {
        return Ratio::Unbounded { den_z };
    }
    let value = p.num / p.den;
    let b = p.num * p.den - z2 * p.cov;
    let c = p.num * p.num - z2 * p.var_num;
    // The quadratic is <= 0 at the point estimate (there it equals minus z^2 times a
    // variance), so the discriminant is not negative; rounding may make it a hair below.
    let root = (b * b - a * c).max(0.0).sqrt();
    let (r1, r2) = ((b - root) / a, (b + root) / a);
    let var = (p.var_num - 2.0 * value * p.cov + value * value * p.var_den).max(0.0) / (p.den * p.den);
    // Rounding can leave the point a hair outside a zero-width interval.
    Ratio::Bounded { value, low: r1.min(value), high: r2.max(value), se: var.sqrt() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    const Z: f64 = 1.959963984540054;

    fn input(num: f64, den: f64, sn: f64, sd: f64, rho: f64) -> RatioInput {
        RatioInput { num, den, var_num: sn * sn, var_den: sd * sd, cov: rho * sn * sd }
    }

    #[test]
    fn exact_denominator_gives_the_numerators_interval_scaled() {
        // With no error in the denominator the set is num/den ± z sd(num)/den exactly.
        let Ratio::Bounded { value, low, high, se } = ratio(input(30.0, 10.0, 2.0, 0.0, 0.0), Z) else {
            panic!("bounded")
        };
        assert!((value - 3.0).abs() < 1e-12);
        assert!((low - (3.0 - Z * 0.2)).abs() < 1e-12 && (high - (3.0 + Z * 0.2)).abs() < 1e-12);
        assert!((se - 0.2).abs() < 1e-12);
    }

    #[test]
    fn the_ends_solve_the_fieller_equation_and_lean_away_from_zero() {
        let p = input(30.0, 10.0, 3.0, 2.0, 0.3);
        let Ratio::Bounded { value, low, high, .. } = ratio(p, Z) else { panic!("bounded") };
        let g = |r: f64| (p.num - r * p.den).powi(2) - Z * Z * (p.var_num - 2.0 * r * p.cov + r * r * p.var_den);
        assert!(g(low).abs() < 1e-6 && g(high).abs() < 1e-6, "{} {}", g(low), g(high));
        assert!(low < value && value < high);
        // A noisy denominator stretches the side where it could be small: the upper end.
        assert!(high - value > value - low, "[{low}, {high}] around {value}");
    }

    #[test]
    fn an_insignificant_denominator_has_no_bounded_interval() {
        // den / sd(den) = 1.5 < 1.96.
        assert_eq!(ratio(input(30.0, 3.0, 1.0, 2.0, 0.0), Z), Ratio::Unbounded { den_z: 1.5 });
        assert!(matches!(ratio(input(30.0, -3.0, 1.0, 2.0, 0.0), Z), Ratio::Unbounded { .. }));
        assert!(matches!(ratio(input(f64::NAN, 3.0, 1.0, 0.1, 0.0), Z), Ratio::Unbounded { .. }));
        assert!(matches!(ratio(input(1.0, 0.0, 1.0, 0.0, 0.0), Z), Ratio::Unbounded { .. }));
        // Just past the condition the interval is bounded, however wide.
        assert!(matches!(ratio(input(30.0, 3.0, 1.0, 1.5, 0.0), Z), Ratio::Bounded { .. }));
    }

    fn normal(rng: &mut Rng) -> f64 {
        // Box-Muller from two uniforms in (0, 1].
        let u = |rng: &mut Rng| ((rng.next_u64() >> 11) as f64 + 1.0) / (1u64 << 53) as f64;
        let (a, b) = (u(rng), u(rng));
        (-2.0 * a.ln()).sqrt() * (std::f64::consts::TAU * b).cos()
    }

    /// Misses of `runs` simulated Fieller sets for a true ratio of 3 and a denominator
    /// `den_over_sd` standard errors from zero: (below, above, unbounded, set misses,
    /// delta-method misses below, above).
    fn simulate(den_over_sd: f64, runs: usize) -> [usize; 6] {
        let (sn, sd) = (1.0, 1.0);
        let den = den_over_sd * sd;
        let (num, truth) = (3.0 * den, 3.0);
        let mut rng = Rng::new(17);
        let mut out = [0; 6];
        for _ in 0..runs {
            let p = input(num + sn * normal(&mut rng), den + sd * normal(&mut rng), sn, sd, 0.0);
            // Whether the truth is in the set, from the defining inequality itself.
            let g = (p.num - truth * p.den).powi(2) - Z * Z * (p.var_num + truth * truth * p.var_den);
            out[3] += usize::from(g > 0.0);
            match ratio(p, Z) {
                Ratio::Bounded { value, low, high, se } => {
                    out[0] += usize::from(high < truth);
                    out[1] += usize::from(low > truth);
                    out[4] += usize::from(value + Z * se < truth);
                    out[5] += usize::from(value - Z * se > truth);
                }
                Ratio::Unbounded { .. } => out[2] += 1,
            }
        }
        out
    }

    #[test]
    fn fieller_sets_cover_95_percent_and_their_tails_even_out_as_the_pawn_firms_up() {
        let runs = 20000;
        // Binomial(20000, 0.05) has sd 31 (0.15 %); 0.025 has sd 22 (0.11 %).
        let rate = |k: usize| k as f64 / runs as f64;
        // A weak denominator (4 sd from zero): the set as a whole is exact, some sets are
        // unbounded, and the delta method's misses pile up on one side.
        let weak = simulate(4.0, runs);
        assert!((0.045..=0.055).contains(&rate(weak[3])), "set misses {}", rate(weak[3]));
        // P(|den estimate| < 1.96 sd) = P(N < -2.04) = 2.1 %.
        assert!((0.017..=0.025).contains(&rate(weak[2])), "unbounded {}", rate(weak[2]));
        assert!(rate(weak[0]) <= 0.03 && rate(weak[1]) <= 0.03, "tails {weak:?}");
        assert!(weak[4] > 2 * weak[5], "delta method misses {} below, {} above", weak[4], weak[5]);
        // A firm denominator (12 sd, as a pawn in a few thousand games): both tails near 2.5 %.
        let firm = simulate(12.0, runs);
        eprintln!("weak {weak:?}, firm {firm:?} of {runs}");
        assert_eq!(firm[2], 0);
        for tail in [firm[0], firm[1]] {
            assert!((0.021..=0.029).contains(&rate(tail)), "tails {firm:?}");
        }
    }
}
