//! report.md and report.html from the report's data. Numbers are formatted by the helpers
//! here only, so the text always agrees with report.json.

use super::figures::Interval;
use super::names::Names;
use super::{glossary, matrix, svg, verdict, PieceValue, ReportData};

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

/// How wide this budget's error bars are, up front, so a quick report is read as one.
fn precision(d: &ReportData) -> String {
    let half = |lo: f64, hi: f64| 0.5 * (hi - lo);
    let widest = |f: &dyn Fn(&super::figures::Balance) -> f64| d.balance.iter().map(f).fold(f64::NAN, f64::max);
    let score = widest(&|b| 100.0 * half(b.white_score.low, b.white_score.high));
    let elo = widest(&|b| half(b.white_elo.low, b.white_elo.high));
    let mut values: Vec<f64> = d
        .piece_values
        .iter()
        .filter(|v| v.piece.chars().count() == 1 && v.piece != "P" && v.low.is_finite() && v.high.is_finite())
        .map(|v| half(v.low, v.high))
        .collect();
    values.sort_by(f64::total_cmp);
    let mut s = String::new();
    if d.balance.is_empty() {
        return s;
    }
    if score.is_finite() {
        let elo = if elo.is_finite() { format!("±{elo:.0} Elo") } else { NOT_ENOUGH.to_string() };
        s += &format!(
            "Precision at this budget (95 % half-widths): White's score ±{score:.1} %, White's advantage {elo}"
        );
        if let Some(m) = values.get(values.len() / 2) {
            s += &format!(", piece values ±{m:.2} pawns (median)");
        }
        s += ".";
    } else {
        let games = d.balance.iter().map(|b| b.games).min().unwrap_or(0);
        s += &format!(
            "Precision at this budget: {NOT_ENOUGH} for intervals on White's score ({games} games per balance run; at least {} are needed).",
            crate::stats::interval::MIN_GAMES
        );
    }
    // Balance runs given more games on the command line need no pointer to `standard`.
    let fewest = d.balance.iter().map(|b| b.games).min().unwrap_or(0).max(1);
    let more = 2.0 * super::Budget::Standard.pairs() as f64 / fewest as f64;
    if matches!(d.budget, super::Budget::Tiny | super::Budget::Quick) && more > 1.5 {
        s += &format!(
            " A quick look: differences inside these margins are not findings; `--budget standard` plays {more:.0} times the games (intervals about {:.0} % as wide).",
            100.0 / more.sqrt()
        );
    }
    s += "\n\n";
    s
}

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
fn bomber_headline(d: &ReportData, names: &Names) -> String {
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

/// The figures as an interval; NaN (not enough data) for an unsupported estimate.
pub(super) fn as_interval(v: &PieceValue) -> Interval {
    if !v.support.is_supported() {
        return Interval { value: f64::NAN, low: f64::NAN, high: f64::NAN };
    }
    Interval { value: v.value, low: v.low, high: v.high }
}

pub(super) fn options_label(d: &ReportData) -> String {
    if d.options.is_empty() {
        "standard rules".into()
    } else {
        d.options.join(", ")
    }
}

pub fn markdown(d: &ReportData) -> String {
    let names = Names::of(&d.variant, &d.options);
    let mut s = format!("# {} ({}): balance report\n\n", d.title, options_label(d));
    s += &format!("Variant `{}`, budget `{:?}`, seed {}, fairylab {}.\n\n", d.variant, d.budget, d.seed, d.version);
    s += &precision(d);
    s += &bomber_headline(d, &names);
    for section in [
        balance_md,
        shape_md,
        piece_values_md,
        super::published::markdown,
        replacements_md,
        options_md,
        setup_md,
        tuning_md,
        notes_md,
    ] {
        s += &section(d, &names);
    }
    s.clone() + &glossary::markdown(&s)
}

/// One verdict, or one per item as a list.
pub(super) fn verdicts(items: Vec<String>) -> String {
    match items.len() {
        0 => String::new(),
        1 => format!("**{}**\n\n", items[0]),
        _ => items.iter().map(|i| format!("* {i}\n")).collect::<String>() + "\n",
    }
}

/// White's score, advantage and draw rate at each budget.
fn balance_md(d: &ReportData, _: &Names) -> String {
    let mut s = String::from("## Balance\n\n");
    s += &verdicts(d.balance.iter().map(|b| format!("At {}: {}", b.label, verdict::balance(&b.white_elo))).collect());
    s += "White's score, first-move advantage and draw rate with 95 % intervals (openings as the unit: a repeated opening replays the same games at a fixed node budget).\n\n";
    s += "| search | games | White's score | White's advantage (Elo) | draw rate | decisive |\n|---|---|---|---|---|---|\n";
    for b in &d.balance {
        s += &format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            b.label,
            b.games,
            pct(&b.white_score),
            elo(&b.white_elo),
            pct(&b.draw_rate),
            share(b.decisive_rate)
        );
    }
    s
}

