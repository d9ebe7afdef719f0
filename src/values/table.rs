//! The result table every value command prints and writes: one row per estimated
//! quantity, with the method, budget, seed and fairylab version that produced it, so a
//! figure can be traced back and reproduced.
//!
//! `values.csv` has the columns of [`ValueRow`] in order; `values.json` is an array of
//! the same rows as objects.

use super::imbalance::combine::Combined;
use super::imbalance::ImbalanceResult;
use super::method::{Fit, Method};
use super::regression::Regression;
use super::support::{missing_as_nan, nan_as_missing, Support, NOT_ENOUGH};
use super::ValuesError;
use serde::{Deserialize, Serialize};
use std::path::Path;

pub const VERSION: &str = env!("CARGO_PKG_VERSION");

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ValueRow {
    pub variant: String,
    /// Variant options, joined by `+` (empty: none).
    pub options: String,
    /// A piece letter (`F`), a difference (`F-R`, `F-(B+P)`), or a model term
    /// (`white`, `side-to-move`, `elo-per-pawn`).
    pub piece: String,
    /// Without support the three figures are NaN, written as empty (CSV) or null (JSON).
    #[serde(serialize_with = "nan_as_missing", deserialize_with = "missing_as_nan")]
    pub value: f64,
    #[serde(serialize_with = "nan_as_missing", deserialize_with = "missing_as_nan")]
    pub ci_low: f64,
    #[serde(serialize_with = "nan_as_missing", deserialize_with = "missing_as_nan")]
    pub ci_high: f64,
    /// `supported`, or `not-enough-data` (the note says why).
    pub support: Support,
    /// `pawns`, or `elo` for the calibration's worth of a pawn.
    pub unit: String,
    pub method: Method,
    pub games: u64,
    /// Nodes per move of the engine that played the games (0 if unknown: `--data` runs).
    pub nodes: u64,
    pub seed: u64,
    pub version: String,
    pub note: String,
}

/// The largest worth in pawns a figure may have or an interval may reach and still be
/// quoted (see `Context::row`).
pub const MAX_PAWNS: f64 = 100.0;

/// What every row of one estimate shares.
#[derive(Clone, Debug)]
pub struct Context {
    pub variant: String,
    pub options: String,
    pub nodes: u64,
    pub seed: u64,
}

impl Context {
    /// A row for `piece` with its (value, low, high); without three finite figures it has
    /// no support, and no figures either. In pawns, an interval reaching past
    /// [`MAX_PAWNS`] has no support either: no piece of these games is worth that much, so
    /// such an end says the pawn's worth was not pinned down (a bootstrap's finite
    /// counterpart of Fieller's unbounded set), not that the piece might be.
    fn row(
        &self,
        piece: &str,
        (value, low, high): (f64, f64, f64),
        unit: &str,
        method: Method,
        games: u64,
    ) -> ValueRow {
        let bounded = unit != "pawns" || [value, low, high].iter().all(|x| x.abs() <= MAX_PAWNS);
        let finite = value.is_finite() && low.is_finite() && high.is_finite() && bounded;
        let (support, [value, low, high]) =
            if finite { (Support::Supported, [value, low, high]) } else { (Support::NotEnoughData, [f64::NAN; 3]) };
        ValueRow {
            variant: self.variant.clone(),
            options: self.options.clone(),
            piece: piece.to_string(),
            value,
            ci_low: low,
            ci_high: high,
            support,
            unit: unit.into(),
            method,
            games,
            nodes: self.nodes,
            seed: self.seed,
            version: VERSION.into(),
            note: String::new(),
        }
    }
}

pub fn regression_rows(ctx: &Context, r: &Regression, method: Method) -> Vec<ValueRow> {
    r.estimates
        .iter()
        .map(|e| {
            let figures =
                if e.support.is_supported() { (e.value, e.low, e.high) } else { (f64::NAN, f64::NAN, f64::NAN) };
            let mut row = ctx.row(&e.name, figures, "pawns", method.clone(), r.games as u64);
            // The start fit has one observation per game: the material its play began with.
            let what = if method.fit() == Some(Fit::Start) { "game starts" } else { "positions" };
            row.note = format!("{} {what}, {} with this imbalance", r.positions, e.varied);
            if e.name == "white" || e.name == "side-to-move" {
                row.note = format!("{} {what}", r.positions);
            }
            if !e.note.is_empty() {
                row.note = format!("{}; {}", e.note, row.note);
            }
            row
        })
        .chain(r.scaled.iter().map(|(kind, e)| {
            let figures =
                if e.support.is_supported() { (e.value, e.low, e.high) } else { (f64::NAN, f64::NAN, f64::NAN) };
            let mut row = ctx.row(&e.name, figures, kind.unit(), method.clone(), r.games as u64);
            row.note = if e.note.is_empty() { format!("{} with this imbalance", e.varied) } else { e.note.clone() };
            row
        }))
        .collect()
}

