//! The cross-variant summary page (Markdown and HTML), built from every variant's report
//! data with the same cells, verdicts and charts as the per-variant pages.

use super::format::{elo, interval, options_label, pct, value_cells, verdicts};
use super::names::Names;
use super::render::{draw_chart, md_html, option_verdict, page, Bar};
use super::value_text::{bomber_estimates, bomber_verdict};
use super::{glossary, svg, verdict, PieceValue, ReportData};

/// The cross-variant page: balance at every search budget (the draw-rate trend with
/// strength), the effect of each option, and every piece's value by both estimators.
/// `folders[i]`, when given, is where report i lies relative to the page: the page links
/// to it.
pub fn summary_markdown(reports: &[ReportData], folders: &[String]) -> String {
    let mut s = String::from("# fairylab: all variants\n\n");
    s += &format!(
        "{} reports; each figure with its 95 % interval. Every report's own page has the games, seeds and notes.\n\n",
        reports.len()
    );
    // The answer cards below link every report that has one; the others are linked here.
    let carded = reports.iter().all(|d| d.answer.is_some());
    if folders.len() == reports.len() && !reports.is_empty() && !carded {
        let links: Vec<String> = reports
            .iter()
            .zip(folders)
            .map(|(d, f)| format!("[{} ({})]({f}/report.md)", d.title, options_label(d)))
            .collect();
        s += &format!("Reports: {}.\n\n", links.join(" · "));
    }
    let cards: Vec<(&str, &super::card::AnswerCard)> =
        reports.iter().filter_map(|d| Some((d.title.as_str(), d.answer.as_ref()?))).collect();
    if !cards.is_empty() {
        s += "## Answer cards\n\n";
        let links: Vec<String> = if folders.len() == reports.len() {
            reports
                .iter()
                .zip(folders)
                .filter(|(d, _)| d.answer.is_some())
                .map(|(_, f)| format!("{f}/report.md"))
                .collect()
        } else {
            vec![]
        };
        s += &super::card::overview(&cards, &links);
        s += "\n";
    }
    s += "## Balance\n\n";
    // Each game's verdict at every search budget: the stronger budget plays better, the
    // cheaper one may have many more games (the chess calibration), and neither says all.
    s += &verdicts(
        reports
            .iter()
            .filter(|d| !d.balance.is_empty())
            .map(|d| {
                let runs: Vec<String> = d
                    .balance
                    .iter()
                    .map(|b| format!("At {} ({} games): {}", b.label, b.games, verdict::balance(&b.white_elo)))
                    .collect();
                format!("{} ({}). {}", d.title, options_label(d), runs.join(" "))
            })
            .collect(),
    );
    s += "| variant | options | budget | search | games | White's score | White's advantage (Elo) | draw rate | mean plies |\n|---|---|---|---|---|---|---|---|---|\n";
    for d in reports {
        for (k, b) in d.balance.iter().enumerate() {
            // Game lengths are measured at the stronger (last) budget.
            let plies = if k + 1 == d.balance.len() { format!("{:.1}", d.lengths.mean) } else { "-".into() };
            s += &format!(
                "| {} | {} | {} | {} | {} | {} | {} | {} | {plies} |\n",
                d.title,
                options_label(d),
                d.budget,
                b.label,
                b.games,
                pct(&b.white_score),
                elo(&b.white_elo),
                pct(&b.draw_rate),
            );
        }
    }
    s += &summary_bomber(reports);
    let with_options: Vec<&ReportData> = reports.iter().filter(|d| !d.option_effects.is_empty()).collect();
    if !with_options.is_empty() {
        s += "\n## Options\n\n";
        s += &verdicts(
            with_options
                .iter()
                .flat_map(|d| {
                    let names = Names::of(&d.variant, &d.options);
                    d.option_effects.iter().map(move |o| format!("{}: {}", d.title, option_verdict(d, o, &names)))
                })
                .collect(),
        );
        s += "Each option added to a report's rules, played at the report's first search budget, with the value (regression) of each piece the option changes.\n\n| variant | options | adding | search | White's score | draw rate | its pieces with it | without it |\n|---|---|---|---|---|---|---|---|\n";
        for d in with_options {
            let names = Names::of(&d.variant, &d.options);
            for o in &d.option_effects {
                let f = |list: &[PieceValue]| {
                    let found: Vec<String> = o
                        .pieces
                        .iter()
                        .filter_map(|p| {
                            let v = list.iter().find(|v| &v.piece == p && v.method.starts_with("regression"))?;
                            Some(format!("{} {}", names.label(p), interval(v)))
                        })
                        .collect();
                    if found.is_empty() {
                        "-".into()
                    } else {
                        found.join("; ")
                    }
                };
                s += &format!(
                    "| {} | {} | {} | {} nodes | {} | {} | {} | {} |\n",
                    d.title,
                    options_label(d),
                    o.option,
                    o.balance.nodes,
                    pct(&o.balance.white_score),
                    pct(&o.balance.draw_rate),
                    f(&o.piece_values),
                    f(&d.piece_values)
                );
            }
        }
    }
    s += "\n## Piece values (pawns)\n\n";
    s += &summary_agreement(reports);
    s += "| variant | options | piece | regression | imbalance matches |\n|---|---|---|---|---|\n";
    for d in reports {
        let names = Names::of(&d.variant, &d.options);
        let mut pieces: Vec<&str> =
            d.piece_values.iter().map(|v| v.piece.as_str()).filter(|p| p.chars().count() == 1 && *p != "P").collect();
        pieces.sort_unstable();
        pieces.dedup();
        for p in pieces {
            let find = |prefix: &str| {
                d.piece_values
                    .iter()
                    .find(|v| v.piece == p && v.method.starts_with(prefix))
                    .map_or("-".into(), interval)
            };
            s += &format!(
                "| {} | {} | {} | {} | {} |\n",
                d.title,
                options_label(d),
                names.label(p),
                find("regression"),
                find("imbalance-lsq")
            );
        }
    }
    s.clone() + &glossary::markdown(&s)
}

