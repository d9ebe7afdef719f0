//! Several comparisons into absolute values. Each match measures, in Elo, a signed sum of
//! piece values (`F-R`, `F-(B+P)`, and the calibration `P`). With `u_t` the Elo worth of
//! piece type `t`, every match is one linear equation `sum_t a_t u_t = elo`; weighted
//! least squares (weights `1/se^2`) gives `u` with covariance `(A^T W A)^-1`. Values in
//! pawns are `u_t / u_P`, so the pawn is exactly 1, and their intervals are Fieller's on the
//! full covariance (`maths::fieller`), which carries the calibration's uncertainty (shared
//! by every value) instead of treating the comparisons as independent in pawns, and which
//! exists only when the pawn's worth is clearly above zero: otherwise no value is supported.
//!
//! Additivity test: with more matches than unknowns the weighted residuals' sum of squares
//! is chi-square on `matches - unknowns` degrees of freedom if the values add up (a queen
//! worth R+R+P whatever it is traded for); its p-value says how surprising the disagreement
//! is. With as many matches as unknowns every match is fitted exactly and additivity is
//! untested (`p_value` NaN). When the comparisons disagree by more than their errors
//! (chi-square above its degrees of freedom), the covariance is scaled by `chi2 / dof`, as
//! the Particle Data Group does for inconsistent measurements, so the intervals show it.

use super::calibration::{z95, Interval, Measure};
use crate::maths::chi2;
use crate::maths::fieller::{self, Ratio, RatioInput};
use crate::maths::linalg::inverse_spd;
use crate::values::ValuesError;
use ndarray::{Array1, Array2};

/// One match: coefficients per piece type and the measured Elo.
#[derive(Clone, Debug)]
pub struct Equation {
    pub coefficients: Vec<i32>,
    pub elo: Measure,
}

#[derive(Clone, Debug)]
pub struct Combined {
    /// Value in pawns per piece type (`None` for types in no equation, and for all of them
    /// when `unsupported` says why there is no unit).
    pub values: Vec<Option<Interval>>,
    /// Why no value in pawns is supported although the system was solved.
    pub unsupported: Option<String>,
    /// Sum of squared standardized residuals and its degrees of freedom: a check that the
    /// comparisons agree with additive values (chi-square with `dof` degrees of freedom).
    pub chi2: f64,
    pub dof: usize,
    /// `P(chi2(dof) > chi2)`: small when the matches disagree beyond their errors; NaN for
    /// `dof == 0` (additivity untested).
    pub p_value: f64,
    /// Factor applied to the standard errors: `sqrt(chi2 / dof)` when that exceeds 1.
    pub scale: f64,
}

impl Combined {
    /// The additivity test in words, for notes and pages.
    pub fn additivity(&self) -> String {
        if self.dof == 0 {
            return "additivity untested (as many matches as unknowns)".into();
        }
        let mut s = format!(
            "additivity chi2 {:.2} on {} dof, {}",
            self.chi2,
            self.dof,
            crate::maths::chi2::p_text(self.p_value)
        );
        if self.scale > 1.0 {
            s += &format!(", errors scaled by {:.2} for the disagreement", self.scale);
        }
        s
    }
}