/// How long games last and how they end.
fn shape_md(d: &ReportData, _: &Names) -> String {
    let mut s = String::new();
    s += "\n## Game shape\n\n";
    let total: u64 = d.terminations.values().sum();
    if let Some((how, n)) = d.terminations.iter().max_by_key(|t| *t.1) {
        s += &format!(
            "**Games last a median of {} plies; the most common ending is {how} ({n} of {total} games).**\n\n",
            d.lengths.median
        );
    } else {
        s += &format!("**Game shape: {}.**\n\n", verdict::NOT_ENOUGH);
    }
    s += &format!("Mean length {:.1} plies, median {} plies (stronger budget).\n\n", d.lengths.mean, d.lengths.median);
    s += "| ending | games |\n|---|---|\n";
    for (t, n) in &d.terminations {
        s += &format!("| {t} | {n} |\n");
    }
    s += "\n| plies | games |\n|---|---|\n";
    for (p, n) in &d.lengths.bins {
        s += &format!("| {p}-{} | {n} |\n", p + d.lengths.bin_width - 1);
    }
    s
}

/// Every piece value, the two estimators side by side when both measured a piece.
fn piece_values_md(d: &ReportData, names: &Names) -> String {
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
                        if k.p_value < 0.001 { "p < 0.001".to_string() } else { format!("p = {:.3}", k.p_value) }
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
            let unit_gap =
                test.scale.as_ref().is_some_and(|k| k.dof > 0 && k.p_value >= 0.05 && (k.low > 1.0 || k.high < 1.0));
            if !apart.is_empty() && unit_gap {
                s += &format!(
                    "\nThe estimators disagree beyond their errors for {}, but one factor fits every piece: the gap is in the unit, the pawn each estimator divides by (the start-position pawn-odds match for the imbalance matches, the pawn's average worth over the game for the regression), not in the pieces' order or proportions. Divided by that factor, the imbalance values agree with the regression's.\n",
                    apart.join(", ")
                );
            } else if !apart.is_empty() {
                s += &format!(
                    "\nThe estimators disagree beyond their errors for {}. They answer different questions: the regression is a piece's average worth over self-play positions with unequal material, from the opening to the endgame; an imbalance match is its worth when it is traded at the start of the game for the pieces it is matched against, in pawns as worth at the start. A gap means the piece's worth depends on the phase or on what it is traded for; the matches in the rows below show which trade.\n",
                    apart.join(", ")
                );
            }
            s += "\nAll rows:\n\n";
        }
        s += "| piece | value (pawns) | 95 % interval | method | games |\n|---|---|---|---|---|\n";
        for v in &d.piece_values {
            s += &format!("| {} | {} | {} | {} |\n", names.label(&v.piece), value_cells(v, false), v.method, v.games);
        }
    }
    s + &sensitivity_md(d, names)
}

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

/// The section's opening sentence: how many pieces the two estimators agree on by the
/// log-ratio test, which they disagree on, which lack data.
fn estimators_verdict(test: &crate::values::agreement::Agreement, pieces: &[&str], names: &Names) -> String {
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
    if !unknown.is_empty() && !test.pieces.is_empty() {
        s += &format!("; {} for {}", verdict::NOT_ENOUGH, unknown.join(", "));
    } else if !unknown.is_empty() {
        s += &format!(" ({})", unknown.join(", "));
    }
    s + ".**\n\n"
}

