//! The piece-value sections of report.md and report.html: the Flying Bomber against the
//! Rook, every piece by both estimators and their agreement, the pawn's local prices and
//! the values' sensitivity to the engine's settings.

use super::estimators::agreement;
use super::figures::Interval;
use super::format::{
    as_interval, defined, options_label, plain, rules_label, signed_or_plain, signed_pawns, value_cells, verdicts,
    NOT_ENOUGH,
};
use super::names::Names;
use super::verdict::{gap_verdict, PHASE_CAUSE};
use super::{verdict, PieceValue, ReportData};

/// Every F-R estimate of a report: in its own rules (no option) and with each option added.
pub(super) fn bomber_estimates(d: &ReportData) -> Vec<(Option<&str>, &PieceValue)> {
    d.piece_values
        .iter()
        .map(|v| (None, v))
        .chain(d.option_effects.iter().flat_map(|o| o.piece_values.iter().map(move |v| (Some(o.option.as_str()), v))))
        .filter(|(_, v)| v.piece == "F-R")
        .collect()
}

/// The bomber games' headline question, first: the Flying Bomber's worth against the
/// Rook's, by each estimator, in this report's rules and with each option added.
pub(super) fn bomber_headline(d: &ReportData, names: &Names) -> String {
    let rows = bomber_estimates(d);
    if rows.is_empty() {
        return String::new();
    }
    let mut s = String::from("## Flying Bomber against Rook\n\n");
    for (option, v) in &rows {
        let rules = option.map_or(options_label(d), |o| format!("{} + {o}", options_label(d)));
        s += &format!("* {rules}, {}: {}\n", v.method, bomber_verdict(names, v));
    }
    s += "\nThe bomber's worth minus the rook's, in pawns (positive: the bomber is worth more).\n\n| rules | method | F - R (pawns) | 95 % interval | games |\n|---|---|---|---|---|\n";
    for (option, v) in rows {
        let rules = option.map_or(options_label(d), |o| format!("{} + {o}", options_label(d)));
        s += &format!("| {rules} | {} | {} | {} |\n", v.method, value_cells(v, true), v.games);
    }
    s + "\n" + &pawn_prices_md(d)
}

pub(super) fn bomber_verdict(names: &Names, v: &PieceValue) -> String {
    verdict::difference(&names.prose("F"), &names.prose("R"), &as_interval(v))
}

