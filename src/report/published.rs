//! A report's measurements beside the figures published for its variant (the `[published]`
//! table of the variant file): the calibration a reader can check the engine against.
//! Orthodox chess is the one game with such figures; for the others this section is empty.

use super::figures::{Balance, Interval};
use super::names::Names;
use super::{PieceValue, ReportData};
use crate::maths::logistic::Model;
use crate::values::method::Method;
use crate::variant::config::Published;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// Where a measured interval lies against a published figure (or range of figures).
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Position {
    Below,
    /// The interval reaches the published figure (or range).
    Consistent,
    Above,
    NotEnoughData,
}

impl Position {
    fn of(measured: &Interval, low: f64, high: f64) -> Position {
        if !measured.is_defined() {
            Position::NotEnoughData
        } else if measured.high < low {
            Position::Below
        } else if measured.low > high {
            Position::Above
        } else {
            Position::Consistent
        }
    }

    fn words(self) -> &'static str {
        match self {
            Position::Below => "below",
            Position::Consistent => "consistent",
            Position::Above => "above",
            Position::NotEnoughData => super::verdict::NOT_ENOUGH,
        }
    }
}

/// One measured piece value against the published range of that piece.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ValueCheck {
    pub piece: String,
    pub method: String,
    pub measured: Interval,
    /// The lowest and highest published value of the piece.
    pub published_low: f64,
    pub published_high: f64,
    pub position: Position,
}

/// One balance run against each published White score, in Elo.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct BalanceCheck {
    pub label: String,
    pub games: u64,
    pub white_score: Interval,
    pub white_elo: Interval,
    /// Per published source (in the variant file's order), where the run lies.
    pub positions: Vec<Position>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PublishedCheck {
    pub figures: Published,
    pub balance: Vec<BalanceCheck>,
    pub values: Vec<ValueCheck>,
}

/// A White score as White's advantage in Elo.
pub fn score_elo(score: f64) -> f64 {
    crate::stats::score_to_elo(score)
}

/// The check of a report against its variant's published figures; None when the variant
/// has none (or no longer loads).
pub fn check(d: &ReportData) -> Option<PublishedCheck> {
    let variant = crate::Variant::load_with(&d.variant, &d.options).ok()?;
    let figures = variant.published().clone();
    if figures.balance.is_empty() && figures.values.is_empty() {
        return None;
    }
    let balance = d.balance.iter().map(|b| balance_check(b, &figures)).collect();
    let estimate = |m: &str| m.starts_with("regression") || m == "imbalance-lsq";
    let mut values: Vec<ValueCheck> =
        d.piece_values.iter().filter(|v| estimate(&v.method)).filter_map(|v| value_check(v, &figures)).collect();
    // The studies attached as evidence, each estimator under the study's name.
    for st in &d.studies {
        let own = |m: &Method| {
            matches!(
                m,
                Method::Regression { model: Model::Logistic, .. } | Method::ImbalanceLsq | Method::ImbalanceBracketLsq
            )
        };
        for r in st.rows.iter().filter(|r| r.unit == "pawns" && own(&r.method)) {
            let v = PieceValue { method: format!("{} · {}", st.name, r.method), ..PieceValue::of_row(r) };
            values.extend(value_check(&v, &figures));
        }
    }
    Some(PublishedCheck { figures, balance, values })
}

fn balance_check(b: &Balance, figures: &Published) -> BalanceCheck {
    let positions = figures
        .balance
        .iter()
        .map(|p| {
            let e = score_elo(p.white_score);
            Position::of(&b.white_elo, e, e)
        })
        .collect();
    BalanceCheck {
        label: b.label.clone(),
        games: b.games,
        white_score: b.white_score.clone(),
        white_elo: b.white_elo.clone(),
        positions,
    }
}