pub fn imbalance_rows(ctx: &Context, r: &ImbalanceResult) -> Vec<ValueRow> {
    let mut rows = Vec::new();
    let cal = &r.calibration;
    if let Some(e) = cal.elo.map(|e| super::imbalance::per_pawn(e, r.calibration_pawns)) {
        let h = 1.96 * e.se;
        // Below MIN_GAMES the spread is itself a guess: no figure.
        let games = cal.penta.games();
        let figures = if games >= crate::stats::MIN_GAMES {
            (e.value, e.value - h, e.value + h)
        } else {
            (f64::NAN, f64::NAN, f64::NAN)
        };
        let mut row = ctx.row("elo-per-pawn", figures, "elo", Method::PawnOdds, games);
        row.note = cal.note.clone();
        if games < crate::stats::MIN_GAMES {
            row.note = format!("not enough games ({games}); {}", row.note);
        }
        rows.push(row);
    }
    for m in &r.comparisons {
        let Some(c) = &m.comparison else { continue };
        let interval = m.pawns.map_or((f64::NAN, f64::NAN, f64::NAN), |p| (p.value, p.low, p.high));
        let mut row = ctx.row(&c.label(), interval, "pawns", Method::Imbalance, m.penta.games());
        row.note = [m.pawns_note.as_str(), m.note.as_str()]
            .into_iter()
            .filter(|n| !n.is_empty())
            .collect::<Vec<_>>()
            .join("; ");
        rows.push(row);
    }
    let games: u64 = cal.penta.games() + r.comparisons.iter().map(|m| m.penta.games()).sum::<u64>();
    let in_order: Vec<char> = r
        .comparisons
        .iter()
        .filter_map(|m| m.comparison.as_ref())
        .flat_map(|c| c.x.iter().chain(&c.y))
        .copied()
        .collect();
    if let Ok(comb) = &r.combined {
        let note = format!("least squares over {} matches, {}", r.equations, comb.additivity());
        rows.extend(combined_rows(ctx, r, comb, &in_order, Method::ImbalanceLsq, games, &note));
    }
    rows.extend(bracket_rows(ctx, r, &in_order));
    rows.extend(scale_check_rows(ctx, r));
    rows
}

/// One row per piece of `letters` (first appearance) that a combination values.
fn combined_rows(
    ctx: &Context,
    r: &ImbalanceResult,
    comb: &Combined,
    letters: &[char],
    method: Method,
    games: u64,
    note: &str,
) -> Vec<ValueRow> {
    let mut rows: Vec<ValueRow> = vec![];
    for &letter in letters {
        if rows.iter().any(|r| r.piece == letter.to_string()) {
            continue;
        }
        // Only types that appear in some comparison have a value; the pawn is the unit.
        let Some(t) = r.letters.iter().position(|&l| l == letter) else { continue };
        let figures = comb.values[t].map_or((f64::NAN, f64::NAN, f64::NAN), |v| (v.value, v.low, v.high));
        let mut row = ctx.row(&letter.to_string(), figures, "pawns", method.clone(), games);
        row.note = note.to_string();
        if let Some(why) = &comb.unsupported {
            row.note = format!("{why}; {}", row.note);
        }
        rows.push(row);
    }
    rows
}