/// Every piece value, the two estimators side by side when both measured a piece.
pub(super) fn piece_values_md(d: &ReportData, names: &Names) -> String {
    let mut s = String::new();
    s += "\n## Piece values\n\n";
    if d.piece_values.is_empty() {
        s += "Not measured in this report.\n";
    } else {
        // The two estimators of each piece in one row.
        let pieces: Vec<&str> = {
            let mut v: Vec<&str> = d
                .piece_values
                .iter()
                .map(|p| p.piece.as_str())
                .filter(|p| p.chars().count() == 1 && *p != "P")
                .collect();
            v.dedup();
            v
        };
        let find = |piece: &str, prefix: &str| {
            d.piece_values.iter().find(|v| v.piece == piece && v.method.starts_with(prefix))
        };
        let cell = |v: Option<&PieceValue>| v.map_or("- | -".to_string(), |v| value_cells(v, false));
        if pieces.iter().any(|p| find(p, "imbalance-lsq").is_some()) {
            let test = agreement(&d.piece_values);
            s += &estimators_verdict(&test, &pieces, names);
            s += "Both estimators side by side (pawns, 95 % intervals), and their ratio tested on the log scale (z-test of ln(imbalance / regression), the two intervals' errors combined):\n\n| piece | regression | interval | imbalance matches | interval | imbalance / regression | test |\n|---|---|---|---|---|---|---|\n";
            for p in &pieces {
                let (r, i) = (find(p, "regression"), find(p, "imbalance-lsq"));
                let (ratio, test) = match test.pieces.iter().find(|a| a.piece == *p) {
                    Some(a) => (
                        format!("{:.2} [{:.2}, {:.2}]", a.ratio, a.ratio_low, a.ratio_high),
                        if a.disagree {
                            format!("**disagree** (z {:+.1})", a.z)
                        } else {
                            format!("agree (z {:+.1})", a.z)
                        },
                    ),
                    None => ("-".into(), NOT_ENOUGH.into()),
                };
                s += &format!("| {} | {} | {} | {ratio} | {test} |\n", names.label(p), cell(r), cell(i));
            }
            if let Some(k) = &test.scale {
                let check = match k.dof {
                    0 => "one piece tested, so whether one factor fits every piece is not tested".to_string(),
                    n => format!(
                        "one factor for every piece {} (chi2 {:.2} on {n} degree{} of freedom, {})",
                        if k.p_value < 0.05 { "does not fit" } else { "fits" },
                        k.chi2,
                        if n == 1 { "" } else { "s" },
                        crate::maths::chi2::p_text(k.p_value)
                    ),
                };
                s += &format!(
                    "\nOne unit: the imbalance values are {:.2} [{:.2}, {:.2}] times the regression's (the weighted mean of the log-ratios); {check}.\n",
                    k.factor, k.low, k.high
                );
            }
            let apart: Vec<String> = test
                .pieces
                .iter()
                .filter(|a| a.disagree)
                .map(|a| format!("{} (ratio {:.2})", names.label(&a.piece), a.ratio))
                .collect();
            let far: Vec<String> = test
                .pieces
                .iter()
                .filter(|a| a.beyond_quarter && !a.disagree)
                .map(|a| {
                    format!(
                        "{} (ratio {:.2} [{:.2}, {:.2}])",
                        names.label(&a.piece),
                        a.ratio,
                        a.ratio_low,
                        a.ratio_high
                    )
                })
                .collect();
            let unit_gap =
                test.scale.as_ref().is_some_and(|k| k.dof > 0 && k.p_value >= 0.05 && (k.low > 1.0 || k.high < 1.0));
            if (!apart.is_empty() || !far.is_empty()) && unit_gap {
                let which = match (apart.is_empty(), far.is_empty()) {
                    (false, true) => format!("The estimators disagree beyond their errors for {}", apart.join(", ")),
                    (true, false) => format!(
                        "The values are more than {} times apart for {}, each within its errors",
                        crate::values::agreement::QUOTABLE,
                        far.join(", ")
                    ),
                    _ => format!(
                        "The estimators disagree beyond their errors for {}, and are more than {} times apart within their errors for {}",
                        apart.join(", "),
                        crate::values::agreement::QUOTABLE,
                        far.join(", ")
                    ),
                };
                s += &format!(
                    "\n{which}. Why: one factor fits every piece and its interval excludes 1, so the two estimators agree on the pieces' order and proportions and differ in the pawn's worth against the pieces. One cause to test is the phase: the imbalance matches trade with nearly every piece on the board, the regression averages positions from the middlegame to the endgame, and a pawn's worth against the pieces grows as pieces come off.{} Quote values in one estimator's unit and name it.\n",
                    phase_evidence(d, test.scale.as_ref())
                );
            } else {
                if !apart.is_empty() {
                    s += &format!(
                        "\nThe estimators disagree beyond their errors for {}. They answer different questions: the regression is a piece's average worth over self-play positions with unequal material, from the opening to the endgame; an imbalance match is its worth when it is traded at the start of the game for the pieces it is matched against, in pawns as worth at the start. A gap means the piece's worth depends on the phase or on what it is traded for; the matches in the rows below show which trade.\n",
                        apart.join(", ")
                    );
                }
                if !far.is_empty() {
                    s += &format!(
                        "\nThe values are more than {} times apart for {}, each within its errors, and no common factor both fits every piece and excludes 1: the data cannot yet tell whether the two estimators differ for these pieces (the intervals of the ratio are wider than the gap).{}{}\n",
                        crate::values::agreement::QUOTABLE,
                        far.join(", "),
                        wider_estimator(&test, &find),
                        phase_evidence(d, test.scale.as_ref())
                    );
                    if !d.studies.is_empty() {
                        s.pop();
                        s += " The value studies below measure the two estimators with more games.\n";
                    }
                }
            }
            let unvalued: Vec<String> = pieces
                .iter()
                .filter(|p| find(p, "imbalance-lsq").is_some_and(|v| !defined(v)))
                .map(|p| names.label(p))
                .collect();
            if !unvalued.is_empty() {
                let widened = chain_test(d).is_some_and(|t| t.contains("errors scaled"));
                s += &format!(
                    "\nThe imbalance matches give no value for {}: their least squares does not pin the pawn's worth down well enough (its interval{} comes close to zero), so each of these pieces' intervals in pawns would reach past ±{} pawns.\n",
                    unvalued.join(", "),
                    if widened { ", widened for the matches' disagreement," } else { "" },
                    crate::values::table::MAX_PAWNS
                );
            }
            s += &pawn_steps_md(d, names);
            s += "\nAll rows:\n\n";
        }
        s += "| piece | value (pawns) | 95 % interval | method | games |\n|---|---|---|---|---|\n";
        for v in &d.piece_values {
            s += &format!("| {} | {} | {} | {} |\n", names.label(&v.piece), value_cells(v, false), v.method, v.games);
        }
    }
    s + &sensitivity_md(d, names)
}

