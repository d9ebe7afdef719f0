//! Whether the two estimators agree, tested on the scale where they can disagree: the
//! ratio. A piece's value is a ratio (its Elo over a pawn's), so two estimators with
//! different pawns differ by a common factor, and their intervals are skewed (Fieller's
//! upper end stretches further than its lower). Overlapping 95 % intervals are not a test:
//! two intervals can overlap while the difference is 2.8 standard errors from zero. Here,
//! per piece, the log-ratio `ln(imbalance / regression)` with its standard error from both
//! intervals (independent games) is a z-test; the weighted mean of the log-ratios is the
//! common scale factor between the two units, and the chi-square of the log-ratios about
//! it says whether one factor explains every piece (then the estimators differ only in
//! their pawn) or the pieces disagree one by one.

use super::imbalance::calibration::z95;
use super::method::{Fit, Method};
use super::table::ValueRow;
use crate::maths::chi2;
use serde::Serialize;

/// A value with its 95 % interval, as the table has it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

impl Estimate {
    /// The log of the value and its standard error, from the interval's ends on the log
    /// scale (where ratio intervals are near symmetric); `None` unless all three are
    /// positive and finite (a value not clearly above zero has no log to compare).
    fn log(&self) -> Option<(f64, f64)> {
        let ok = |x: f64| x.is_finite() && x > 0.0;
        if !(ok(self.value) && ok(self.low) && ok(self.high)) || self.high <= self.low {
            return None;
        }
        Some((self.value.ln(), (self.high.ln() - self.low.ln()) / (2.0 * z95())))
    }
}

/// One piece's two estimates, as the caller found them.
#[derive(Clone, Debug, PartialEq)]
pub struct PiecePair {
    pub piece: String,
    pub regression: Estimate,
    pub imbalance: Estimate,
}

/// How far apart (as a ratio, either way) two estimates of one piece may be and still be
/// quoted as one value; beyond it a report says why.
pub const QUOTABLE: f64 = 1.25;

/// The log-ratio test of one piece.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PieceAgreement {
    pub piece: String,
    /// `imbalance / regression` and its 95 % interval (`exp` of the log-ratio's).
    pub ratio: f64,
    pub ratio_low: f64,
    pub ratio_high: f64,
    pub log_ratio: f64,
    pub se: f64,
    /// `log_ratio / se`.
    pub z: f64,
    /// Two-sided p-value of "the estimators agree".
    pub p_value: f64,
    /// `|z| > 1.96`: the estimators disagree beyond their errors.
    pub disagree: bool,
    /// More than 1.25 times apart, either way (the quotable bound).
    pub beyond_quarter: bool,
}

/// The common factor between the two units: `exp` of the weighted mean log-ratio.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Scale {
    pub factor: f64,
    pub low: f64,
    pub high: f64,
    pub log_mean: f64,
    pub se: f64,
    /// Consistency of the pieces with one factor: chi-square on `pieces - 1` degrees.
    pub chi2: f64,
    pub dof: usize,
    /// NaN for one piece (nothing to test).
    pub p_value: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Agreement {
    pub pieces: Vec<PieceAgreement>,
    /// Pieces without a positive value and interval in both estimators (no test).
    pub untested: Vec<String>,
    /// `None` when no piece could be tested.
    pub scale: Option<Scale>,
}

fn two_sided_p(z: f64) -> f64 {
    chi2::upper_tail(z * z, 1)
}

