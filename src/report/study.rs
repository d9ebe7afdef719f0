//! Value studies attached to a report as evidence. A report's budget rarely has the games
//! to settle why its two estimators differ; an experiment (`fairylab experiment`) on the
//! same variant may. Its value table is read once (`fairylab report --study FILE`), kept in
//! report.json, and shown on the page beside the report's own figures: both estimators'
//! values, their ratios and common factor per pair of methods, and the phase refit's
//! verdict, from the study's own rows.

use super::names::Names;
use super::verdict::{gap_verdict, PHASE_CAUSE, START_CAUSE};
use super::ReportData;
use super::ReportError;
use crate::maths::logistic::Model;
use crate::values::agreement::{self, Agreement};
use crate::values::method::{Fit, Method};
use crate::values::scale::{ORTHODOX_UNIT, RATIO_UNIT};
use crate::values::table::ValueRow;
use serde::{Deserialize, Serialize};
use std::path::Path;

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Study {
    /// The table's folder name (an experiment's output is named after the experiment).
    pub name: String,
    /// The path the table was read from, as given.
    pub source: String,
    pub variant: String,
    pub options: Vec<String>,
    /// The experiment's description, from the `experiment.toml` beside the table.
    #[serde(default)]
    pub description: String,
    /// Where its imbalance matches started: the experiment's `starts` file, or None for
    /// the variant's start position (or no experiment file beside the table).
    #[serde(default)]
    pub starts: Option<String>,
    /// Whether an experiment file was found beside the table.
    #[serde(default)]
    pub described: bool,
    /// The command-line settings it was played with (`--scale 0.35`, `--engine "..."`),
    /// from the `# played with` lines the experiment writes at the top of that file.
    #[serde(default)]
    pub played_with: Vec<String>,
    pub rows: Vec<ValueRow>,
}

impl Study {
    /// Reads a value table (an experiment's `fairylab.csv`, a `values.csv`) as studies,
    /// one per variant and option set that has both estimators in it.
    pub fn read(path: &Path) -> Result<Vec<Study>, ReportError> {
        let rows = crate::values::table::read(path)?;
        let mut groups: Vec<(String, String)> = vec![];
        for r in &rows {
            let key = (r.variant.clone(), r.options.clone());
            if !groups.contains(&key) {
                groups.push(key);
            }
        }
        let folder = path
            .parent()
            .and_then(|p| p.file_name())
            .or_else(|| path.file_stem())
            .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        // An experiment writes the file it ran beside its table; a kept study carries it.
        let file = path.with_file_name("experiment.toml");
        let (experiment, played_with) = match std::fs::read_to_string(&file) {
            Ok(text) => {
                let e = crate::values::experiment::Experiment::parse(&text, &file.display().to_string())?;
                let with = text
                    .lines()
                    .filter_map(|l| l.strip_prefix(crate::values::experiment::PLAYED_WITH))
                    .map(String::from)
                    .collect();
                (Some(e), with)
            }
            Err(_) => (None, vec![]),
        };
        let several = groups.len() > 1;
        let mut out = vec![];
        for (variant, options) in groups {
            let rows: Vec<ValueRow> =
                rows.iter().filter(|r| r.variant == variant && r.options == options).cloned().collect();
            // A table without both estimators still serves the answer card when it has
            // values on the orthodox scale or ratios (a regression study).
            let scaled = rows.iter().any(|r| r.unit == ORTHODOX_UNIT || r.unit == RATIO_UNIT);
            if comparisons(&rows).is_empty() && !scaled {
                continue;
            }
            let name =
                if several { format!("{folder} ({variant}, {})", options_text(&options)) } else { folder.clone() };
            out.push(Study {
                name,
                source: path.display().to_string(),
                variant,
                options: split_options(&options),
                description: experiment.as_ref().map_or(String::new(), |e| e.description.clone()),
                starts: experiment
                    .as_ref()
                    .and_then(|e| e.imbalance.as_ref())
                    .and_then(|i| i.starts.as_ref())
                    .map(|p| p.display().to_string()),
                described: experiment.is_some(),
                played_with: played_with.clone(),
                rows,
            });
        }
        if out.is_empty() {
            return Err(ReportError::Study(format!(
                "{}: no piece has both an imbalance least-squares value and a regression value, and no value is on the orthodox scale, so the table can neither be set against a report's estimators nor feed its answer card",
                path.display()
            )));
        }
        Ok(out)
    }