/// The phase test of a unit gap: the imbalance values against the regression refitted on
/// the positions nearest the full board (the sensitivity table's other `min-pieces`), the
/// material the imbalance matches start from. A factor that falls towards 1 there says the
/// gap is the phase.
fn phase_evidence(d: &ReportData, scale: Option<&crate::values::agreement::Scale>) -> String {
    use crate::values::agreement::{compare, Estimate, PiecePair};
    let (Some(x), Some(k)) = (d.sensitivity.iter().find(|x| x.setting == "min-pieces"), scale) else {
        return String::new();
    };
    let imbalance = |p: &str| d.piece_values.iter().find(|v| v.piece == p && v.method == "imbalance-lsq" && defined(v));
    let finite = |i: &Interval| i.value.is_finite() && i.low > 0.0 && i.high.is_finite();
    let mut pairs = vec![];
    let mut missing = false;
    for r in x.rows.iter().filter(|r| r.unit == "pawns" && r.quantity.chars().count() == 1 && r.quantity != "P") {
        let Some(i) = imbalance(&r.quantity) else { continue };
        if !finite(&r.other) {
            missing = true;
            continue;
        }
        pairs.push(PiecePair {
            piece: r.quantity.clone(),
            regression: Estimate { value: r.other.value, low: r.other.low, high: r.other.high },
            imbalance: Estimate { value: i.value, low: i.low, high: i.high },
        });
    }
    let refit =
        format!("the regression refitted on the positions with at least {} of the start position's pieces", x.other);
    let refit_scale = compare(&pairs).scale;
    match refit_scale {
        Some(r) if !missing => format!(
            " Against {refit} (nearer the matches' material), the factor is {:.2} [{:.2}, {:.2}] instead of {:.2}: {}.",
            r.factor,
            r.low,
            r.high,
            k.factor,
            gap_verdict(k, &r, "the report's", PHASE_CAUSE)
        ),
        _ if super::study::any_refit(d) => format!(
            " {} has {NOT_ENOUGH} in this report to test that; the value studies below test it with more games.",
            verdict::capitalise(&refit)
        ),
        _ => format!(" {} has {NOT_ENOUGH} in this report to test that.", verdict::capitalise(&refit)),
    }
}

/// Which estimator's intervals are wider (on the log scale) for the pieces more than
/// `QUOTABLE` apart, as advice on where more games narrow the ratio most.
fn wider_estimator<'a>(
    test: &crate::values::agreement::Agreement,
    find: &dyn Fn(&str, &str) -> Option<&'a PieceValue>,
) -> String {
    let log_width = |v: Option<&PieceValue>| v.filter(|v| v.low > 0.0).map(|v| (v.high / v.low).ln());
    let (mut regression, mut imbalance) = (0, 0);
    for a in test.pieces.iter().filter(|a| a.beyond_quarter && !a.disagree) {
        match (log_width(find(&a.piece, "regression")), log_width(find(&a.piece, "imbalance-lsq"))) {
            (Some(r), Some(i)) if r > i => regression += 1,
            (Some(_), Some(_)) => imbalance += 1,
            _ => {}
        }
    }
    match (regression, imbalance) {
        (0, 0) => String::new(),
        (_, 0) => " The regression's intervals are the wider: more regression games narrow the ratio most.".into(),
        (0, _) => " The imbalance matches' intervals are the wider: more match games narrow the ratio most.".into(),
        _ => " Both estimators' intervals matter: more games for either narrow the ratio.".into(),
    }
}

/// The additivity test of the report's own imbalance chain, from its note
/// (`Imbalance matches (variant): least squares over ...`).
fn chain_test(d: &ReportData) -> Option<&str> {
    let own = format!("({}): ", d.variant);
    d.notes
        .iter()
        .filter(|n| n.contains("additivity chi2"))
        .find_map(|n| n.split_once(own.as_str()))
        .map(|(_, t)| t.trim_end_matches('.'))
}

