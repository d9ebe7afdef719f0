//! The result table every value command prints and writes: one row per estimated
//! quantity, with the method, budget, seed and fairylab version that produced it, so a
//! figure can be traced back and reproduced.
//!
//! `values.csv` has the columns of [`ValueRow`] in order; `values.json` is an array of
//! the same rows as objects.

use super::imbalance::ImbalanceResult;
use super::regression::Regression;
use super::support::{nan_as_missing, Support, NOT_ENOUGH};
use serde::Serialize;
use std::path::Path;

pub const VERSION: &str = env!("CARGO_PKG_VERSION");

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ValueRow {
    pub variant: String,
    /// Variant options, joined by `+` (empty: none).
    pub options: String,
    /// A piece letter (`F`), a difference (`F-R`, `F-(B+P)`), or a model term
    /// (`white`, `side-to-move`, `elo-per-pawn`).
    pub piece: String,
    /// Without support the three figures are NaN, written as empty (CSV) or null (JSON).
    #[serde(serialize_with = "nan_as_missing")]
    pub value: f64,
    #[serde(serialize_with = "nan_as_missing")]
    pub ci_low: f64,
    #[serde(serialize_with = "nan_as_missing")]
    pub ci_high: f64,
    /// `supported`, or `not-enough-data` (the note says why).
    pub support: Support,
    /// `pawns`, or `elo` for the calibration's worth of a pawn.
    pub unit: String,
    pub method: String,
    pub games: u64,
    /// Nodes per move of the engine that played the games (0 if unknown: `--data` runs).
    pub nodes: u64,
    pub seed: u64,
    pub version: String,
    pub note: String,
}

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
    /// no support, and no figures either.
    fn row(&self, piece: &str, (value, low, high): (f64, f64, f64), unit: &str, method: &str, games: u64) -> ValueRow {
        let finite = value.is_finite() && low.is_finite() && high.is_finite();
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
            method: method.into(),
            games,
            nodes: self.nodes,
            seed: self.seed,
            version: VERSION.into(),
            note: String::new(),
        }
    }
}

pub fn regression_rows(ctx: &Context, r: &Regression, model: &str) -> Vec<ValueRow> {
    let method = format!("regression-{model}");
    r.estimates
        .iter()
        .map(|e| {
            let figures =
                if e.support.is_supported() { (e.value, e.low, e.high) } else { (f64::NAN, f64::NAN, f64::NAN) };
            let mut row = ctx.row(&e.name, figures, "pawns", &method, r.games as u64);
            row.note = format!("{} positions, {} with this imbalance", r.positions, e.varied);
            if e.name == "white" || e.name == "side-to-move" {
                row.note = format!("{} positions", r.positions);
            }
            if !e.note.is_empty() {
                row.note = format!("{}; {}", e.note, row.note);
            }
            row
        })
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
        let mut row = ctx.row("elo-per-pawn", figures, "elo", "pawn-odds", games);
        row.note = cal.note.clone();
        if games < crate::stats::MIN_GAMES {
            row.note = format!("not enough games ({games}); {}", row.note);
        }
        rows.push(row);
    }
    for m in &r.comparisons {
        let Some(c) = &m.comparison else { continue };
        let interval = m.pawns.map_or((f64::NAN, f64::NAN, f64::NAN), |p| (p.value, p.low, p.high));
        let mut row = ctx.row(&c.label(), interval, "pawns", "imbalance", m.penta.games());
        row.note = [m.pawns_note.as_str(), m.note.as_str()]
            .into_iter()
            .filter(|n| !n.is_empty())
            .collect::<Vec<_>>()
            .join("; ");
        rows.push(row);
    }
    if let Ok(comb) = &r.combined {
        let games: u64 = cal.penta.games() + r.comparisons.iter().map(|m| m.penta.games()).sum::<u64>();
        // Only types that appear in some comparison have a value; the pawn is the unit.
        for m in &r.comparisons {
            let Some(c) = &m.comparison else { continue };
            for &letter in c.x.iter().chain(&c.y) {
                if rows.iter().any(|r| r.piece == letter.to_string() && r.method == "imbalance-lsq") {
                    continue;
                }
                let Some(t) = r.letters.iter().position(|&l| l == letter) else { continue };
                let figures = comb.values[t].map_or((f64::NAN, f64::NAN, f64::NAN), |v| (v.value, v.low, v.high));
                let mut row = ctx.row(&letter.to_string(), figures, "pawns", "imbalance-lsq", games);
                row.note = format!("least squares over {} matches, {}", r.equations, comb.additivity());
                if let Some(why) = &comb.unsupported {
                    row.note = format!("{why}; {}", row.note);
                }
                rows.push(row);
            }
        }
    }
    rows
}

/// Writes `values.csv` and `values.json` into `dir`.
pub fn write(dir: &Path, rows: &[ValueRow]) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let csv_path = dir.join("values.csv");
    let mut w = csv::Writer::from_path(&csv_path).map_err(|e| format!("cannot write {}: {e}", csv_path.display()))?;
    for r in rows {
        w.serialize(r).map_err(|e| format!("{}: {e}", csv_path.display()))?;
    }
    w.flush().map_err(|e| format!("{}: {e}", csv_path.display()))?;
    let json_path = dir.join("values.json");
    let text = serde_json::to_string_pretty(rows).map_err(|e| e.to_string())?;
    std::fs::write(&json_path, text + "\n").map_err(|e| format!("cannot write {}: {e}", json_path.display()))
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