    /// Whether the study is of the report's variant and options (in any order).
    pub fn matches(&self, d: &ReportData) -> bool {
        self.matches_with(&d.variant, &d.options, None)
    }

    /// Whether the study is of `variant` with `options` and `extra` (in any order).
    pub fn matches_with(&self, variant: &str, options: &[String], extra: Option<&str>) -> bool {
        let sorted = |o: &mut Vec<String>| {
            o.sort();
            o.clone()
        };
        let mut wanted: Vec<String> = options.iter().cloned().chain(extra.map(String::from)).collect();
        self.variant == variant && sorted(&mut self.options.clone()) == sorted(&mut wanted)
    }

    /// A table with only one estimator: it feeds the answer card, not the section that sets
    /// the two estimators against each other.
    pub fn for_card_only(&self) -> bool {
        comparisons(&self.rows).is_empty()
    }

    fn games(&self) -> u64 {
        self.rows.iter().map(|r| r.games).max().unwrap_or(0)
    }
}

fn split_options(s: &str) -> Vec<String> {
    s.split('+').filter(|o| !o.is_empty()).map(String::from).collect()
}

fn options_text(s: &str) -> &str {
    if s.is_empty() {
        "no options"
    } else {
        s
    }
}

/// Adds the studies of the report's variant to it, each replacing an earlier one of the
/// same name; the others are returned.
pub fn attach<'a>(d: &mut ReportData, studies: &'a [Study]) -> Vec<&'a Study> {
    let mut others = vec![];
    for s in studies {
        if !s.matches(d) {
            // A study of the report's rules plus one of its options feeds that option's card.
            match d.option_effects.iter_mut().find(|o| s.matches_with(&d.variant, &d.options, Some(&o.option))) {
                Some(o) => keep(&mut o.evidence, s),
                None => others.push(s),
            }
            continue;
        }
        if s.for_card_only() {
            keep(&mut d.evidence, s);
        } else {
            keep(&mut d.studies, s);
        }
    }
    others
}

/// `s` in `list`, in place of an older study of the same name.
fn keep(list: &mut Vec<Study>, s: &Study) {
    list.retain(|old| old.name != s.name);
    list.push(s.clone());
}

/// The studies kept in an earlier report.json in `dir` (none if there is none), so that
/// replaying or extending a report does not drop its evidence. A report.json that does not
/// parse is an error rather than a silent loss of the studies it holds.
pub fn kept(dir: &Path) -> Result<Vec<Study>, ReportError> {
    let path = dir.join("report.json");
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(vec![]),
        Err(e) => return Err(ReportError::io("read", &path, e)),
    };
    let broken = |e: serde_json::Error| {
        ReportError::Unreadable {
        path: path.clone(),
        reason: format!(
            "{e}; it may hold value studies that this run would drop: mend the file, or delete it (the games under runs/ are kept and replayed)"
        ),
    }
    };
    let json = serde_json::from_str::<serde_json::Value>(&text).map_err(broken)?;
    let mut out: Vec<Study> = vec![];
    for key in ["studies", "evidence"] {
        if let Some(s) = json.get(key) {
            out.extend(serde_json::from_value::<Vec<Study>>(s.clone()).map_err(broken)?);
        }
    }
    Ok(out)
}

/// One imbalance method set against one regression method, over the pieces both value.
struct Comparison {
    imbalance: Method,
    regression: Method,
    test: Agreement,
}

const IMBALANCE_METHODS: [Method; 2] = [Method::ImbalanceLsq, Method::ImbalanceBracketLsq];

/// Whether a regression method is a study's main fit (not a refit testing a cause).
fn is_main(method: &Method) -> bool {
    method.fit() == Some(Fit::Positions)
}

/// The cause a refit tests, if the method is one.
fn refit_cause(method: &Method) -> Option<&'static str> {
    match method.fit() {
        Some(Fit::Phase(_)) => Some(PHASE_CAUSE),
        Some(Fit::Start) => Some(START_CAUSE),
        _ => None,
    }
}

fn comparisons(rows: &[ValueRow]) -> Vec<Comparison> {
    let mut regressions: Vec<&Method> = rows.iter().map(|r| &r.method).filter(|m| m.is_regression()).collect();
    // The main fit first, then its refits.
    regressions.sort_by_key(|m| (!is_main(m), m.to_string()));
    regressions.dedup();
    let mut out = vec![];
    for imbalance in IMBALANCE_METHODS {
        for regression in &regressions {
            let pairs = agreement::pairs_of(rows, &imbalance, regression);
            if !pairs.is_empty() {
                let test = agreement::compare(&pairs);
                out.push(Comparison { imbalance: imbalance.clone(), regression: (*regression).clone(), test });
            }
        }
    }
    out
}