/// The log-ratio test of every piece and the common scale factor.
pub fn compare(pairs: &[PiecePair]) -> Agreement {
    let z = z95();
    let mut pieces = vec![];
    let mut untested = vec![];
    for p in pairs {
        let (Some((li, si)), Some((lr, sr))) = (p.imbalance.log(), p.regression.log()) else {
            untested.push(p.piece.clone());
            continue;
        };
        let (d, se) = (li - lr, (si * si + sr * sr).sqrt());
        // A zero-width interval on both sides would make any gap infinitely significant:
        // such a piece is not testable rather than "certainly different".
        if se <= 0.0 || !se.is_finite() {
            untested.push(p.piece.clone());
            continue;
        }
        pieces.push(PieceAgreement {
            piece: p.piece.clone(),
            ratio: d.exp(),
            ratio_low: (d - z * se).exp(),
            ratio_high: (d + z * se).exp(),
            log_ratio: d,
            se,
            z: d / se,
            p_value: two_sided_p(d / se),
            disagree: (d / se).abs() > z,
            beyond_quarter: d.abs() > QUOTABLE.ln(),
        });
    }
    let scale = (!pieces.is_empty()).then(|| {
        let w: Vec<f64> = pieces.iter().map(|p| 1.0 / (p.se * p.se)).collect();
        let sw: f64 = w.iter().sum();
        let mean = pieces.iter().zip(&w).map(|(p, w)| w * p.log_ratio).sum::<f64>() / sw;
        let se = 1.0 / sw.sqrt();
        let chi2: f64 = pieces.iter().zip(&w).map(|(p, w)| w * (p.log_ratio - mean).powi(2)).sum();
        let dof = pieces.len() - 1;
        Scale {
            factor: mean.exp(),
            low: (mean - z * se).exp(),
            high: (mean + z * se).exp(),
            log_mean: mean,
            se,
            chi2,
            dof,
            p_value: chi2::upper_tail(chi2, dof),
        }
    });
    Agreement { pieces, untested, scale }
}

/// The pairs of a value table: each single piece with a supported row of the regression
/// `regression_method` (`regression-logistic`, or a refit such as
/// `regression-logistic-min-pieces-0.75`) and a supported row of `imbalance_method`
/// (`imbalance-lsq`, or `imbalance-bracket-lsq` for the bracketed values).
pub fn pairs_of(rows: &[ValueRow], imbalance_method: &Method, regression_method: &Method) -> Vec<PiecePair> {
    let est = |r: &ValueRow| Estimate { value: r.value, low: r.ci_low, high: r.ci_high };
    let find = |piece: &str, method: &Method| {
        rows.iter().find(|r| r.piece == piece && r.unit == "pawns" && r.support.is_supported() && r.method == *method)
    };
    let mut out: Vec<PiecePair> = vec![];
    for r in rows.iter().filter(|r| r.method == *imbalance_method && r.piece.chars().count() == 1) {
        if out.iter().any(|p| p.piece == r.piece) {
            continue;
        }
        if let (Some(reg), Some(imb)) = (find(&r.piece, regression_method), find(&r.piece, imbalance_method)) {
            out.push(PiecePair { piece: r.piece.clone(), regression: est(reg), imbalance: est(imb) });
        }
    }
    out
}