/// Pieces beside the orthodox pieces they replace (Noble WingS).
fn replacements_md(d: &ReportData, names: &Names) -> String {
    let mut s = String::new();
    if !d.replacements.is_empty() {
        s += "\n## Pieces against the orthodox ones they replace\n\n";
        let chess = Names::of("chess", &[]);
        s += &verdicts(
            d.replacements
                .iter()
                .map(|r| {
                    verdict::compare(
                        &names.prose(&r.piece.piece),
                        &as_interval(&r.piece),
                        &format!("{} in chess", chess.prose(&r.orthodox.piece)),
                        &as_interval(&r.orthodox),
                        "pawns",
                    )
                })
                .collect(),
        );
        s += "Each piece's value in this game next to the value of the orthodox piece it takes the place of, measured in orthodox chess by the same method and budget.\n\n";
        s += "| piece | value (pawns) | 95 % interval | replaces | value in chess | 95 % interval | difference |\n|---|---|---|---|---|---|---|\n";
        for r in &d.replacements {
            let difference = if defined(&r.piece) && defined(&r.orthodox) {
                format!("{:+.2}", r.piece.value - r.orthodox.value)
            } else {
                "-".into()
            };
            s += &format!(
                "| {} | {} | {} | {} | {difference} |\n",
                names.label(&r.piece.piece),
                value_cells(&r.piece, false),
                Names::of("chess", &[]).label(&r.orthodox.piece),
                value_cells(&r.orthodox, false)
            );
        }
    }
    s
}

/// Balance and piece values with each option.
fn options_md(d: &ReportData, names: &Names) -> String {
    let mut s = String::new();
    if !d.option_effects.is_empty() {
        s += "\n## Options\n\n";
        s += &verdicts(d.option_effects.iter().map(|o| option_verdict(d, o, names)).collect());
        s += "| option | changes | search | games | White's score | draw rate |\n|---|---|---|---|---|---|\n";
        for o in &d.option_effects {
            s += &format!(
                "| {} | {} | {} nodes | {} | {} | {} |\n",
                o.option,
                if o.pieces.is_empty() { "-".into() } else { o.pieces.join(", ") },
                o.balance.nodes,
                o.balance.games,
                pct(&o.balance.white_score),
                pct(&o.balance.draw_rate)
            );
        }
        for o in d.option_effects.iter().filter(|o| !o.piece_values.is_empty()) {
            s += &format!(
                "\nPiece values with `{}` (pawns) next to the standard game's:\n\n| piece | method | with {} | 95 % interval | standard | 95 % interval |\n|---|---|---|---|---|---|\n",
                o.option, o.option
            );
            for v in &o.piece_values {
                let standard = d.piece_values.iter().find(|u| u.piece == v.piece && u.method == v.method);
                s += &format!(
                    "| {} | {} | {} | {} |\n",
                    names.label(&v.piece),
                    v.method,
                    value_cells(v, false),
                    standard.map_or("- | -".into(), |u| value_cells(u, false))
                );
            }
        }
    }
    s
}

/// An option's effect: the balance with it, and each piece it changes, with and without it.
pub(super) fn option_verdict(d: &ReportData, o: &super::OptionFigures, names: &Names) -> String {
    let mut s = format!("With `{}`: {}", o.option, verdict::balance(&o.balance.white_elo));
    for p in &o.pieces {
        let find = |list: &[PieceValue]| {
            list.iter().find(|v| &v.piece == p && v.method.starts_with("regression")).map(as_interval)
        };
        if let (Some(with), Some(without)) = (find(&o.piece_values), find(&d.piece_values)) {
            s += " ";
            s += &verdict::compare(
                &format!("{} with the option", names.prose(p)),
                &with,
                "without it",
                &without,
                "pawns",
            );
        }
    }
    s
}