/// Each comparison priced by its bracket (`imbalance-bracket`, in local pawns), the local
/// pawn's Elo (`elo-per-pawn@X-Y`), and the bracketed differences combined into piece
/// values (`imbalance-bracket-lsq`).
fn bracket_rows(ctx: &Context, r: &ImbalanceResult, letters: &[char]) -> Vec<ValueRow> {
    let mut rows = vec![];
    let mut games_all = 0;
    for b in &r.brackets {
        let games: u64 = b.points.iter().map(|p| p.games).sum();
        games_all += games;
        // As for the pawn-odds match: below MIN_GAMES a match's spread is itself a guess,
        // so a line through such points prices nothing.
        let fewest = b.points.iter().map(|p| p.games).min().unwrap_or(0);
        let enough = fewest >= crate::stats::MIN_GAMES;
        let figures = match b.value {
            Some(v) if enough => (v.value, v.low, v.high),
            _ => (f64::NAN, f64::NAN, f64::NAN),
        };
        let mut row = ctx.row(&b.label, figures, "pawns", Method::ImbalanceBracket, games);
        let ks: Vec<String> = b.points.iter().map(|p| format!("{:+}", p.pawns)).collect();
        let line = if b.dof == 0 {
            "straight line untested (two points)".to_string()
        } else {
            format!("straight line chi2 {:.2} on {} dof, {}", b.chi2, b.dof, crate::maths::chi2::p_text(b.p_value))
        };
        let place = if b.bracketed { "interpolated" } else { "not bracketed" };
        let head = format!("local pawn, k = {} pawns to Y; {place}", ks.join(", "));
        // Below MIN_GAMES a match's score is no figure, so neither is a test built on it.
        row.note = if enough {
            [format!("{head}; {line}"), b.note.clone()]
                .into_iter()
                .filter(|n| !n.is_empty())
                .collect::<Vec<_>>()
                .join("; ")
        } else {
            format!("not enough games ({fewest}) in a bracket match; {head}")
        };
        rows.push(row);
        if let (Some(e), Some(se)) = (b.elo_per_pawn, b.elo_per_pawn_se) {
            let h = crate::values::imbalance::calibration::z95() * se;
            let figures = if enough { (e, e - h, e + h) } else { (f64::NAN, f64::NAN, f64::NAN) };
            let mut row =
                ctx.row(&format!("elo-per-pawn@{}", b.label), figures, "elo", Method::ImbalanceBracket, games);
            row.note = format!("the pawn's worth where {} is traded", b.comparison);
            if !enough {
                row.note = format!("not enough games ({fewest}) in a bracket match; {}", row.note);
            }
            rows.push(row);
        }
    }
    if let Some(Ok(comb)) = &r.bracket_combined {
        let note = format!(
            "least squares over {} bracketed comparisons in local pawns, {}",
            r.brackets.iter().filter(|b| b.value.is_some()).count(),
            comb.additivity()
        );
        // The pawn is the unit here by construction (exactly 1): no row.
        let unit = |l: &char| {
            let t = r.letters.iter().position(|x| x == l);
            t.and_then(|t| comb.values[t]).is_some_and(|v| v.high - v.low < 1e-6)
        };
        let pieces: Vec<char> = letters.iter().copied().filter(|l| !unit(l)).collect();
        rows.extend(combined_rows(ctx, r, comb, &pieces, Method::ImbalanceBracketLsq, games_all, &note));
    }
    rows
}

/// The pawn-odds match under each comparison's neutral weights (`pawn-odds@X=Y`).
fn scale_check_rows(ctx: &Context, r: &ImbalanceResult) -> Vec<ValueRow> {
    let Some(check) = &r.scale_check else { return vec![] };
    let fewest = check.configurations.iter().map(|c| c.games).min().unwrap_or(0);
    let test = if fewest < crate::stats::MIN_GAMES {
        format!("homogeneity untested: not enough games ({fewest}) in a pawn-odds match")
    } else if check.dof == 0 {
        "homogeneity untested".to_string()
    } else {
        format!(
            "same Elo per pawn under every configuration: chi2 {:.2} on {} dof, {}",
            check.chi2,
            check.dof,
            crate::maths::chi2::p_text(check.p_value)
        )
    };
    check
        .configurations
        .iter()
        .skip(1)
        .map(|c| {
            let figures = match (c.elo_per_pawn, c.se) {
                (Some(e), Some(se)) if c.games >= crate::stats::MIN_GAMES => {
                    let h = crate::values::imbalance::calibration::z95() * se;
                    (e, e - h, e + h)
                }
                _ => (f64::NAN, f64::NAN, f64::NAN),
            };
            let mut row = ctx.row("elo-per-pawn", figures, "elo", Method::PawnOddsUnder(c.weights_of.clone()), c.games);
            row.note = format!("pawn odds under the neutral weights of {}; {test}", c.weights_of);
            row
        })
        .collect()
}