/// A method as the page names it.
fn method_label(method: &Method) -> String {
    match method {
        Method::ImbalanceLsq => "imbalance matches".into(),
        Method::ImbalanceBracketLsq => "imbalance matches, local pawns".into(),
        Method::Regression { model, fit } => {
            let mut label = match model {
                Model::Logistic => "regression".to_string(),
                other => format!("regression ({})", other.name()),
            };
            match fit {
                Fit::Positions => {}
                Fit::Phase(share) => label += &format!(", ≥ {share} of the pieces"),
                Fit::Start => label += " on the start's material",
            }
            label
        }
        other => other.to_string(),
    }
}

fn interval(r: &ValueRow) -> String {
    if r.support.is_supported() && r.value.is_finite() {
        format!("{:.2} [{:.2}, {:.2}]", r.value, r.ci_low, r.ci_high)
    } else {
        super::format::NOT_ENOUGH.into()
    }
}

/// The section, empty without studies.
pub(super) fn markdown(d: &ReportData, names: &Names) -> String {
    if d.studies.is_empty() {
        return String::new();
    }
    let mut s = String::from("## Value studies\n\n");
    s += &super::format::verdicts(
        d.studies
            .iter()
            .map(|st| match headline(st) {
                Some(h) => format!("Study `{}` ({} games): {h}.", st.name, st.games()),
                None => format!("Study `{}` ({} games): {}.", st.name, st.games(), super::format::NOT_ENOUGH),
            })
            .collect(),
    );
    s += &String::from(
        "Experiments on this variant, attached as evidence (`fairylab report --study FILE`). Their games are not this report's; the folder of each names the experiment that made it (`configs/experiments/<name>.toml`, written up in `data/studies/README.md` for the shipped ones).\n",
    );
    for study in &d.studies {
        s += &one(d, study, names);
    }
    s
}

fn one(d: &ReportData, study: &Study, names: &Names) -> String {
    let rows = &study.rows;
    let first = &rows[0];
    let nodes = rows.iter().map(|r| r.nodes).max().unwrap_or(0);
    let mut s = format!(
        "\n### {}\n\n`{}`: {} games{}, seed {}, fairylab {}.",
        study.name,
        study.source,
        study.games(),
        if nodes > 0 { format!(" at {} nodes per move", nodes) } else { String::new() },
        first.seed,
        first.version
    );
    if study.described {
        let description = study.description.trim_end_matches('.');
        if !description.is_empty() {
            s += &format!(" {description}.");
        }
        if !study.played_with.is_empty() {
            s += &format!(" Played with `{}`.", study.played_with.join("`, `"));
        }
        if rows.iter().any(|r| r.method == Method::ImbalanceLsq) {
            s += &match &study.starts {
                Some(p) => {
                    format!(" Its imbalance matches start from the positions in `{p}`, the pieces removed there.")
                }
                None => " Its imbalance matches start from the variant's start position.".into(),
            };
        }
    }
    for (method, what) in [(Method::ImbalanceLsq, "Imbalance matches"), (Method::ImbalanceBracketLsq, "Local pawns")] {
        if let Some(r) = rows.iter().find(|r| r.method == method && r.note.starts_with("least squares")) {
            s += &format!(" {what}: {}.", r.note);
        }
    }
    if let Some(r) = rows.iter().find(|r| r.method == Method::PawnOdds && r.piece == "elo-per-pawn") {
        s += &format!(" Pawn odds ({}): {} Elo per pawn.", r.note, interval(r));
    }
    s += "\n\n";
    let comparisons = comparisons(rows);
    let mut methods: Vec<&Method> = vec![];
    for c in &comparisons {
        for m in [&c.imbalance, &c.regression] {
            if !methods.contains(&m) {
                methods.push(m);
            }
        }
    }
    let mut pieces: Vec<&str> =
        comparisons.iter().flat_map(|c| c.test.pieces.iter().map(|p| p.piece.as_str())).collect();
    pieces.sort_unstable();
    pieces.dedup();
    let find = |piece: &str, method: &Method| {
        rows.iter().find(|r| r.piece == piece && &r.method == method && r.unit == "pawns")
    };
    // Values, one column per method.
    s += "| piece |";
    for m in &methods {
        s += &format!(" {} |", method_label(m));
    }
    s += "\n|---|";
    s += &"---|".repeat(methods.len());
    s += "\n";
    for p in &pieces {
        s += &format!("| {} |", names.label(p));
        for m in &methods {
            s += &format!(" {} |", find(p, m).map_or("-".into(), interval));
        }
        s += "\n";
    }
    // Ratios, one column per comparison, and the common factor beneath.
    s += "\n| imbalance / regression |";
    for c in &comparisons {
        s += &format!(" {} / {} |", method_label(&c.imbalance), method_label(&c.regression));
    }
    s += "\n|---|";
    s += &"---|".repeat(comparisons.len());
    s += "\n";
    for p in &pieces {
        s += &format!("| {} |", names.label(p));
        for c in &comparisons {
            s += &match c.test.pieces.iter().find(|a| a.piece == *p) {
                Some(a) => format!(
                    " {:.2} [{:.2}, {:.2}]{} |",
                    a.ratio,
                    a.ratio_low,
                    a.ratio_high,
                    match (a.disagree, a.beyond_quarter) {
                        (true, _) => ", disagree",
                        (false, true) => ", apart",
                        _ => "",
                    }
                ),
                None => " - |".into(),
            };
        }
        s += "\n";
    }
    s += "| common factor |";
    for c in &comparisons {
        s += &match &c.test.scale {
            Some(k) if k.dof > 0 => format!(
                " {:.2} [{:.2}, {:.2}]; chi2 {:.2} on {} dof, {} |",
                k.factor,
                k.low,
                k.high,
                k.chi2,
                k.dof,
                crate::maths::chi2::p_text(k.p_value)
            ),
            Some(k) => format!(" {:.2} [{:.2}, {:.2}] |", k.factor, k.low, k.high),
            None => format!(" {} |", super::format::NOT_ENOUGH),
        };
    }
    s += "\n\n";
    s + &verdicts(&comparisons, names) + &against_report(d, rows)
}