fn value_check(v: &PieceValue, figures: &Published) -> Option<ValueCheck> {
    let published: Vec<f64> = figures.values.iter().filter_map(|s| s.pieces.get(&v.piece).copied()).collect();
    if published.is_empty() {
        return None;
    }
    let low = published.iter().copied().fold(f64::INFINITY, f64::min);
    let high = published.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let measured = if super::format::defined(v) {
        Interval { value: v.value, low: v.low, high: v.high }
    } else {
        Interval::UNDEFINED
    };
    let position = Position::of(&measured, low, high);
    Some(ValueCheck {
        piece: v.piece.clone(),
        method: v.method.clone(),
        measured,
        published_low: low,
        published_high: high,
        position,
    })
}

/// The section, or nothing for a variant without published figures.
pub fn markdown(d: &ReportData, names: &Names) -> String {
    // Computed afresh like the estimators' agreement, so a page never shows a stale check.
    let Some(c) = &check(d) else { return String::new() };
    let mut s = String::from("\n## Against published figures\n\n");
    let mut found: Vec<String> = c.balance.iter().map(|b| balance_verdict(b, c)).collect();
    found.extend(values_verdicts(c, names));
    s += &super::format::verdicts(found);
    s += "The variant file lists figures from the literature; this engine's self-play is set beside them, so a reader can judge how far the report's other figures can be trusted.";
    if c.values.iter().any(|v| v.method.contains(" · ")) {
        s += " Piece values named `study · method` come from the value studies attached to this report, each with the player and starts its section names.";
    }
    s += "\n\n";
    if !c.figures.balance.is_empty() {
        s += &balance_md(c);
    }
    if !c.figures.values.is_empty() {
        s += &values_md(c, names);
    }
    s
}

fn balance_md(c: &PublishedCheck) -> String {
    let mut s = String::from("### First-move advantage\n\n");
    s += "| source | games | White's score | White's advantage (Elo) |\n|---|---|---|---|\n";
    for p in &c.figures.balance {
        let games = p.games.map_or("-".to_string(), |g| g.to_string());
        s += &format!(
            "| {} | {games} | {:.1} % | {:+.1} |\n",
            p.source,
            100.0 * p.white_score,
            score_elo(p.white_score)
        );
    }
    for b in &c.balance {
        s += &format!(
            "| this report, {} per move | {} | {} | {} |\n",
            b.label,
            b.games,
            super::format::pct(&b.white_score),
            super::format::elo(&b.white_elo)
        );
    }
    s += "\n";
    s
}