/// The matrix of setup choices (Bland Chess 46).
fn setup_md(d: &ReportData, names: &Names) -> String {
    let mut s = String::new();
    if let Some(m) = &d.setup {
        s += "\n## Setup choices\n\n";
        s += &format!("**{}**\n\n", matrix::verdict(m));
        let mut letters: Vec<char> = m.choices.iter().flat_map(|c| c.chars()).collect();
        letters.sort_unstable();
        letters.dedup();
        let named: Vec<String> = letters.iter().map(|l| names.label(&l.to_string())).collect();
        s += &format!("A choice names the pieces placed in the setup slots: {}.\n\n", named.join(", "));
        s += "White's score by White's choice (rows) against Black's (columns), with 95 % intervals.\n\n| White \\ Black |";
        for c in &m.choices {
            s += &format!(" {c} |");
        }
        s += "\n|---|";
        s += &"---|".repeat(m.choices.len());
        s += "\n";
        for w in &m.choices {
            s += &format!("| {w} |");
            for b in &m.choices {
                let c = m.cells.iter().find(|c| &c.white == w && &c.black == b);
                s += &match c {
                    Some(c) => format!(" {} |", cell_score(&c.white_score)),
                    None => " - |".into(),
                };
            }
            s += "\n";
        }
    }
    s
}

/// A setup cell's score and interval, or "not enough data".
pub fn cell_score(i: &Interval) -> String {
    if !i.is_defined() {
        return NOT_ENOUGH.into();
    }
    format!("{:.2} [{:.2}, {:.2}]", i.value, i.low, i.high)
}

/// A tuned engine config's gain and material weights.
fn tuning_md(d: &ReportData, _: &Names) -> String {
    let mut s = String::new();
    if let Some(t) = &d.tuning {
        s += &format!("\n## Tuning\n\n**{}**\n\n", verdict::strength(&t.config, &t.elo));
        s += &format!(
            "`{}` against the default engine: {} Elo over {} games.\n\n| weight | default | tuned |\n|---|---|---|\n",
            t.config,
            elo(&t.elo),
            t.games
        );
        for (n, a, b) in &t.weights {
            s += &format!("| {n} | {a:.0} | {b:.0} |\n");
        }
    }
    s
}

/// How the figures were made.
fn notes_md(d: &ReportData, _: &Names) -> String {
    let mut s = String::new();
    if !d.notes.is_empty() {
        s += "\n## Notes\n\n";
        for n in &d.notes {
            s += &format!("* {n}\n");
        }
    }
    s
}

/// The page's Markdown as an HTML body (CommonMark with tables, by pulldown-cmark);
/// `charts` adds what belongs under each `##` heading, after the section's opening block
/// (its verdict), so the verdict leads. Links to a sibling report's `report.md` point to
/// its `report.html`, so the HTML pages link to each other.
pub(super) fn md_html(md: &str, charts: &dyn Fn(&str, &mut String)) -> String {
    use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
    let mut events: Vec<Event> = vec![];
    // The `##` heading being read, then the section awaiting its charts.
    let mut heading: Option<String> = None;
    let mut pending: Option<String> = None;
    let mut depth = 0usize;
    let flush = |pending: &mut Option<String>, events: &mut Vec<Event>| {
        if let Some(h) = pending.take() {
            let mut html = String::new();
            charts(&h, &mut html);
            if !html.is_empty() {
                events.push(Event::Html(CowStr::from(html)));
            }
        }
    };
    for event in Parser::new_ext(md, Options::ENABLE_TABLES) {
        match &event {
            Event::Start(Tag::Heading { level: HeadingLevel::H2, .. }) => {
                flush(&mut pending, &mut events);
                heading = Some(String::new());
            }
            Event::Text(t) | Event::Code(t) if heading.is_some() => heading.as_mut().unwrap().push_str(t),
            Event::End(TagEnd::Heading(HeadingLevel::H2)) => pending = heading.take(),
            Event::Start(_) => depth += 1,
            Event::End(_) => depth -= 1,
            _ => {}
        }
        let event = match event {
            Event::Start(Tag::Link { link_type, dest_url, title, id }) => {
                let dest = match dest_url.strip_suffix("/report.md") {
                    Some(dir) if !dest_url.contains(':') => CowStr::from(format!("{dir}/report.html")),
                    _ => dest_url,
                };
                Event::Start(Tag::Link { link_type, dest_url: dest, title, id })
            }
            e => e,
        };
        let closes_block = matches!(event, Event::End(_)) && depth == 0;
        let is_heading = matches!(event, Event::End(TagEnd::Heading(_)));
        events.push(event);
        if closes_block && !is_heading {
            flush(&mut pending, &mut events);
        }
    }
    flush(&mut pending, &mut events);
    let mut body = String::new();
    pulldown_cmark::html::push_html(&mut body, events.into_iter());
    body
}

