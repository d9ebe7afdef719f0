//! How the pages write numbers: a figure with its interval, a share, a list of
//! verdicts, "not enough data" where the data give none. Every section formats through
//! these, so the text always agrees with report.json.

use super::figures::Interval;
use super::{PieceValue, ReportData};

// Shared with the report test, which checks the text against report.json.

pub fn pct(i: &Interval) -> String {
    if !i.is_defined() {
        return NOT_ENOUGH.into();
    }
    format!("{:.1} % [{:.1}, {:.1}]", 100.0 * i.value, 100.0 * i.low, 100.0 * i.high)
}

/// A share of games in per cent, or not enough data.
pub fn share(x: f64) -> String {
    if x.is_finite() {
        format!("{:.1} %", 100.0 * x)
    } else {
        NOT_ENOUGH.into()
    }
}

pub fn elo(i: &Interval) -> String {
    if !i.is_defined() {
        return NOT_ENOUGH.into();
    }
    format!("{:+.1} [{:+.1}, {:+.1}]", i.value, i.low, i.high)
}

/// A setup cell's score and interval, or "not enough data".
pub fn cell_score(i: &Interval) -> String {
    if !i.is_defined() {
        return NOT_ENOUGH.into();
    }
    format!("{:.2} [{:.2}, {:.2}]", i.value, i.low, i.high)
}

pub(super) fn options_label(d: &ReportData) -> String {
    if d.options.is_empty() {
        "standard rules".into()
    } else {
        d.options.join(", ")
    }
}

/// One verdict, or one per item as a list.
pub(super) fn verdicts(items: Vec<String>) -> String {
    match items.len() {
        0 => String::new(),
        1 => format!("**{}**\n\n", items[0]),
        _ => items.iter().map(|i| format!("* {i}\n")).collect::<String>() + "\n",
    }
}

/// Printed where an estimate is undefined (a match or calibration too small to convert).
pub(super) const NOT_ENOUGH: &str = "not enough data";

pub(super) const UNIT: &str = "the unit";

/// The figures as an interval; NaN (not enough data) for an unsupported estimate.
pub(super) fn as_interval(v: &PieceValue) -> Interval {
    if !v.support.is_supported() {
        return Interval { value: f64::NAN, low: f64::NAN, high: f64::NAN };
    }
    Interval { value: v.value, low: v.low, high: v.high }
}

/// Pieces beside the orthodox pieces they replace (Noble WingS).
pub(super) fn interval(v: &PieceValue) -> String {
    if !defined(v) {
        return NOT_ENOUGH.into();
    }
    if is_unit(v) {
        return format!("{:.2} ({UNIT})", v.value);
    }
    format!("{:.2} [{:.2}, {:.2}]", v.value, v.low, v.high)
}

/// Whether the data support the estimate and it and both ends of its interval are numbers.
pub(super) fn defined(v: &PieceValue) -> bool {
    v.support.is_supported() && v.value.is_finite() && v.low.is_finite() && v.high.is_finite()
}

/// The unit of a table (the pawn, 1 by definition) has a zero-width interval, which is not
/// a measurement: it is shown as the unit instead.
pub(super) fn is_unit(v: &PieceValue) -> bool {
    v.low == v.high && v.value == v.low
}

/// A value and its interval as two table cells, or "not enough data" when undefined.
pub(super) fn value_cells(v: &PieceValue, signed: bool) -> String {
    match (defined(v), signed) {
        (false, _) => format!("{NOT_ENOUGH} | -"),
        (true, _) if is_unit(v) => format!("{:.2} | {UNIT}", v.value),
        (true, true) => format!("{:+.2} | [{:+.2}, {:+.2}]", v.value, v.low, v.high),
        (true, false) => format!("{:.2} | [{:.2}, {:.2}]", v.value, v.low, v.high),
    }
}

/// The rules an item of a report belongs to: its own, or with one option added.
pub(super) fn rules_label(d: &ReportData, option: Option<&str>) -> String {
    option.map_or(options_label(d), |o| format!("{} + {o}", options_label(d)))
}

/// A positive figure (Elo per pawn) and its interval, or "not enough data".
pub(super) fn plain(i: &Interval) -> String {
    if !i.is_defined() {
        return NOT_ENOUGH.into();
    }
    format!("{} [{}, {}]", one_place(i.value), one_place(i.low), one_place(i.high))
}

/// One decimal place, without the minus sign of a figure that rounds to zero ("-0.0").
fn one_place(x: f64) -> String {
    let s = format!("{x:.1}");
    match s.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
        _ => s,
    }
}

/// A difference in pawns and its interval, or "not enough data".
pub(super) fn signed_pawns(i: &Interval) -> String {
    if !i.is_defined() {
        return NOT_ENOUGH.into();
    }
    format!("{:+.2} [{:+.2}, {:+.2}]", i.value, i.low, i.high)
}

/// Piece values unsigned, differences (`F-R`) signed.
pub(super) fn signed_or_plain(i: &Interval, quantity: &str) -> String {
    if quantity.chars().count() > 1 {
        return signed_pawns(i);
    }
    if !i.is_defined() {
        return NOT_ENOUGH.into();
    }
    format!("{:.2} [{:.2}, {:.2}]", i.value, i.low, i.high)
}