/// A comparison label (`N-(P+P+P)`, `N+P-R`) as its two sides' letters, sorted.
fn sides(label: &str) -> Option<(Vec<char>, Vec<char>)> {
    let (x, y) = label.split_once('-')?;
    let side = |t: &str| {
        let mut v: Vec<char> =
            t.trim_matches(|c| c == '(' || c == ')').split('+').filter_map(|p| p.chars().next()).collect();
        v.sort_unstable();
        v
    };
    Some((side(x), side(y)))
}

/// Pairs of imbalance matches that differ only in the pawns given to the second side: if
/// values add up, k more pawns move the result by k start-position pawns. Where the chain's
/// additivity test fails, these pairs show the reader where (each match keeps its own
/// interval; the shift is their difference).
fn pawn_steps(d: &ReportData) -> Vec<(&PieceValue, &PieceValue, usize)> {
    let matches: Vec<(&PieceValue, Vec<char>, Vec<char>)> = d
        .piece_values
        .iter()
        .filter(|v| v.method == "imbalance" && defined(v))
        .filter_map(|v| sides(&v.piece).map(|(x, y)| (v, x, y)))
        .collect();
    let pawns = |y: &[char]| y.iter().filter(|&&c| c == 'P').count();
    let others = |y: &[char]| y.iter().copied().filter(|&c| c != 'P').collect::<Vec<char>>();
    let mut out = vec![];
    for (i, (a, xa, ya)) in matches.iter().enumerate() {
        for (b, xb, yb) in &matches[i + 1..] {
            if xa == xb && others(ya) == others(yb) && pawns(ya) != pawns(yb) {
                let (few, many) = if pawns(ya) < pawns(yb) { (a, b) } else { (b, a) };
                out.push((*few, *many, pawns(ya).abs_diff(pawns(yb))));
            }
        }
    }
    out
}

fn pawn_steps_md(d: &ReportData, names: &Names) -> String {
    let steps = pawn_steps(d);
    if steps.is_empty() {
        return String::new();
    }
    let chain = chain_test(d).map_or(String::new(), |t| format!(" Over all of them: {t}."));
    let mut s = format!(
        "\nDo the imbalance matches add up?{chain} Matches that differ only in the pawns given to the second side show it directly: with additive values, k more pawns move the result by k start-position pawns.\n\n| fewer pawns | more pawns | pawns added | result moved by (pawns) |\n|---|---|---|---|\n"
    );
    for (few, many, k) in &steps {
        s += &format!(
            "| {} {} | {} {} | {k} | {:+.2} |\n",
            names.label(&few.piece),
            signed_pawns(&as_interval(few)),
            names.label(&many.piece),
            signed_pawns(&as_interval(many)),
            few.value - many.value
        );
    }
    s
}

/// The section's opening sentence: how many pieces the two estimators agree on by the
/// log-ratio test, which they disagree on, which lack data.
pub(super) fn estimators_verdict(test: &crate::values::agreement::Agreement, pieces: &[&str], names: &Names) -> String {
    let label = |list: Vec<&str>| list.into_iter().map(|p| names.label(p)).collect::<Vec<_>>();
    let agree = label(test.pieces.iter().filter(|a| !a.disagree).map(|a| a.piece.as_str()).collect());
    let apart = label(test.pieces.iter().filter(|a| a.disagree).map(|a| a.piece.as_str()).collect());
    let unknown = label(pieces.iter().copied().filter(|p| !test.pieces.iter().any(|a| a.piece == *p)).collect());
    let mut s = if test.pieces.is_empty() {
        format!("**{} to test the two estimators against each other", verdict::capitalise(verdict::NOT_ENOUGH))
    } else {
        format!(
            "**The two estimators agree within their errors (log-ratio test) for {} of {} pieces",
            agree.len(),
            test.pieces.len()
        )
    };
    if !apart.is_empty() {
        s += &format!("; they disagree for {}", apart.join(", "));
    }
    let far = label(test.pieces.iter().filter(|a| a.beyond_quarter).map(|a| a.piece.as_str()).collect());
    if !far.is_empty() {
        s += &format!(
            "; their values are more than {} times apart for {}",
            crate::values::agreement::QUOTABLE,
            far.join(", ")
        );
    }
    if !unknown.is_empty() && !test.pieces.is_empty() {
        s += &format!("; {} for {}", verdict::NOT_ENOUGH, unknown.join(", "));
    } else if !unknown.is_empty() {
        s += &format!(" ({})", unknown.join(", "));
    }
    s + ".**\n\n"
}