/// Turns the markdown tables and headings into HTML and adds the charts.
pub fn html(d: &ReportData) -> String {
    let names = Names::of(&d.variant, &d.options);
    let charts = |h: &str, body: &mut String| match h {
        "Balance" => {
            let bars: Vec<Bar> = d
                .balance
                .iter()
                .map(|b| (b.label.clone(), b.white_elo.value, b.white_elo.low, b.white_elo.high))
                .collect();
            *body += &svg::bars(
                &format!("{}: White's advantage", d.title),
                "White's advantage (Elo; 0 = even), 95 % intervals",
                &bars,
                "",
            );
            *body += &draw_chart(&d.title, d.balance.iter().map(|b| (b.label.clone(), b)));
        }
        "Game shape" => {
            *body += &svg::histogram(
                &format!("{}: game length", d.title),
                &d.lengths.bins,
                d.lengths.bin_width,
                "game length (plies)",
            )
        }
        "Piece values" if !d.piece_values.is_empty() => {
            // Absolute values and differences answer different questions and have
            // different scales: one chart each.
            let (single, compound): (Vec<&PieceValue>, Vec<&PieceValue>) = d
                .piece_values
                .iter()
                .filter(|v| v.piece != "P" && names.words(&v.piece).is_some())
                .partition(|v| v.piece.chars().count() == 1);
            let row = |v: &&PieceValue| (format!("{} · {}", names.label(&v.piece), v.method), v.value, v.low, v.high);
            if !single.is_empty() {
                let bars: Vec<Bar> = single.iter().map(row).collect();
                *body += &svg::bars(&format!("{}: piece values", d.title), "value (pawns), 95 % intervals", &bars, "");
            }
            if !compound.is_empty() {
                let bars: Vec<Bar> = compound.iter().map(row).collect();
                *body += &svg::bars(
                    &format!("{}: matches, first side minus second", d.title),
                    "difference (pawns; 0 = equal worth), 95 % intervals",
                    &bars,
                    "",
                );
            }
        }
        "Sensitivity of the piece values" => {
            for x in &d.sensitivity {
                let bars: Vec<Bar> = x
                    .rows
                    .iter()
                    .filter(|r| r.unit == "pawns")
                    .map(|r| (names.label(&r.quantity), r.difference.value, r.difference.low, r.difference.high))
                    .collect();
                if !bars.is_empty() {
                    *body += &svg::bars(
                        &format!("{}: {} minus {}", d.title, setting_label(x, &x.other), setting_label(x, &x.base)),
                        "change of value (pawns; 0 = unmoved), 95 % intervals",
                        &bars,
                        "",
                    );
                }
            }
        }
        "Flying Bomber against Rook" => {
            let bars: Vec<Bar> = bomber_estimates(d)
                .into_iter()
                .map(|(option, v)| {
                    let rules = option.map_or(options_label(d), |o| format!("+{o}"));
                    (format!("{rules} ({})", v.method), v.value, v.low, v.high)
                })
                .collect();
            *body += &svg::bars(
                &format!("{}: Flying Bomber minus Rook", d.title),
                "F − R (pawns; 0 = equal worth), 95 % intervals",
                &bars,
                "",
            );
        }
        "Options" => {
            let bars: Vec<Bar> = d
                .option_effects
                .iter()
                .map(|o| {
                    (
                        format!("+{}", o.option),
                        o.balance.white_elo.value,
                        o.balance.white_elo.low,
                        o.balance.white_elo.high,
                    )
                })
                .collect();
            *body += &svg::bars(
                &format!("{}: White's advantage with each option", d.title),
                "White's advantage (Elo; 0 = even), 95 % intervals",
                &bars,
                "",
            );
        }
        "Setup choices" => {
            if let Some(m) = &d.setup {
                *body += &setup_grid(&d.title, m);
            }
        }
        "Pieces against the orthodox ones they replace" => {
            let chess = Names::of("chess", &[]);
            let bars: Vec<Bar> = d
                .replacements
                .iter()
                .flat_map(|r| {
                    [
                        (names.label(&r.piece.piece), r.piece.value, r.piece.low, r.piece.high),
                        (
                            format!("{} in chess", chess.label(&r.orthodox.piece)),
                            r.orthodox.value,
                            r.orthodox.low,
                            r.orthodox.high,
                        ),
                    ]
                })
                .collect();
            *body += &svg::bars(
                &format!("{}: pieces and the orthodox ones they replace", d.title),
                "value (pawns), 95 % intervals",
                &bars,
                "",
            );
        }
        _ => {}
    };
    page(&format!("{} report", d.title), &md_html(&markdown(d), &charts))
}