/// What one balance run says about the first-move advantage, and what the evidence points
/// to when it cannot show it.
fn balance_verdict(b: &BalanceCheck, c: &PublishedCheck) -> String {
    let e = &b.white_elo;
    if !e.is_defined() {
        return format!("At {}: {} to check the first-move advantage.", b.label, super::verdict::NOT_ENOUGH);
    }
    let half = (e.high - e.low) / 2.0;
    let list = |pos: Position| -> Vec<String> {
        c.figures
            .balance
            .iter()
            .zip(&b.positions)
            .filter(|(_, &p)| p == pos)
            .map(|(f, _)| format!("{} ({:+.1} Elo)", f.source, score_elo(f.white_score)))
            .collect()
    };
    let mut s = match super::verdict::sign(e) {
        Some(Ordering::Greater) => format!(
            "At {}: White's advantage, {:+.1} Elo [{:+.1}, {:+.1}] (±{half:.1}), lies above zero: the first-move advantage is seen.",
            b.label, e.value, e.low, e.high
        ),
        Some(Ordering::Less) => format!(
            "At {}: White's advantage, {:+.1} Elo [{:+.1}, {:+.1}] (±{half:.1}), lies below zero, against every published finding of a first-move advantage: the openings or the engine favour Black.",
            b.label, e.value, e.low, e.high
        ),
        _ => format!(
            "At {}: White's advantage, {:+.1} Elo [{:+.1}, {:+.1}] (±{half:.1}), includes zero: this run cannot show the first-move advantage.",
            b.label, e.value, e.low, e.high
        ),
    };
    let (below, consistent, above) = (list(Position::Above), list(Position::Consistent), list(Position::Below));
    let mut against = vec![];
    if !consistent.is_empty() {
        against.push(format!("consistent with {}", consistent.join(", ")));
    }
    if !above.is_empty() {
        against.push(format!("smaller than {}", above.join(", ")));
    }
    if !below.is_empty() {
        against.push(format!("larger than {}", below.join(", ")));
    }
    if !against.is_empty() {
        s += &format!(" It is {}.", against.join("; "));
    }
    // Published play shows White's edge growing with strength; a run that falls short of
    // strong engines' edge while matching weaker play's points to playing strength.
    if !above.is_empty() && (!consistent.is_empty() || !below.is_empty()) {
        s += " Published play shows White's edge growing with playing strength, so a smaller edge is what an engine weaker than those players should show.";
    }
    // The balance runs share their openings (same seed, one sequence): where another run
    // shows the advantage that this one misses, the openings are not what hides it. Whether
    // the engine's play at this budget is, depends on whether this interval excludes the
    // other run's edge; if it does not, this run is only too small to see it.
    if super::verdict::sign(e) != Some(Ordering::Greater) {
        let others: Vec<&BalanceCheck> = c
            .balance
            .iter()
            .filter(|o| o.label != b.label && super::verdict::sign(&o.white_elo) == Some(Ordering::Greater))
            .collect();
        let (excluded, contained): (Vec<&BalanceCheck>, Vec<&BalanceCheck>) =
            others.iter().partition(|o| o.white_elo.value > e.high);
        if !excluded.is_empty() {
            s += &format!(
                " At {} the same openings give White a larger advantage than this interval allows, so the evidence points to the engine's play at {}, not to the openings.",
                excluded.iter().map(|o| o.label.as_str()).collect::<Vec<_>>().join(" and "),
                b.label
            );
        }
        if !contained.is_empty() {
            let edges: Vec<String> =
                contained.iter().map(|o| format!("{:+.1} Elo at {}", o.white_elo.value, o.label)).collect();
            s += &format!(
                " The same openings give White {}, inside this interval: this run is too small to see an edge of that size, which is no evidence against it.",
                edges.join(" and ")
            );
        }
    }
    if half > 10.0 {
        s += &format!(
            " The interval is ±{half:.1} Elo; about {:.0} times the independent openings would narrow it to ±10.",
            (half / 10.0).powi(2)
        );
    }
    s
}

/// Per estimator, which pieces lie within, above and below the published range.
fn values_verdicts(c: &PublishedCheck, names: &Names) -> Vec<String> {
    let mut verdicts = vec![];
    let mut methods: Vec<&str> = c.values.iter().map(|v| v.method.as_str()).collect();
    methods.dedup();
    for method in methods {
        let rows: Vec<&ValueCheck> = c.values.iter().filter(|v| v.method == method).collect();
        let pick = |p: Position| -> Vec<String> {
            rows.iter().filter(|v| v.position == p).map(|v| names.prose(&v.piece)).collect()
        };
        let (inside, below, above) = (pick(Position::Consistent), pick(Position::Below), pick(Position::Above));
        let mut parts = vec![];
        if !inside.is_empty() {
            parts.push(format!("{} within the published range", inside.join(", ")));
        }
        if !above.is_empty() {
            parts.push(format!("{} above it", above.join(", ")));
        }
        if !below.is_empty() {
            parts.push(format!("{} below it", below.join(", ")));
        }
        if parts.is_empty() {
            verdicts.push(format!("`{method}`: {} to compare with the published values.", super::verdict::NOT_ENOUGH));
        } else {
            verdicts.push(format!("`{method}`: {}.", parts.join("; ")));
        }
    }
    verdicts
}

