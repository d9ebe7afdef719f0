//! report.md and report.html from the report's data. Numbers are formatted by `format`'s
//! helpers only, so the text always agrees with report.json.

use super::format::{
    as_interval, cell_score, defined, elo, options_label, pct, share, value_cells, verdicts, NOT_ENOUGH,
};
use super::names::Names;
use super::value_text::{bomber_estimates, bomber_headline, piece_values_md, setting_label};
use super::{glossary, matrix, svg, verdict, PieceValue, ReportData};

/// How wide this budget's error bars are, up front, so a quick report is read as one.
fn precision(d: &ReportData) -> String {
    let half = |lo: f64, hi: f64| 0.5 * (hi - lo);
    let widest = |f: &dyn Fn(&super::figures::Balance) -> f64| d.balance.iter().map(f).fold(f64::NAN, f64::max);
    let narrowest = |f: &dyn Fn(&super::figures::Balance) -> f64| d.balance.iter().map(f).fold(f64::NAN, f64::min);
    let score_of = |b: &super::figures::Balance| 100.0 * half(b.white_score.low, b.white_score.high);
    let elo_of = |b: &super::figures::Balance| half(b.white_elo.low, b.white_elo.high);
    let (score, elo) = (widest(&score_of), widest(&elo_of));
    // Balance runs of very different sizes (`--pairs`) get their range, not the worst one.
    let (score_low, elo_low) = (narrowest(&score_of), narrowest(&elo_of));
    let range = |low: f64, high: f64, digits: usize| {
        if low < 0.75 * high {
            format!("±{low:.digits$} to ±{high:.digits$}")
        } else {
            format!("±{high:.digits$}")
        }
    };
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
        let elo = if elo.is_finite() { format!("{} Elo", range(elo_low, elo, 0)) } else { NOT_ENOUGH.to_string() };
        s += &format!(
            "Precision at this budget (95 % half-widths): White's score {} %, White's advantage {elo}",
            range(score_low, score, 1)
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

pub fn markdown(d: &ReportData) -> String {
    let names = Names::of(&d.variant, &d.options);
    let mut s = format!("# {} ({}): balance report\n\n", d.title, options_label(d));
    if let Some(c) = &d.answer {
        s += &super::card::markdown(c, &d.title);
    }
    s += &super::diagrams::markdown(&super::diagrams::of(d));
    s += &format!("Variant `{}`, budget `{}`, seed {}, fairylab {}.\n\n", d.variant, d.budget, d.seed, d.version);
    s += &precision(d);
    s += &bomber_headline(d, &names);
    for section in [
        balance_md,
        shape_md,
        piece_values_md,
        super::study::markdown,
        super::published::markdown,
        replacements_md,
        options_md,
        setup_md,
        tuning_md,
        games_md,
        notes_md,
    ] {
        s += &section(d, &names);
    }
    s.clone() + &glossary::markdown(&s)
}

fn games_md(d: &ReportData, _: &Names) -> String {
    super::viewer::markdown(d)
}

/// White's score, advantage and draw rate at each budget.
fn balance_md(d: &ReportData, _: &Names) -> String {
    let mut s = String::from("## Balance\n\n");
    s += &verdicts(d.balance.iter().map(|b| format!("At {}: {}", b.label, verdict::balance(&b.white_elo))).collect());
    s += "White's score, first-move advantage and draw rate with 95 % intervals";
    s += if d.balance.iter().all(|b| b.openings.is_some()) {
        " (openings as the unit: at a fixed node budget an opening's games are one observation).\n\n"
    } else {
        " (game pairs as the unit; where the openings are not counted the run predates distinct openings, and a repeated opening replays the same games, so those intervals may be too narrow).\n\n"
    };
    s += "| search | games | openings | White's score | White's advantage (Elo) | draw rate | decisive |\n|---|---|---|---|---|---|---|\n";
    for b in &d.balance {
        s += &format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            b.label,
            b.games,
            b.openings.map_or("not counted".into(), |n| n.to_string()),
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
        h if h.starts_with("Answer card") => {
            if let Some(c) = &d.answer {
                let bars: Vec<Bar> =
                    c.pieces.iter().map(|p| (format!("{} ({})", p.name, p.letter), p.value, p.low, p.high)).collect();
                let unit = if c.unit.name == crate::values::scale::ORTHODOX_UNIT { "orthodox scale" } else { "pawns" };
                *body += &svg::bars(
                    &format!("{}: the card's values", d.title),
                    &format!("value ({unit}), 95 % intervals"),
                    &bars,
                    "",
                );
            }
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
        "Games behind the figures" => *body += &super::viewer::html(d),
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
    let body = super::diagrams::inline(&md_html(&markdown(d), &charts), &super::diagrams::of(d));
    page(&format!("{} report", d.title), &body)
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
         th{{background:#f0f0f0}}svg{{display:block;margin:1em 0}}\
         td:first-child,th:first-child,.card td:last-child,.card th:last-child{{text-align:left}}\
         figure{{display:inline-block;vertical-align:top;margin:0 1em 1em 0}}figure svg{{max-width:420px;height:auto;margin:0}}\
         figcaption{{font-size:0.9em;color:#444}}\
         .card{{border:2px solid #3a7d5c;background:#f4faf6;border-radius:6px;padding:0 1em;margin:1em 0}}\
         </style></head><body>{}</body></html>",
        framed_card(body)
    )
}

/// The answer card (from its heading to the line naming the engine) in a frame of its own.
fn framed_card(body: &str) -> String {
    let Some(start) = body.find("<h2>Answer card") else { return body.to_string() };
    let Some(end) =
        body[start..].find("<p>Played by").and_then(|p| body[start + p..].find("</p>").map(|e| start + p + e + 4))
    else {
        return body.to_string();
    };
    format!("{}<section class=\"card\">{}</section>{}", &body[..start], &body[start..end], &body[end..])
}