/// The headline priced in local pawns beside the pawn-odds price: a verdict per setting
/// on whether the two prices of a pawn differ, then both conversions side by side.
pub(super) fn pawn_prices_md(d: &ReportData) -> String {
    if d.pawn_prices.is_empty() {
        return String::new();
    }
    let mut s = String::from("### The pawn's price where the bomber is traded for the rook\n\n");
    s += &verdicts(d.pawn_prices.iter().map(|p| price_verdict(d, p)).collect());
    // The quick budget brackets without the scale check: no column for it then.
    let checked = d.pawn_prices.iter().any(|p| p.scale_checked);
    s += "F − R converted to pawns twice: with the Elo of a pawn from the pawn-odds match at the start (start-position pawns), and by its own bracket, F against R plus k pawns for three k around balance, priced where the score is even (local pawns; the bracket line's slope is the local pawn's Elo).";
    if checked {
        s += " The last column is the pawn-odds match replayed under the neutral weights F=R is played with: far from the default's, those weights would move the unit.";
    }
    s += "\n\n| rules | F − R (start-position pawns) | Elo per pawn, pawn odds | F − R (local pawns) | Elo per pawn, local |";
    s += if checked {
        " Elo per pawn, pawn odds under F=R's weights | bracket games |\n|---|---|---|---|---|---|---|\n"
    } else {
        " bracket games |\n|---|---|---|---|---|---|\n"
    };
    for p in &d.pawn_prices {
        let scale = match (checked, p.scale_checked) {
            (false, _) => String::new(),
            (true, true) => format!(" {} |", plain(&p.neutral_pawn_odds_elo)),
            (true, false) => " not played |".into(),
        };
        s += &format!(
            "| {} | {} | {} | {} | {} |{scale} {} |\n",
            rules_label(d, p.option.as_deref()),
            signed_pawns(&p.calibrated),
            plain(&p.pawn_odds_elo),
            signed_pawns(&p.bracketed),
            plain(&p.local_elo),
            p.games
        );
    }
    let notes: Vec<String> = d
        .pawn_prices
        .iter()
        .filter(|p| !p.note.is_empty())
        .map(|p| format!("* {}: {}\n", rules_label(d, p.option.as_deref()), p.note))
        .collect();
    if !notes.is_empty() {
        s += if checked { "\nBrackets and scale checks:\n\n" } else { "\nBrackets:\n\n" };
        s += &notes.concat();
    }
    s + "\n"
}

/// Whether the pawn is priced the same where F is traded for R as at pawn odds from the
/// start: the difference of the two Elo per pawn (independent matches) and its interval.
pub fn price_verdict(d: &ReportData, p: &super::PawnPrices) -> String {
    let rules = rules_label(d, p.option.as_deref());
    let diff = super::independent_difference(&p.pawn_odds_elo, &p.local_elo);
    let range = |i: &Interval| format!("{:+.1} Elo [{:+.1}, {:+.1}]", i.value, i.low, i.high);
    let local = |s: String| {
        if p.bracketed.is_defined() {
            s
        } else {
            format!("{s} F − R in local pawns: {NOT_ENOUGH}.")
        }
    };
    match verdict::sign(&diff) {
        None => format!(
            "{rules}: {NOT_ENOUGH} to compare the pawn's price where F is traded for R with its price at pawn odds (local pawn {}, pawn odds {}).",
            plain(&p.local_elo),
            plain(&p.pawn_odds_elo)
        ),
        Some(std::cmp::Ordering::Equal) => local(format!(
            "{rules}: the pawn's price where F is traded for R, {:.1} Elo, and at pawn odds from the start, {:.1} Elo, agree within their errors (difference {}){}",
            p.local_elo.value,
            p.pawn_odds_elo.value,
            range(&diff),
            // The unit argument is about two F − R figures; with either missing it says nothing.
            if p.bracketed.is_defined() && p.calibrated.is_defined() {
                ", so both F − R figures are in the same unit."
            } else {
                "."
            }
        )),
        Some(_) => local(format!(
            "{rules}: the two prices of a pawn differ beyond their errors: {:.1} Elo where F is traded for R, {:.1} Elo at pawn odds from the start (difference {}). F − R in start-position pawns mixes the two units; quote it in local pawns, {}.",
            p.local_elo.value,
            p.pawn_odds_elo.value,
            range(&diff),
            signed_pawns(&p.bracketed)
        )),
    }
}