/// This report's values over the study's, per estimator, as one factor each: how far the
/// report's unit lies from the study's (their games are independent).
fn against_report(d: &ReportData, rows: &[ValueRow]) -> String {
    use agreement::{Estimate, PiecePair};
    let main_regression = comparisons(rows).into_iter().map(|c| c.regression).find(is_main);
    let mut parts = vec![];
    let mut factors = vec![];
    for (label, ours, theirs) in [
        ("imbalance matches", "imbalance-lsq", Some(Method::ImbalanceLsq)),
        ("regression", "regression", main_regression),
    ] {
        let Some(theirs) = theirs else { continue };
        let pairs: Vec<PiecePair> = d
            .piece_values
            .iter()
            .filter(|v| v.method.starts_with(ours) && v.piece.chars().count() == 1 && v.piece != "P")
            .filter(|v| super::format::defined(v))
            .filter_map(|v| {
                let r = rows.iter().find(|r| {
                    r.piece == v.piece && r.method == theirs && r.unit == "pawns" && r.support.is_supported()
                })?;
                Some(PiecePair {
                    piece: v.piece.clone(),
                    regression: Estimate { value: r.value, low: r.ci_low, high: r.ci_high },
                    imbalance: Estimate { value: v.value, low: v.low, high: v.high },
                })
            })
            .collect();
        if let Some(k) = agreement::compare(&pairs).scale {
            let fit = if k.dof == 0 {
                String::new()
            } else {
                format!(
                    " ({} on {} piece{}: chi2 {:.2} on {} dof, {})",
                    if k.p_value >= 0.05 { "one factor fits" } else { "one factor does not fit" },
                    pairs.len(),
                    if pairs.len() == 1 { "" } else { "s" },
                    k.chi2,
                    k.dof,
                    crate::maths::chi2::p_text(k.p_value)
                )
            };
            parts.push(format!("{label} {:.2} [{:.2}, {:.2}]{fit}", k.factor, k.low, k.high));
            factors.push(k.factor);
        }
    }
    if parts.is_empty() {
        return String::new();
    }
    // The report's factor splits into the step between the two imbalance units, the
    // study's own factor, and the step between the two regressions.
    let study_factor = comparisons(rows)
        .into_iter()
        .find(|c| c.imbalance == Method::ImbalanceLsq && is_main(&c.regression))
        .and_then(|c| c.test.scale)
        .map(|k| k.factor);
    let together = match (factors.as_slice(), study_factor, super::estimators::agreement(&d.piece_values).scale) {
        ([imbalance, regression], Some(m), Some(r)) => format!(
            " Together, {imbalance:.2} × {m:.2} / {regression:.2} = {:.2}, against this report's own factor of {:.2}: the report's factor splits into these three steps.",
            imbalance * m / regression,
            r.factor
        ),
        _ => String::new(),
    };
    format!(
        "This report's values over the study's, by the same estimator: {}. A factor away from 1 means the two measure the pieces in different pawns (other starts, phase filter or budget).{together}\n\n",
        parts.join("; ")
    )
}

