//! A report's files: report.json, its CSV tables and pages, and the cross-variant summary
//! written again from every report.json under a folder.

use super::ReportError;
use super::{render, study, summary as pages, ReportData};
use std::path::Path;

/// Writes report.json, the CSV tables, report.md and report.html.
pub fn write(out: &Path, data: &ReportData) -> Result<(), ReportError> {
    // The derived figures follow the data written, whoever filled it.
    let mut derived = data.clone();
    derived.derive();
    let data = &derived;
    std::fs::create_dir_all(out).map_err(|e| ReportError::io("create", out, e))?;
    let w = |name: &str, text: String| -> Result<(), ReportError> {
        // Through a temporary file, so that an interrupted write leaves the old file whole.
        let part = out.join(format!("{name}.part"));
        std::fs::write(&part, text)
            .and_then(|()| std::fs::rename(&part, out.join(name)))
            .map_err(|e| ReportError::io("write", &out.join(name), e))
    };
    w(
        "report.json",
        serde_json::to_string_pretty(data).map_err(|e| ReportError::io("write", &out.join("report.json"), e))?,
    )?;
    let mut csv = String::from("label,nodes,games,white_score,white_score_low,white_score_high,white_elo,white_elo_low,white_elo_high,draw_rate,draw_rate_low,draw_rate_high\n");
    for b in data.balance.iter().chain(data.option_effects.iter().map(|o| &o.balance)) {
        csv += &format!(
            "{},{},{},{},{},{}\n",
            b.label,
            b.nodes,
            b.games,
            b.white_score.csv(4),
            b.white_elo.csv(1),
            b.draw_rate.csv(4)
        );
    }
    w("balance.csv", csv)?;
    let mut csv = String::from("first_ply,games\n");
    for (p, n) in &data.lengths.bins {
        csv += &format!("{p},{n}\n");
    }
    w("lengths.csv", csv)?;
    let mut csv = String::from("termination,games\n");
    for (t, n) in &data.terminations {
        csv += &format!("{t},{n}\n");
    }
    w("terminations.csv", csv)?;
    // The report's own values (option column empty), then those of each option.
    let mut csv = String::from("option,piece,value,ci_low,ci_high,method,games\n");
    let all = data.piece_values.iter().map(|v| ("", v));
    let with_options = data.option_effects.iter().flat_map(|o| o.piece_values.iter().map(|v| (o.option.as_str(), v)));
    for (option, v) in all.chain(with_options) {
        csv += &format!("{option},{},{},{},{}\n", v.piece, v.csv_figures(), v.method, v.games);
    }
    w("piece_values.csv", csv)?;
    if !data.replacements.is_empty() {
        let mut csv =
            String::from("piece,value,ci_low,ci_high,replaces,chess_value,chess_ci_low,chess_ci_high,method\n");
        for r in &data.replacements {
            let (a, b) = (&r.piece, &r.orthodox);
            csv += &format!("{},{},{},{},{}\n", a.piece, a.csv_figures(), b.piece, b.csv_figures(), a.method);
        }
        w("replacements.csv", csv)?;
    }
    if let Some(m) = &data.setup {
        let mut csv = String::from("white,black,games,white_score,low,high\n");
        for c in &m.cells {
            csv += &format!("{},{},{},{}\n", c.white, c.black, c.games, c.white_score.csv(4));
        }
        w("setup_matrix.csv", csv)?;
    }
    let diagrams = out.join("diagrams");
    std::fs::create_dir_all(&diagrams).map_err(|e| ReportError::io("create", &diagrams, e))?;
    for f in super::diagrams::of(data) {
        w(&f.file, f.svg)?;
    }
    let games = super::viewer::files(data);
    if !games.is_empty() {
        let dir = out.join("games");
        std::fs::create_dir_all(&dir).map_err(|e| ReportError::io("create", &dir, e))?;
    }
    for (file, text) in games {
        w(&file, text)?;
    }
    w("report.md", render::markdown(data))?;
    w("report.html", render::html(data))?;
    Ok(())
}

/// Cross-variant summary of every `*/report.json` under `root`. Each report's pages and
/// tables are written again from its report.json first, so that every page follows the
/// current renderer (a report made by an older fairylab gets today's wording and charts
/// without replaying its games).
pub fn summary(root: &Path, studies: &[study::Study]) -> Result<usize, ReportError> {
    let mut reports = vec![];
    let entries = std::fs::read_dir(root).map_err(|e| ReportError::io("read", root, e))?;
    // A table may hold several option sets; it is refused only when none of them has a report.
    let mut used: Vec<(&str, bool)> = studies.iter().map(|s| (s.source.as_str(), false)).collect();
    for e in entries.flatten() {
        let p = e.path().join("report.json");
        if let Ok(text) = std::fs::read_to_string(&p) {
            let mut d: ReportData = serde_json::from_str(&text)
                .map_err(|e| ReportError::Unreadable { path: p.clone(), reason: e.to_string() })?;
            for (i, s) in studies.iter().enumerate() {
                used[i].1 |= s.matches(&d)
                    || d.option_effects.iter().any(|o| s.matches_with(&d.variant, &d.options, Some(&o.option)));
            }
            study::attach(&mut d, studies);
            d.derive();
            write(&e.path(), &d)?;
            reports.push((e.file_name().to_string_lossy().into_owned(), d));
        }
    }
    if let Some(i) = used.iter().position(|(source, _)| !used.iter().any(|(s, u)| s == source && *u)) {
        let s = &studies[i];
        return Err(ReportError::Study(format!(
            "--study {}: no report under {} is of {} ({}); the other reports were written",
            s.source,
            root.display(),
            s.variant,
            if s.options.is_empty() { "no options".into() } else { s.options.join(", ") }
        )));
    }
    reports.sort_by(|(_, a), (_, b)| (&a.variant, &a.options).cmp(&(&b.variant, &b.options)));
    let (folders, reports): (Vec<String>, Vec<ReportData>) = reports.into_iter().unzip();
    let write = |name: &str, text: String| {
        std::fs::write(root.join(name), text).map_err(|e| ReportError::io("write", &root.join(name), e))
    };
    write("summary.md", pages::summary_markdown(&reports, &folders))?;
    write("summary.html", pages::summary_html(&reports, &folders))?;
    Ok(reports.len())
}