/// What a sensitivity's setting is called on the page.
pub(super) fn setting_label(s: &super::Sensitivity, value: &str) -> String {
    match s.setting.as_str() {
        "nodes" => format!("{value} nodes"),
        "min-pieces" => format!("min-pieces {value}"),
        other => format!("{other} {value}"),
    }
}

/// How far the piece values move with the regression's phase filter and the search budget.
pub(super) fn sensitivity_md(d: &ReportData, names: &Names) -> String {
    if d.sensitivity.is_empty() {
        return String::new();
    }
    let mut s = String::from("\n## Sensitivity of the piece values\n\n");
    s += &verdicts(d.sensitivity.iter().map(|x| sensitivity_verdict(x, names)).collect());
    for x in &d.sensitivity {
        let (a, b) = (setting_label(x, &x.base), setting_label(x, &x.other));
        let what = match x.setting.as_str() {
            "min-pieces" => "The regression refitted on the same games with another phase filter (`--min-pieces`: the least share of the start position's pieces a fitted position keeps)",
            "nodes" => "One imbalance match (the headline where the game has one) and the pawn-odds match played again at the stronger search",
            _ => "The same figures under another setting",
        };
        s += &format!("{what}; {}.\n\n", x.note);
        s += &format!("| quantity | unit | {a} | {b} | difference |\n|---|---|---|---|---|\n");
        for r in &x.rows {
            let cell = |i: &Interval| if r.unit == "elo" { plain(i) } else { signed_or_plain(i, &r.quantity) };
            let difference = if !r.difference.is_defined() {
                NOT_ENOUGH.to_string()
            } else if r.unit == "elo" {
                format!("{:+.1} [{:+.1}, {:+.1}]", r.difference.value, r.difference.low, r.difference.high)
            } else {
                signed_pawns(&r.difference)
            };
            let quantity =
                if r.quantity == "elo-per-pawn" { "Elo per pawn (pawn odds)".into() } else { names.label(&r.quantity) };
            s += &format!("| {quantity} | {} | {} | {} | {difference} |\n", r.unit, cell(&r.base), cell(&r.other));
        }
        s += "\n";
    }
    s
}

/// One sentence per sensitivity: which figures move beyond their interval, and the
/// largest move.
pub(super) fn sensitivity_verdict(x: &super::Sensitivity, names: &Names) -> String {
    let (a, b) = (setting_label(x, &x.base), setting_label(x, &x.other));
    let defined: Vec<&super::SensitivityRow> = x.rows.iter().filter(|r| r.difference.is_defined()).collect();
    if defined.is_empty() {
        return format!("From {a} to {b}: {NOT_ENOUGH} to say how far the figures move.");
    }
    let label = |r: &super::SensitivityRow| {
        if r.quantity == "elo-per-pawn" {
            "the Elo of a pawn".to_string()
        } else {
            names.label(&r.quantity)
        }
    };
    let unit = |r: &super::SensitivityRow| if r.unit == "elo" { "Elo" } else { "pawns" };
    let moved: Vec<String> = defined
        .iter()
        .filter(|r| verdict::sign(&r.difference) != Some(std::cmp::Ordering::Equal))
        .map(|r| {
            format!(
                "{} by {:+.2} {} [{:+.2}, {:+.2}]",
                label(r),
                r.difference.value,
                unit(r),
                r.difference.low,
                r.difference.high
            )
        })
        .collect();
    let mut s = if moved.is_empty() {
        format!("From {a} to {b}, no figure moves beyond its interval ({} of {} measured)", defined.len(), x.rows.len())
    } else {
        format!(
            "From {a} to {b}, {} of {} figures move beyond their interval: {}",
            moved.len(),
            defined.len(),
            moved.join("; ")
        )
    };
    if defined.len() < x.rows.len() {
        s += &format!("; {NOT_ENOUGH} for the other {}", x.rows.len() - defined.len());
    }
    s + "."
}