/// How often the two estimators agree across all reports, by the reports' own log-ratio
/// test, and where their values are too far apart to quote as one: where either happens,
/// the report's own page says why.
fn summary_agreement(reports: &[ReportData]) -> String {
    let (mut agree, mut apart, mut far, mut unknown) = (0, vec![], vec![], 0);
    for d in reports {
        let names = Names::of(&d.variant, &d.options);
        let test = super::estimators::agreement(&d.piece_values);
        let mut pieces: Vec<&str> =
            d.piece_values.iter().map(|v| v.piece.as_str()).filter(|p| p.chars().count() == 1 && *p != "P").collect();
        pieces.sort_unstable();
        pieces.dedup();
        for p in pieces {
            match test.pieces.iter().find(|a| a.piece == p) {
                Some(a) => {
                    let at = format!("{} in {}", names.label(p), d.title);
                    if a.disagree {
                        apart.push(at.clone());
                    } else {
                        agree += 1;
                    }
                    if a.beyond_quarter {
                        far.push(format!("{at} ({:.2})", a.ratio));
                    }
                }
                None => unknown += 1,
            }
        }
    }
    let mut s = format!(
        "**The two estimators agree within their errors (log-ratio test) for {agree} of {} pieces",
        agree + apart.len() + unknown
    );
    if !apart.is_empty() {
        s += &format!("; they disagree for {}", apart.join(", "));
    }
    if unknown > 0 {
        s += &format!("; {unknown} have {} for one estimator or both", verdict::NOT_ENOUGH);
    }
    s += ".**\n\n";
    if !far.is_empty() {
        s += &format!(
            "Values more than {} times apart (imbalance / regression), each explained on its report's page: {}.\n\n",
            crate::values::agreement::QUOTABLE,
            far.join(", ")
        );
    }
    let studies: Vec<String> = reports.iter().flat_map(super::study::summary_lines).collect();
    if !studies.is_empty() {
        s += "Value studies attached to the reports as evidence (details on each report's page):\n\n";
        s += &studies.iter().map(|l| format!("* {l}.\n")).collect::<String>();
        s += "\n";
    }
    s
}

/// Flying Bomber against Rook in every bomber game, in its rules and with each option.
fn summary_bomber(reports: &[ReportData]) -> String {
    let rows: Vec<(&ReportData, Option<&str>, &PieceValue)> =
        reports.iter().flat_map(|d| bomber_estimates(d).into_iter().map(move |(o, v)| (d, o, v))).collect();
    if rows.is_empty() {
        return String::new();
    }
    let mut s = String::from("\n## Flying Bomber against Rook\n\n");
    let rules = |d: &ReportData, o: Option<&str>| o.map_or(options_label(d), |o| format!("{} + {o}", options_label(d)));
    s += &verdicts(
        rows.iter()
            .map(|(d, o, v)| {
                let names = Names::of(&d.variant, &d.options);
                format!("{} ({}), {}: {}", d.title, rules(d, *o), v.method, bomber_verdict(&names, v))
            })
            .collect(),
    );
    s += "| variant | rules | method | F - R (pawns) | 95 % interval | games |\n|---|---|---|---|---|---|\n";
    for (d, o, v) in rows {
        s += &format!("| {} | {} | {} | {} | {} |\n", d.title, rules(d, o), v.method, value_cells(v, true), v.games);
    }
    s
}

pub fn summary_html(reports: &[ReportData], folders: &[String]) -> String {
    let label = |d: &ReportData, extra: &str| {
        let o = if d.options.is_empty() { String::new() } else { format!(" +{}", d.options.join("+")) };
        format!("{}{o} · {extra}", d.title)
    };
    let charts = |h: &str, body: &mut String| match h {
        "Balance" => {
            let all = || reports.iter().flat_map(|d| d.balance.iter().map(move |b| (d, b)));
            let elo: Vec<Bar> = all()
                .map(|(d, b)| (label(d, &b.label), b.white_elo.value, b.white_elo.low, b.white_elo.high))
                .collect();
            *body += &svg::bars(
                "All variants: White's advantage",
                "White's advantage (Elo; 0 = even), 95 % intervals",
                &elo,
                "",
            );
            *body += &draw_chart("All variants", all().map(|(d, b)| (label(d, &b.label), b)));
        }
        "Flying Bomber against Rook" => {
            let bars: Vec<Bar> = reports
                .iter()
                .flat_map(|d| {
                    bomber_estimates(d).into_iter().map(move |(o, v)| {
                        (
                            label(d, &format!("{}{}", o.map_or(String::new(), |o| format!("+{o} ")), v.method)),
                            v.value,
                            v.low,
                            v.high,
                        )
                    })
                })
                .collect();
            *body +=
                &svg::bars("Flying Bomber minus Rook", "F − R (pawns; 0 = equal worth), 95 % intervals", &bars, "");
        }
        _ => {}
    };
    let md = summary_markdown(reports, folders);
    page("fairylab summary", &md_html(&md, &charts))
}