/// `(label, value, low, high)`: one bar of a chart.
pub(super) type Bar = (String, f64, f64, f64);

pub(super) fn draw_chart<'a>(title: &str, rows: impl Iterator<Item = (String, &'a super::figures::Balance)>) -> String {
    let bars: Vec<Bar> =
        rows.map(|(l, b)| (l, 100.0 * b.draw_rate.value, 100.0 * b.draw_rate.low, 100.0 * b.draw_rate.high)).collect();
    svg::bars(&format!("{title}: draw rate"), "draw rate (% of games), 95 % intervals", &bars, " %")
}

/// The setup matrix as a heat grid: blue where White scores more, red where Black does.
fn setup_grid(title: &str, m: &super::SetupMatrix) -> String {
    let cells: Vec<Vec<(String, String)>> = m
        .choices
        .iter()
        .map(|w| {
            m.choices
                .iter()
                .map(|b| match matrix::cell(m, w, b) {
                    Some(c) => (cell_score(&c.white_score), matrix::heat(c.white_score.value)),
                    None => ("-".into(), matrix::heat(f64::NAN)),
                })
                .collect()
        })
        .collect();
    svg::grid(
        &format!("{title}: White's score by setup choices"),
        &m.choices,
        &m.choices,
        &cells,
        "White's score, 95 % interval; blue: White scores more than half, red: less, white: even",
    )
}