fn values_md(c: &PublishedCheck, names: &Names) -> String {
    let mut s = String::from("### Piece values\n\n");
    let sources: Vec<&str> = c.figures.values.iter().map(|v| v.source.as_str()).collect();
    s += &format!(
        "| piece | method | measured (pawns) | {} | published range | measured against it |\n",
        sources.join(" | ")
    );
    s += &format!("|---|---|---|{}---|---|\n", "---|".repeat(sources.len()));
    for v in &c.values {
        let each: Vec<String> = c
            .figures
            .values
            .iter()
            .map(|f| f.pieces.get(&v.piece).map_or("-".to_string(), |x| format!("{x:.2}")))
            .collect();
        let measured = if v.measured.is_defined() {
            format!("{:.2} [{:.2}, {:.2}]", v.measured.value, v.measured.low, v.measured.high)
        } else {
            super::verdict::NOT_ENOUGH.to_string()
        };
        s += &format!(
            "| {} | {} | {measured} | {} | {:.2}–{:.2} | {} |\n",
            names.label(&v.piece),
            v.method,
            each.join(" | "),
            v.published_low,
            v.published_high,
            v.position.words()
        );
    }
    s += "\n";
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iv(value: f64, low: f64, high: f64) -> Interval {
        Interval { value, low, high }
    }

    #[test]
    fn an_interval_is_placed_against_a_published_range() {
        assert_eq!(Position::of(&iv(3.0, 2.8, 3.1), 3.05, 3.25), Position::Consistent);
        assert_eq!(Position::of(&iv(2.5, 2.4, 2.9), 3.05, 3.25), Position::Below);
        assert_eq!(Position::of(&iv(11.0, 10.5, 12.0), 9.5, 9.75), Position::Above);
        assert_eq!(Position::of(&Interval::UNDEFINED, 9.5, 9.75), Position::NotEnoughData);
    }

    #[test]
    fn a_run_short_of_strong_engines_edge_points_to_playing_strength() {
        let figures: Published = toml::from_str(
            "[[balance]]\nsource = \"strong\"\nwhite_score = 0.543\n[[balance]]\nsource = \"weak\"\nwhite_score = 0.492\n",
        )
        .unwrap();
        let b = Balance {
            label: "2000 nodes".into(),
            nodes: 2000,
            games: 4000,
            white_score: iv(0.505, 0.49, 0.52),
            white_elo: iv(3.5, -6.0, 13.0),
            draw_rate: iv(0.3, 0.28, 0.32),
            decisive_rate: 0.7,
            openings: Some(2000),
        };
        let c = PublishedCheck { balance: vec![balance_check(&b, &figures)], values: vec![], figures };
        assert_eq!(c.balance[0].positions, vec![Position::Below, Position::Consistent]);
        let v = balance_verdict(&c.balance[0], &c);
        assert!(v.contains("includes zero"), "{v}");
        assert!(v.contains("consistent with weak"), "{v}");
        assert!(v.contains("smaller than strong"), "{v}");
        assert!(v.contains("playing strength"), "{v}");
        // ±9.5 Elo already meets the ±10 goal: no call for more games.
        assert!(!v.contains("narrow it"), "{v}");
    }

    fn run(label: &str, elo: Interval) -> Balance {
        Balance {
            label: label.into(),
            nodes: 2000,
            games: 800,
            white_score: iv(0.5, 0.45, 0.55),
            white_elo: elo,
            draw_rate: iv(0.3, 0.28, 0.32),
            decisive_rate: 0.7,
            openings: Some(400),
        }
    }

    #[test]
    fn a_run_that_misses_another_runs_edge_is_too_small_unless_it_excludes_it() {
        let figures: Published = toml::from_str("[[balance]]\nsource = \"s\"\nwhite_score = 0.54\n").unwrap();
        let seen = run("2000 nodes", iv(8.7, 0.6, 16.8));
        let check = |other: Balance| {
            let c = PublishedCheck {
                balance: vec![balance_check(&seen, &figures), balance_check(&other, &figures)],
                values: vec![],
                figures: figures.clone(),
            };
            balance_verdict(&c.balance[1], &c)
        };
        let wide = check(run("8000 nodes", iv(1.7, -17.5, 21.0)));
        assert!(wide.contains("too small to see an edge of that size"), "{wide}");
        assert!(!wide.contains("engine's play"), "{wide}");
        let short = check(run("8000 nodes", iv(-12.0, -20.0, -4.0)));
        assert!(short.contains("points to the engine's play at 8000 nodes"), "{short}");
        assert!(!short.contains("too small"), "{short}");
    }
}
