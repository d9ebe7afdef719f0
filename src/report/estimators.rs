//! The report's two estimators set against each other: per piece measured by both, the
//! regression's value against the imbalance matches' (`values::agreement`).

use super::format::defined;
use super::PieceValue;

/// The two estimators' log-ratio test over the pieces both measured (regression against
/// the imbalance least-squares values).
pub fn agreement(values: &[PieceValue]) -> crate::values::agreement::Agreement {
    use crate::values::agreement::{compare, Estimate, PiecePair};
    let find = |piece: &str, prefix: &str| {
        values.iter().find(|v| v.piece == piece && v.method.starts_with(prefix) && defined(v))
    };
    let estimate = |v: &PieceValue| Estimate { value: v.value, low: v.low, high: v.high };
    let mut pieces: Vec<&str> =
        values.iter().map(|v| v.piece.as_str()).filter(|p| p.chars().count() == 1 && *p != "P").collect();
    pieces.sort_unstable();
    pieces.dedup();
    let pairs: Vec<PiecePair> = pieces
        .into_iter()
        .filter_map(|p| {
            let (r, i) = (find(p, "regression")?, find(p, "imbalance-lsq")?);
            Some(PiecePair { piece: p.into(), regression: estimate(r), imbalance: estimate(i) })
        })
        .collect();
    compare(&pairs)
}