/// Solves for the values of all types in `equations`, pawn (`pawn`, an index) = 1.
pub fn combine(equations: &[Equation], ntypes: usize, pawn: usize) -> Result<Combined, ValuesError> {
    let used: Vec<usize> = (0..ntypes).filter(|&t| equations.iter().any(|e| e.coefficients[t] != 0)).collect();
    let Some(pawn_col) = used.iter().position(|&t| t == pawn) else {
        return Err(ValuesError::Fit("no match involves the pawn, so values cannot be expressed in pawns".into()));
    };
    let (m, k) = (equations.len(), used.len());
    if m < k {
        return Err(ValuesError::Fit(format!("{m} matches cannot determine {k} piece values; add comparisons")));
    }
    let mut a = Array2::<f64>::zeros((m, k));
    let mut w = Array1::<f64>::zeros(m);
    let mut y = Array1::<f64>::zeros(m);
    for (i, e) in equations.iter().enumerate() {
        if e.elo.se.is_nan() || e.elo.se <= 0.0 || !e.elo.value.is_finite() {
            return Err(ValuesError::Fit("every match needs a finite result with a positive standard error".into()));
        }
        for (j, &t) in used.iter().enumerate() {
            a[[i, j]] = e.coefficients[t] as f64;
        }
        w[i] = 1.0 / (e.elo.se * e.elo.se);
        y[i] = e.elo.value;
    }
    let aw = &a.t() * &w; // k x m, columns scaled by the weights
    let normal = aw.dot(&a);
    let cov = inverse_spd(&normal).ok_or_else(|| {
        ValuesError::Fit(
            "the comparisons do not pin down every piece's value (some only appear together); add comparisons".into(),
        )
    })?;
    let u = cov.dot(&aw.dot(&y));
    let residual = &y - &a.dot(&u);
    let chi2: f64 = residual.iter().zip(w.iter()).map(|(r, w)| r * r * w).sum();
    let scale = if m > k { (chi2 / (m - k) as f64).sqrt().max(1.0) } else { 1.0 };
    let cov = cov * (scale * scale);
    let dof = m - k;
    let p_value = chi2::upper_tail(chi2, dof);
    let mut values = vec![None; ntypes];
    let mut unsupported = None;
    for (j, &t) in used.iter().enumerate() {
        let input = RatioInput {
            num: u[j],
            den: u[pawn_col],
            var_num: cov[[j, j]],
            var_den: cov[[pawn_col, pawn_col]],
            cov: cov[[j, pawn_col]],
        };
        match fieller::ratio(input, z95()) {
            Ratio::Bounded { .. } if input.den <= 0.0 => {
                unsupported = Some(format!(
                    "the pawn's measured worth is {:.1} Elo, below zero: no unit to convert to",
                    input.den
                ));
            }
            Ratio::Bounded { value, low, high, se } => values[t] = Some(Interval { value, se, low, high }),
            Ratio::Unbounded { den_z } => {
                unsupported = Some(format!(
                    "the pawn's worth ({:.1} Elo) is {den_z:.2} standard errors from zero, under the 1.96 \
                     a bounded 95 % interval needs",
                    input.den
                ));
            }
        }
    }
    if unsupported.is_some() {
        values = vec![None; ntypes];
    }
    Ok(Combined { values, unsupported, chi2, dof, p_value, scale })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eq(c: &[i32], value: f64, se: f64) -> Equation {
        Equation { coefficients: c.to_vec(), elo: Measure { value, se } }
    }

    #[test]
    fn exactly_determined_system_reproduces_the_direct_ratios() {
        // Types: 0 = pawn, 1 = knight, 2 = rook. Pawn 100 Elo, N-P-P-P = +25, R-N-P-P = -25.
        let eqs = [eq(&[1, 0, 0], 100.0, 5.0), eq(&[-3, 1, 0], 25.0, 8.0), eq(&[-2, -1, 1], -25.0, 8.0)];
        let c = combine(&eqs, 3, 0).unwrap();
        let n = c.values[1].unwrap();
        let r = c.values[2].unwrap();
        assert!((n.value - 3.25).abs() < 1e-9, "{n:?}");
        assert!((r.value - 5.0).abs() < 1e-9, "{r:?}");
        assert_eq!(c.dof, 0);
        assert!(c.chi2.abs() < 1e-9);
        assert!(c.p_value.is_nan() && c.additivity().contains("untested"));
        // N = 3 + e1/p: var = (se1/p)^2 + (e1/p^2)^2 se_p^2... plus 3 pawns exactly.
        let expect = ((8.0f64 / 100.0).powi(2) + (325.0f64 / 100.0 / 100.0 * 5.0 - 3.0 * 5.0 / 100.0).powi(2)).sqrt();
        assert!((n.se - expect).abs() < 1e-9, "{} vs {expect}", n.se);
        assert_eq!(c.values[0].unwrap().value, 1.0);
    }

    #[test]
    fn overdetermined_system_weights_by_precision() {
        // Two measurements of the knight, one precise: the combination leans to it.
        let eqs = [eq(&[1, 0], 100.0, 1e-6), eq(&[0, 1], 300.0, 1.0), eq(&[0, 1], 340.0, 10.0)];
        let c = combine(&eqs, 2, 0).unwrap();
        let n = c.values[1].unwrap();
        let expect = (300.0 * 1.0 + 340.0 * 0.01) / 1.01 / 100.0;
        assert!((n.value - expect).abs() < 1e-9);
        assert_eq!(c.dof, 1);
        assert!(c.chi2 > 0.0);
    }

    #[test]
    fn disagreeing_comparisons_widen_the_intervals() {
        // The knight measured twice with equal errors: agreeing, then 4 se apart.
        let agree =
            combine(&[eq(&[1, 0], 100.0, 1.0), eq(&[0, 1], 300.0, 10.0), eq(&[0, 1], 300.0, 10.0)], 2, 0).unwrap();
        let apart =
            combine(&[eq(&[1, 0], 100.0, 1.0), eq(&[0, 1], 280.0, 10.0), eq(&[0, 1], 320.0, 10.0)], 2, 0).unwrap();
        assert_eq!(agree.scale, 1.0);
        // chi2 = (20/10)^2 * 2 = 8 on 1 dof: errors scale by sqrt(8).
        assert!((apart.chi2 - 8.0).abs() < 1e-9 && (apart.scale - 8f64.sqrt()).abs() < 1e-9);
        let (a, b) = (agree.values[1].unwrap(), apart.values[1].unwrap());
        assert!((b.value - 3.0).abs() < 1e-9);
        assert!((b.se / a.se - 8f64.sqrt()).abs() < 1e-9, "{} {}", a.se, b.se);
    }

    #[test]
    fn underdetermined_systems_are_errors() {
        let no_pawn = [eq(&[0, 1, -1], 10.0, 5.0)];
        assert!(combine(&no_pawn, 3, 0).unwrap_err().to_string().contains("pawn"));
        let together = [eq(&[1, 0, 0], 100.0, 5.0), eq(&[0, 1, -1], 10.0, 5.0), eq(&[0, -1, 1], -12.0, 5.0)];
        assert!(combine(&together, 3, 0).unwrap_err().to_string().contains("pin down"));
    }

    #[test]
    fn a_pawn_not_clearly_worth_anything_gives_no_values() {
        // The pawn at about 8 ± 5 Elo (1.6 standard errors): the system is solved and tested, but
        // no value in pawns has a bounded interval.
        let eqs = [eq(&[1, 0], 8.0, 5.0), eq(&[-3, 1], 25.0, 8.0), eq(&[-2, 1], 30.0, 8.0)];
        let c = combine(&eqs, 2, 0).unwrap();
        assert!(c.values.iter().all(Option::is_none), "{:?}", c.values);
        assert!(c.unsupported.as_deref().unwrap().contains("standard errors from zero"), "{:?}", c.unsupported);
        assert_eq!(c.dof, 1);
        assert!(c.p_value > 0.0 && c.p_value <= 1.0);
    }
}