/// Per comparison, the pieces apart or disagreeing; per refit, whether the phase accounts
/// for the main fit's factor.
fn verdicts(comparisons: &[Comparison], names: &Names) -> String {
    let mut items = vec![];
    for c in comparisons {
        let label = |f: &dyn Fn(&agreement::PieceAgreement) -> bool| -> Vec<String> {
            c.test
                .pieces
                .iter()
                .filter(|a| f(a))
                .map(|a| format!("{} ({:.2})", names.label(&a.piece), a.ratio))
                .collect()
        };
        let apart = label(&|a| a.beyond_quarter);
        let disagree = label(&|a| a.disagree);
        let mut t = format!("{} against {}: ", method_label(&c.imbalance), method_label(&c.regression));
        t += &if apart.is_empty() {
            format!("every piece within {} times", agreement::QUOTABLE)
        } else {
            format!("more than {} times apart for {}", agreement::QUOTABLE, apart.join(", "))
        };
        t += &if disagree.is_empty() {
            ", each within its errors".to_string()
        } else {
            format!("; beyond their errors for {}", disagree.join(", "))
        };
        if let Some(cause) = refit_cause(&c.regression) {
            let main = comparisons
                .iter()
                .find(|m| m.imbalance == c.imbalance && is_main(&m.regression))
                .and_then(|m| m.test.scale.as_ref());
            if let (Some(main), Some(refit)) = (main, c.test.scale.as_ref()) {
                t += &format!(
                    ". {} the factor is {:.2} [{:.2}, {:.2}] instead of {:.2}: {}",
                    if cause == PHASE_CAUSE { "On the fuller board" } else { "Priced from the start's material" },
                    refit.factor,
                    refit.low,
                    refit.high,
                    main.factor,
                    gap_verdict(main, refit, "the study's", cause)
                );
            }
        }
        items.push(t + ".");
    }
    items.iter().map(|i| format!("* {i}\n")).collect::<String>() + "\n"
}

/// A study's finding in one sentence: the main factor between the estimators and, where
/// the study has it, the phase refit's and its verdict.
fn headline(study: &Study) -> Option<String> {
    let comparisons = comparisons(&study.rows);
    let factor =
        |c: &Comparison| c.test.scale.as_ref().map(|k| format!("{:.2} [{:.2}, {:.2}]", k.factor, k.low, k.high));
    let main = comparisons.iter().find(|c| c.imbalance == Method::ImbalanceLsq && is_main(&c.regression))?;
    let mut line = format!("imbalance matches over regression {}", factor(main)?);
    for c in comparisons.iter().filter(|c| c.imbalance == Method::ImbalanceLsq) {
        let Some(cause) = refit_cause(&c.regression) else { continue };
        if let (Some(f), Some(m), Some(r)) = (factor(c), main.test.scale.as_ref(), c.test.scale.as_ref()) {
            line += &format!("; over {} {f}: {}", method_label(&c.regression), gap_verdict(m, r, "the study's", cause));
        }
    }
    Some(line)
}

/// One line per study for the cross-variant summary.
pub(super) fn summary_lines(d: &ReportData) -> Vec<String> {
    d.studies
        .iter()
        .filter_map(|s| Some(format!("{} ({} games, `{}`): {}", d.title, s.games(), s.name, headline(s)?)))
        .collect()
}

/// Whether any study has the phase refit, so the report's own paragraph can point to it.
pub(super) fn any_refit(d: &ReportData) -> bool {
    d.studies.iter().any(|s| s.rows.iter().any(|r| matches!(r.method.fit(), Some(Fit::Phase(_)))))
}