/// The test as table rows (unit `ratio`, method `log-ratio` for `imbalance-lsq` and
/// `log-ratio-bracket` for `imbalance-bracket-lsq`, each followed by what follows the
/// model in a refit's `regression_method`, e.g. `log-ratio-min-pieces-0.75`): one per piece
/// (`imbalance / regression`) and the common `scale-factor`; their notes carry z, p and
/// the chi-square.
pub fn rows(
    template: &ValueRow,
    a: &Agreement,
    imbalance_method: &Method,
    regression_method: &Method,
) -> Vec<ValueRow> {
    let method = Method::LogRatio {
        bracket: *imbalance_method != Method::ImbalanceLsq,
        fit: regression_method.fit().unwrap_or(Fit::Positions),
    };
    let row = |piece: &str, (value, low, high): (f64, f64, f64), note: String| ValueRow {
        piece: piece.to_string(),
        value,
        ci_low: low,
        ci_high: high,
        unit: "ratio".into(),
        method: method.clone(),
        note,
        ..template.clone()
    };
    let mut out: Vec<ValueRow> = a
        .pieces
        .iter()
        .map(|p| {
            let verdict = if p.disagree { "disagree" } else { "agree" };
            let note = format!(
                "{imbalance_method} / {regression_method}; log-ratio {:+.3} ± {:.3} (z {:+.2}, p {:.3}): {verdict}",
                p.log_ratio,
                z95() * p.se,
                p.z,
                p.p_value
            );
            row(&p.piece, (p.ratio, p.ratio_low, p.ratio_high), note)
        })
        .collect();
    if let Some(s) = &a.scale {
        let note = format!(
            "common factor over {} pieces; consistency chi2 {:.2} on {} dof, p {}",
            a.pieces.len(),
            s.chi2,
            s.dof,
            if s.p_value.is_nan() { "-".to_string() } else { format!("{:.3}", s.p_value) }
        );
        out.push(row("scale-factor", (s.factor, s.low, s.high), note));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn est(value: f64, rel_se: f64) -> Estimate {
        // An interval symmetric on the log scale with the given relative error.
        let h = z95() * rel_se;
        Estimate { value, low: value * (-h).exp(), high: value * h.exp() }
    }

    fn pair(piece: &str, reg: Estimate, imb: Estimate) -> PiecePair {
        PiecePair { piece: piece.into(), regression: reg, imbalance: imb }
    }

    #[test]
    fn overlapping_intervals_can_still_disagree() {
        // The 10x10 queen: 29.0 [23.6, 34.4] against 16.4 [~13, ~21]: the
        // intervals nearly touch, the log-ratio is far beyond 1.96 standard errors.
        let q =
            pair("Q", Estimate { value: 16.4, low: 13.0, high: 20.7 }, Estimate { value: 29.0, low: 23.6, high: 34.4 });
        let a = compare(&[q]);
        let p = &a.pieces[0];
        assert!((p.ratio - 29.0 / 16.4).abs() < 1e-12);
        assert!(p.disagree && p.beyond_quarter && p.z > 3.0, "{p:?}");
        // Two intervals that overlap by a little: |z| about 2.3 on the log scale.
        let b = compare(&[pair("E", est(10.0, 0.1), est(13.8, 0.1))]);
        // ln(1.38) / (0.1 * sqrt 2) = 2.28.
        assert!(b.pieces[0].disagree && (b.pieces[0].z - 2.277).abs() < 0.01, "{:?}", b.pieces[0]);
        assert!(est(10.0, 0.1).high > est(13.8, 0.1).low, "the intervals overlap");
        let close = compare(&[pair("N", est(3.0, 0.1), est(3.2, 0.1))]);
        assert!(!close.pieces[0].disagree && !close.pieces[0].beyond_quarter);
    }

    #[test]
    fn the_scale_factor_is_the_weighted_mean_and_its_chi2_tests_one_factor() {
        // Every piece 1.5 times dearer by imbalance: one factor explains all, chi2 = 0.
        let pieces = [("N", 3.0, 0.05), ("R", 5.0, 0.1), ("Q", 9.0, 0.2)];
        let uniform: Vec<PiecePair> = pieces.iter().map(|&(p, v, s)| pair(p, est(v, s), est(1.5 * v, s))).collect();
        let a = compare(&uniform);
        let s = a.scale.unwrap();
        assert!((s.factor - 1.5).abs() < 1e-9 && s.chi2 < 1e-9 && s.dof == 2, "{s:?}");
        assert!(s.low < 1.5 && 1.5 < s.high);
        // The weighted mean leans to the most precise piece.
        let mixed = [pair("N", est(3.0, 0.01), est(3.3, 0.01)), pair("Q", est(9.0, 0.1), est(18.0, 0.1))];
        let a = compare(&mixed);
        let s = a.scale.unwrap();
        assert!((s.factor - 1.1).abs() < 0.01, "{s:?}");
        // 1.1 and 2.0 with these errors cannot share a factor.
        assert!(s.p_value < 0.05 && s.dof == 1, "{s:?}");
        let w = [1.0 / (2.0 * 0.01f64.powi(2)), 1.0 / (2.0 * 0.1f64.powi(2))];
        let mean = (w[0] * 1.1f64.ln() + w[1] * 2f64.ln()) / (w[0] + w[1]);
        assert!((s.log_mean - mean).abs() < 1e-9);
    }

    #[test]
    fn pieces_without_a_positive_interval_are_left_untested() {
        let bad = Estimate { value: 2.0, low: -1.0, high: 5.0 };
        let nan = Estimate { value: f64::NAN, low: f64::NAN, high: f64::NAN };
        let a = compare(&[
            pair("A", bad, est(3.0, 0.1)),
            pair("B", est(3.0, 0.1), nan),
            pair("N", est(3.0, 0.1), est(3.0, 0.1)),
        ]);
        assert_eq!(a.untested, ["A", "B"]);
        assert_eq!(a.pieces.len(), 1);
        assert!(a.scale.unwrap().p_value.is_nan());
        let none = compare(&[]);
        assert!(none.pieces.is_empty() && none.scale.is_none());
    }

    #[test]
    fn a_value_table_pairs_each_piece_and_gives_ratio_rows() {
        let m = |text: &str| text.parse::<Method>().unwrap();
        let row = |piece: &str, method: &str, (value, ci_low, ci_high): (f64, f64, f64)| ValueRow {
            variant: "chess".into(),
            options: String::new(),
            piece: piece.into(),
            value,
            ci_low,
            ci_high,
            support: crate::values::support::Support::Supported,
            unit: "pawns".into(),
            method: m(method),
            games: 10,
            nodes: 100,
            seed: 1,
            version: "0".into(),
            note: String::new(),
        };
        let table = [
            row("N", "regression-logistic", (3.0, 2.7, 3.3)),
            row("Q", "regression-logistic", (9.0, 8.0, 10.0)),
            row("N", "imbalance-lsq", (3.6, 3.3, 3.9)),
            row("Q", "imbalance-bracket-lsq", (9.5, 8.5, 10.5)),
            row("N-B", "imbalance-lsq", (0.1, -0.2, 0.4)),
            row("N", "regression-logistic-min-pieces-0.75", (3.4, 2.9, 3.9)),
        ];
        let pairs = pairs_of(&table, &m("imbalance-lsq"), &m("regression-logistic"));
        assert_eq!(pairs.len(), 1);
        assert_eq!((pairs[0].piece.as_str(), pairs[0].imbalance.value), ("N", 3.6));
        assert_eq!(pairs_of(&table, &m("imbalance-bracket-lsq"), &m("regression-logistic"))[0].piece, "Q");
        // A refit on the fuller board is its own regression, with its own ratio rows.
        let refit = pairs_of(&table, &m("imbalance-lsq"), &m("regression-logistic-min-pieces-0.75"));
        assert_eq!((refit.len(), refit[0].regression.value), (1, 3.4));
        let names = rows(&table[0], &compare(&refit), &m("imbalance-lsq"), &m("regression-logistic-min-pieces-0.75"));
        assert_eq!(names[0].method.to_string(), "log-ratio-min-pieces-0.75");
        assert!(names[0].note.starts_with("imbalance-lsq / regression-logistic-min-pieces-0.75;"), "{:?}", names[0]);
        let out = rows(&table[0], &compare(&pairs), &m("imbalance-lsq"), &m("regression-logistic"));
        let names: Vec<(&str, &str, String)> =
            out.iter().map(|r| (r.piece.as_str(), r.unit.as_str(), r.method.to_string())).collect();
        let log_ratio = || "log-ratio".to_string();
        assert_eq!(names, [("N", "ratio", log_ratio()), ("scale-factor", "ratio", log_ratio())]);
        assert!((out[0].value - 1.2).abs() < 1e-12 && out[0].note.contains("agree"), "{:?}", out[0]);
    }
}