/// Writes `values.csv` and `values.json` into `dir`.
pub fn write(dir: &Path, rows: &[ValueRow]) -> Result<(), ValuesError> {
    std::fs::create_dir_all(dir).map_err(|e| ValuesError::io("create", dir, e))?;
    let csv_path = dir.join("values.csv");
    let mut w = csv::Writer::from_path(&csv_path).map_err(|e| ValuesError::io("write", &csv_path, e))?;
    for r in rows {
        w.serialize(r).map_err(|e| ValuesError::io("write", &csv_path, e))?;
    }
    w.flush().map_err(|e| ValuesError::io("write", &csv_path, e))?;
    let json_path = dir.join("values.json");
    let text = serde_json::to_string_pretty(rows).map_err(|e| ValuesError::io("write", &json_path, e))?;
    std::fs::write(&json_path, text + "\n").map_err(|e| ValuesError::io("write", &json_path, e))
}

/// Reads a `values.csv` (or any table with its columns, such as an experiment's): every
/// row, or an error naming the file and the first row that is not a value row (a truncated
/// or foreign file).
pub fn read(path: &Path) -> Result<Vec<ValueRow>, ValuesError> {
    let text = std::fs::read_to_string(path).map_err(|e| ValuesError::io("read", path, e))?;
    // Every row the table writer writes ends with a line break; a last row without one
    // was cut off, possibly inside its last field, where the CSV reader cannot tell.
    if !text.is_empty() && !text.ends_with('\n') {
        return Err(ValuesError::Table {
            path: path.to_path_buf(),
            line: Some(text.lines().count()),
            reason: "is cut off (no line break at the end of the file)".into(),
        });
    }
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let mut rows = vec![];
    for (i, row) in r.deserialize::<ValueRow>().enumerate() {
        // Row numbers count the header as line 1, as an editor shows them.
        rows.push(row.map_err(|e| ValuesError::Table {
            path: path.to_path_buf(),
            line: Some(i + 2),
            reason: format!("is not a value-table row: {e}"),
        })?);
    }
    if rows.is_empty() {
        return Err(ValuesError::Table {
            path: path.to_path_buf(),
            line: None,
            reason: "no value rows (an empty or header-only table)".into(),
        });
    }
    Ok(rows)
}

/// The table as aligned text.
pub fn format(rows: &[ValueRow]) -> String {
    let mut s = format!(
        "{:<22} {:<16} {:<14} {:>9} {:>19} {:<6} {:<18} {:>7} {:>7}\n",
        "variant", "options", "piece", "value", "95 % interval", "unit", "method", "games", "nodes"
    );
    for r in rows {
        let opts = if r.options.is_empty() { "-" } else { &r.options };
        let (value, interval) = if r.support.is_supported() {
            (format!("{:.3}", r.value), format!("[{:.3}, {:.3}]", r.ci_low, r.ci_high))
        } else {
            (String::new(), NOT_ENOUGH.to_string())
        };
        s += &format!(
            "{:<22} {:<16} {:<14} {:>9} {:>19} {:<6} {:<18} {:>7} {:>7}\n",
            r.variant, opts, r.piece, value, interval, r.unit, r.method, r.games, r.nodes
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx() -> Context {
        Context { variant: "chess".into(), options: String::new(), nodes: 2000, seed: 1 }
    }

    #[test]
    fn a_pawn_interval_reaching_past_the_bound_is_not_enough_data() {
        let quoted = ctx().row(
            "Q",
            (9.5, 8.0, 11.0),
            "pawns",
            Method::regression(crate::maths::logistic::Model::Logistic, Fit::Positions),
            1600,
        );
        assert!(quoted.support.is_supported());
        assert_eq!((quoted.value, quoted.ci_low, quoted.ci_high), (9.5, 8.0, 11.0));
        let loose = ctx().row(
            "Q",
            (3.3, 1.27, MAX_PAWNS + 46.0),
            "pawns",
            Method::regression(crate::maths::logistic::Model::Logistic, Fit::Positions),
            96,
        );
        assert!(!loose.support.is_supported());
        assert!(loose.value.is_nan() && loose.ci_high.is_nan());
        // The bound is on pawns only: Elo figures may well exceed a hundred.
        let elo = ctx().row("elo-per-pawn", (150.0, 120.0, 180.0), "elo", Method::PawnOdds, 800);
        assert!(elo.support.is_supported());
    }
}