pub(super) fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{title}</title><style>\
         body{{font-family:sans-serif;max-width:900px;margin:2em auto;color:#222}}\
         table{{border-collapse:collapse;margin:1em 0}}td,th{{border:1px solid #ccc;padding:4px 8px;text-align:right}}\
         th{{background:#f0f0f0}}svg{{display:block;margin:1em 0}}</style></head><body>{body}</body></html>"
    )
}

pub(super) fn interval(v: &PieceValue) -> String {
    if !defined(v) {
        return NOT_ENOUGH.into();
    }
    if is_unit(v) {
        return format!("{:.2} ({UNIT})", v.value);
    }
    format!("{:.2} [{:.2}, {:.2}]", v.value, v.low, v.high)
}

/// Printed where an estimate is undefined (a match or calibration too small to convert).
pub(super) const NOT_ENOUGH: &str = "not enough data";

/// Whether the data support the estimate and it and both ends of its interval are numbers.
pub(super) fn defined(v: &PieceValue) -> bool {
    v.support.is_supported() && v.value.is_finite() && v.low.is_finite() && v.high.is_finite()
}

/// The unit of a table (the pawn, 1 by definition) has a zero-width interval, which is not
/// a measurement: it is shown as the unit instead.
fn is_unit(v: &PieceValue) -> bool {
    v.low == v.high && v.value == v.low
}

const UNIT: &str = "the unit";

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
fn rules_label(d: &ReportData, option: Option<&str>) -> String {
    option.map_or(options_label(d), |o| format!("{} + {o}", options_label(d)))
}

/// A positive figure (Elo per pawn) and its interval, or "not enough data".
fn plain(i: &Interval) -> String {
    if !i.is_defined() {
        return NOT_ENOUGH.into();
    }
    format!("{:.1} [{:.1}, {:.1}]", i.value, i.low, i.high)
}

/// A difference in pawns and its interval, or "not enough data".
fn signed_pawns(i: &Interval) -> String {
    if !i.is_defined() {
        return NOT_ENOUGH.into();
    }
    format!("{:+.2} [{:+.2}, {:+.2}]", i.value, i.low, i.high)
}

/// The headline priced in local pawns beside the pawn-odds price: a verdict per setting
/// on whether the two prices of a pawn differ, then both conversions side by side.
pub(super) fn pawn_prices_md(d: &ReportData) -> String {
    if d.pawn_prices.is_empty() {
        return String::new();
    }
    let mut s = String::from("### The pawn's price where the bomber is traded for the rook\n\n");
    s += &verdicts(d.pawn_prices.iter().map(|p| price_verdict(d, p)).collect());
    s += "F − R converted to pawns twice: with the Elo of a pawn from the pawn-odds match at the start (start-position pawns), and by its own bracket, F against R plus k pawns for three k around balance, priced where the score is even (local pawns; the bracket line's slope is the local pawn's Elo). The last column is the pawn-odds match replayed under the neutral weights F=R is played with: far from the default's, those weights would move the unit.\n\n";
    s += "| rules | F − R (start-position pawns) | Elo per pawn, pawn odds | F − R (local pawns) | Elo per pawn, local | Elo per pawn, pawn odds under F=R's weights | bracket games |\n|---|---|---|---|---|---|---|\n";
    for p in &d.pawn_prices {
        s += &format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            rules_label(d, p.option.as_deref()),
            signed_pawns(&p.calibrated),
            plain(&p.pawn_odds_elo),
            signed_pawns(&p.bracketed),
            plain(&p.local_elo),
            plain(&p.neutral_pawn_odds_elo),
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
        s += "\nBrackets and scale checks:\n\n";
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
            "{rules}: the pawn's price where F is traded for R, {:.1} Elo, and at pawn odds from the start, {:.1} Elo, agree within their errors (difference {}), so both F − R figures are in the same unit.",
            p.local_elo.value,
            p.pawn_odds_elo.value,
            range(&diff)
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
fn setting_label(s: &super::Sensitivity, value: &str) -> String {
    match s.setting.as_str() {
        "nodes" => format!("{value} nodes"),
        "min-pieces" => format!("min-pieces {value}"),
        other => format!("{other} {value}"),
    }
}

/// How far the piece values move with the regression's phase filter and the search budget.
fn sensitivity_md(d: &ReportData, names: &Names) -> String {
    if d.sensitivity.is_empty() {
        return String::new();
    }
    let mut s = String::from("\n## Sensitivity of the piece values\n\n");
    s += &verdicts(d.sensitivity.iter().map(|x| sensitivity_verdict(x, names)).collect());
    for x in &d.sensitivity {
        let (a, b) = (setting_label(x, &x.base), setting_label(x, &x.other));
        let what = match x.setting.as_str() {
            "min-pieces" => "The regression refitted on the same games with another phase filter (`--min-pieces`: the least share of the start position's pieces a fitted position keeps)",
            "nodes" => "The headline match and the pawn-odds match played again at the stronger search",
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

/// Piece values unsigned, differences (`F-R`) signed.
fn signed_or_plain(i: &Interval, quantity: &str) -> String {
    if quantity.chars().count() > 1 {
        return signed_pawns(i);
    }
    if !i.is_defined() {
        return NOT_ENOUGH.into();
    }
    format!("{:.2} [{:.2}, {:.2}]", i.value, i.low, i.high)
}

/// One sentence per sensitivity: which figures move beyond their interval, and the
/// largest move.
fn sensitivity_verdict(x: &super::Sensitivity, names: &Names) -> String {
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
