//! Reports: the numbers in report.md/CSV match report.json and the raw games beside them.

use fairylab::report::{self, figures, Budget, ReportConfig, ReportData};
use fairylab::tournament::output;
use std::path::PathBuf;

fn tiny_config(variant: &str, name: &str) -> ReportConfig {
    let out = std::env::temp_dir().join(format!("fairylab-report-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    ReportConfig {
        variant: variant.into(),
        options: vec![],
        budget: Budget::Tiny,
        out,
        concurrency: 2,
        seed: 3,
        progress: Default::default(),
        shard: None,
        balance_pairs: None,
        nodes: None,
        studies: vec![],
    }
}

fn tiny(variant: &str, name: &str) -> (PathBuf, ReportData) {
    let cfg = tiny_config(variant, name);
    let data = report::run(&cfg).unwrap();
    (cfg.out, data)
}

fn games_in(dir: &std::path::Path) -> usize {
    output::read_games(dir).map_or(0, |g| g.len())
}

/// How report.md shows a piece value: two decimals, or "not enough data" when the value or
/// its interval is undefined (too few games to convert).
fn value_cell(v: &report::PieceValue) -> String {
    if defined(v) {
        format!("{:.2}", v.value)
    } else {
        "not enough data".to_string()
    }
}

fn defined(v: &report::PieceValue) -> bool {
    v.support.is_supported() && v.value.is_finite() && v.low.is_finite() && v.high.is_finite()
}

/// How piece_values.csv writes a value and its interval: empty fields without support.
fn csv_figures(v: &report::PieceValue) -> String {
    if v.support.is_supported() {
        format!("{:.3},{:.3},{:.3}", v.value, v.low, v.high)
    } else {
        assert!(v.value.is_nan() && v.low.is_nan() && v.high.is_nan(), "an unsupported figure has no numbers: {v:?}");
        ",,".into()
    }
}

/// A signed value and its interval as two table cells (the bomber headline).
fn signed_cells(v: &report::PieceValue) -> String {
    if defined(v) {
        format!("{:+.2} | [{:+.2}, {:+.2}]", v.value, v.low, v.high)
    } else {
        "not enough data | -".to_string()
    }
}

/// A value with its interval in one cell (the cross-variant summary).
fn interval_text(v: &report::PieceValue) -> String {
    if defined(v) {
        format!("{:.2} [{:.2}, {:.2}]", v.value, v.low, v.high)
    } else {
        "not enough data".to_string()
    }
}

#[test]
fn shards_of_a_report_merge_into_the_unsharded_report() {
    let (_, whole) = tiny("noble-wings", "whole");
    let mut parts = vec![];
    for i in 1..=2 {
        let mut cfg = tiny_config("noble-wings", &format!("part{i}"));
        cfg.shard = Some((i, 2));
        report::run(&cfg).unwrap();
        assert!(!cfg.out.join("report.json").exists(), "a shard writes no report");
        let runs = cfg.out.join("runs");
        assert_eq!(games_in(&runs.join("balance-100")), 2, "one of the two pairs");
        // The chain waits for the merged regression; the pawn-odds calibration does not.
        let imbalance: Vec<String> = std::fs::read_dir(runs.join("values/imbalance"))
            .map(|d| d.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
            .unwrap_or_default();
        assert!(imbalance.iter().all(|n| n.starts_with("pawn-odds")), "{imbalance:?}");
        parts.push(cfg.out);
    }
    let merged = tiny_config("noble-wings", "merged");
    let (runs, games, _) = output::merge_tree(&parts, &merged.out).unwrap();
    assert!(runs >= 4 && games > 100, "{runs} runs, {games} games");
    assert_eq!(games_in(&merged.out.join("runs/balance-100")), 4);
    let data = report::run(&merged).unwrap();
    // Compared as text: a tiny budget can leave an estimate undefined (NaN) in both, and
    // NaN never equals itself; Debug prints every float exactly.
    assert_eq!(format!("{data:?}"), format!("{whole:?}"), "the merged shards give the unsharded report");
    for p in parts.iter().chain([&merged.out]) {
        let _ = std::fs::remove_dir_all(p);
    }
}

#[test]
fn report_numbers_match_raw_games_and_files() {
    let (out, data) = tiny("flying-bombers-hangars", "hangars");
    let text = std::fs::read_to_string(out.join("report.json")).unwrap();
    assert_eq!(text, serde_json::to_string_pretty(&data).unwrap());
    let _: ReportData = serde_json::from_str(&text).expect("report.json reads back");
    // Balance recomputed from the raw games of each run.
    for b in &data.balance {
        let games = output::read_games(&out.join("runs").join(format!("balance-{}", b.nodes))).unwrap();
        let again = figures::balance(&b.label, b.nodes, &games);
        assert_eq!(&again, b);
        assert_eq!(b.games, games.len() as u64);
    }
    // The option run exists for the variant's one option.
    assert_eq!(data.option_effects.len(), 1);
    assert_eq!(data.option_effects[0].option, "immediate-landing");
    assert_eq!(data.option_effects[0].pieces, ["F"], "the option changes the bomber");
    // The Markdown shows exactly the JSON's figures, and the CSV has them too.
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let csv = std::fs::read_to_string(out.join("balance.csv")).unwrap();
    for b in &data.balance {
        assert!(md.contains(&report::format_pct(&b.white_score)), "white score missing from report.md");
        assert!(md.contains(&report::format_elo(&b.white_elo)), "Elo missing from report.md");
        assert!(csv.contains(&format!("{},{},{},{}", b.label, b.nodes, b.games, b.white_score.csv(4))));
    }
    let total: u64 = data.terminations.values().sum();
    let last = data.balance.last().unwrap();
    assert_eq!(total, last.games, "terminations count the stronger run's games");
    let lengths: u64 = data.lengths.bins.iter().map(|b| b.1).sum();
    assert_eq!(lengths, last.games);
    // Piece values (regression for every piece, imbalance F=R in a bomber game) match their CSV.
    assert!(data.piece_values.iter().any(|v| v.piece == "F"), "{:?}", data.piece_values);
    let values_csv = std::fs::read_to_string(out.join("piece_values.csv")).unwrap();
    let names = report::names::Names::of(&data.variant, &data.options);
    let with_option = &data.option_effects[0].piece_values;
    assert!(with_option.iter().any(|v| v.piece == "F-R"), "no bomber value with the option: {with_option:?}");
    assert_eq!(values_csv.lines().count(), data.piece_values.len() + with_option.len() + 1);
    for v in &data.piece_values {
        assert!(values_csv.contains(&format!("\n,{},{}", v.piece, csv_figures(v))));
        assert!(md.contains(&format!("| {} | {} |", names.label(&v.piece), value_cell(v))), "{v:?} not in report.md");
    }
    for v in with_option {
        let line = format!("\nimmediate-landing,{},{}", v.piece, csv_figures(v));
        assert!(values_csv.contains(&line), "{line} not in piece_values.csv");
        assert!(md.contains(&format!("| {} | {} | {} |", names.label(&v.piece), v.method, value_cell(v))));
    }
    // The imbalance estimator covers every piece, not only the bomber: a chain of
    // near-balanced matches (one per piece, from the regression's values) besides F=R.
    let pieces: Vec<&str> = data
        .piece_values
        .iter()
        .filter(|v| v.method.starts_with("regression") && v.piece.len() == 1 && v.piece != "P")
        .map(|v| v.piece.as_str())
        .collect();
    let matches: Vec<String> = std::fs::read_dir(out.join("runs").join("values").join("imbalance"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with("pawn-odds"))
        .collect();
    assert!(matches.len() >= pieces.len(), "{matches:?} for {pieces:?}");
    for p in &pieces {
        assert!(
            matches.iter().any(|m| m.starts_with(&format!("{p}-vs-")) || m.contains(&format!("vs-{p}"))),
            "{p}: {matches:?}"
        );
    }
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("<svg") && html.contains("</html>"));
    assert!(
        !html.contains("http://")
            || html.matches("http://").all(|_| html.contains("xmlns=\"http://www.w3.org/2000/svg\""))
    );
    // The budget's precision is stated up front: the widest balance interval.
    let widest = data.balance.iter().map(|b| 50.0 * (b.white_score.high - b.white_score.low)).fold(f64::NAN, f64::max);
    if widest.is_finite() {
        assert!(md.contains(&format!("White's score ±{widest:.1} %")), "no precision line");
    } else {
        assert!(md.contains("Precision at this budget: not enough data"), "no precision line");
    }
    assert!(md.contains("A quick look"), "a tiny budget says it is a quick look");
    // The headline of the bomber games comes first, with every F-R figure.
    let headline: Vec<&report::PieceValue> = data
        .piece_values
        .iter()
        .chain(data.option_effects.iter().flat_map(|o| &o.piece_values))
        .filter(|v| v.piece == "F-R")
        .collect();
    assert!(!headline.is_empty());
    assert!(md.find("## Flying Bomber against Rook").unwrap() < md.find("## Balance").unwrap());
    for v in headline {
        let row = format!("| {} | {} | {} |", v.method, signed_cells(v), v.games);
        assert!(md.contains(&row), "{row} not in the headline");
    }
    // Summary across reports: every balance row and every piece's values, as in the report.
    let all = out.with_extension("all");
    std::fs::create_dir_all(all.join("hangars")).unwrap();
    std::fs::copy(out.join("report.json"), all.join("hangars/report.json")).unwrap();
    assert_eq!(report::summary(&all, &[]), Ok(1));
    let summary = std::fs::read_to_string(all.join("summary.md")).unwrap();
    for b in &data.balance {
        let row = format!(
            "| {} | {} | {} | {} |",
            b.games,
            report::format_pct(&b.white_score),
            report::format_elo(&b.white_elo),
            report::format_pct(&b.draw_rate)
        );
        assert!(summary.contains(&row), "{row} not in the summary");
    }
    for o in &data.option_effects {
        assert!(summary.contains(&format!(
            "| {} | {} nodes | {} |",
            o.option,
            o.balance.nodes,
            report::format_pct(&o.balance.white_score)
        )));
        // The value of the piece the option changes, with the option and without it.
        // A regression the games could not fit has no row; the summary shows "-" for it.
        let line = summary
            .lines()
            .find(|l| l.contains(&format!("| {} | {} nodes |", o.option, o.balance.nodes)))
            .expect("the option's summary row");
        for list in [&o.piece_values, &data.piece_values] {
            let cell = match list.iter().find(|v| v.piece == "F" && v.method.starts_with("regression")) {
                Some(f) => format!(" {} {} |", names.label("F"), interval_text(f)),
                None => " - |".to_string(),
            };
            assert!(line.contains(&cell), "{cell} not in the summary row {line}");
        }
    }
    for v in
        data.piece_values.iter().filter(|v| v.method.starts_with("regression") && v.piece.len() == 1 && v.piece != "P")
    {
        let cell = format!("| {} | {} |", names.label(&v.piece), interval_text(v));
        assert!(summary.contains(&cell), "{cell} not in the summary");
    }
    let html = std::fs::read_to_string(all.join("summary.html")).unwrap();
    assert_eq!(html.matches("<svg").count(), 3, "Elo, draw-rate and bomber charts");
    let _ = std::fs::remove_dir_all(&all);
}

#[test]
fn noble_report_sets_each_noble_piece_beside_the_piece_it_replaces() {
    let (out, data) = tiny("noble-wings", "noble");
    let pairs: Vec<(String, String)> =
        data.replacements.iter().map(|r| (r.piece.piece.clone(), r.orthodox.piece.clone())).collect();
    assert_eq!(pairs, [("A", "B"), ("E", "R"), ("O", "N")].map(|(a, b)| (a.to_string(), b.to_string())));
    // The orthodox figures are the chess run's own regression values.
    let text = std::fs::read_to_string(out.join("runs/values-chess/values.json")).unwrap();
    let chess: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    for r in &data.replacements {
        let row = chess.iter().find(|v| v["piece"] == r.orthodox.piece && v["method"] == r.orthodox.method).unwrap();
        assert_eq!(row["variant"], "chess");
        // An unsupported figure is null in JSON and NaN in the report's data.
        let got = [&row["value"], &row["ci_low"], &row["ci_high"]].map(|x| x.as_f64().unwrap_or(f64::NAN));
        let want = [r.orthodox.value, r.orthodox.low, r.orthodox.high];
        assert!(got.iter().zip(&want).all(|(a, b)| a == b || (a.is_nan() && b.is_nan())), "{got:?} {want:?}");
        assert_eq!(row["support"] == "supported", r.orthodox.support.is_supported());
    }
    let csv = std::fs::read_to_string(out.join("replacements.csv")).unwrap();
    assert_eq!(csv.lines().count(), 4);
    let earl = report::names::Names::of("noble-wings", &[]).label("E");
    assert!(std::fs::read_to_string(out.join("report.md")).unwrap().contains(&format!("| {earl} | ")));
}

#[test]
fn bland_report_has_the_setup_matrix() {
    let (out, data) = tiny("bland-chess-46", "bland");
    let m = data.setup.as_ref().expect("setup matrix");
    assert_eq!(m.choices.len(), 6);
    assert_eq!(m.cells.len(), 36);
    // Two games per cell at this budget: no cell has enough for a score, so no best choice
    // is claimed and the page says so.
    assert!(m.cells.iter().all(|c| c.games < 10 && !c.white_score.is_defined()));
    assert_eq!((&m.best_white, &m.best_black), (&None, &None));
    assert!(std::fs::read_to_string(out.join("report.md")).unwrap().contains("not enough data"));
    assert!(std::fs::read_to_string(out.join("setup_matrix.csv")).unwrap().lines().count() == 37);
    assert!(data.notes.iter().any(|n| n.contains("provisional")));
    // One game kept per setup pairing, each from its pairing's run, with its PGN linked.
    let games = &data.games.as_ref().expect("games kept").games;
    assert_eq!(games.len(), 36);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    for (i, c) in m.cells.iter().enumerate() {
        assert_eq!(games[i].run, format!("setup-{}-{}", c.white, c.black));
        assert!(games[i].why.starts_with(&format!("White chose {}, Black {}", c.white, c.black)));
        assert!(
            md.contains(&format!("](games/game-{}.pgn)", i + 1))
                && out.join(format!("games/game-{}.pgn", i + 1)).is_file()
        );
    }
    // The regression's games start from every setup combination, so the pieces only a
    // setup brings in (Knight, Modern War Machine) get values too.
    for piece in ["N", "M"] {
        assert!(
            data.piece_values.iter().any(|v| v.piece == piece && v.method.starts_with("regression")),
            "no regression value for {piece}: {:?}",
            data.notes
        );
    }
}

#[test]
fn setup_positions_fill_the_slots() {
    let v = fairylab::Variant::load("bland-chess-46", &[]).unwrap();
    let b = v.setup_position("NW/MM").unwrap();
    assert_eq!(b.fen(), "rmrkmr/pppppp/6/5*/5*/6/PPPPPP/RNRKWR w - - 0 1 NW/MM");
    assert!(v.setup_position("XW/WW").is_err());
    assert!(v.setup_position("WW").is_err());
}

#[test]
fn an_option_gets_an_imbalance_match_for_the_piece_it_changes() {
    let (out, data) = tiny("flying-bombers-grand", "grand");
    let sjk = data.option_effects.iter().find(|o| o.option == "super-jump-knights").unwrap();
    assert_eq!(sjk.pieces, ["N"]);
    // The knight against its nearest piece by the option's own regression, besides F=R.
    let knight: Vec<&report::PieceValue> =
        sjk.piece_values.iter().filter(|v| v.method == "imbalance" && v.piece.contains('N')).collect();
    assert_eq!(knight.len(), 1, "{:?}", sjk.piece_values);
    // Four games cannot calibrate pawns, so the value may be NaN; a value has its interval.
    let k = knight[0];
    assert!(k.games > 0 && (k.value.is_nan() || (k.low <= k.value && k.value <= k.high)), "{k:?}");
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let label = report::names::Names::of("flying-bombers-grand", &[]).label(&k.piece);
    assert!(md.contains(&format!("| {label} | imbalance | {} |", value_cell(k))), "{k:?} not in report.md");
    // Immediate Landing changes the bomber, whose match is the headline F=R only.
    let il = data.option_effects.iter().find(|o| o.option == "immediate-landing").unwrap();
    let matches: Vec<&str> =
        il.piece_values.iter().filter(|v| v.method == "imbalance").map(|v| v.piece.as_str()).collect();
    assert_eq!(matches, ["F-R"]);
    let _ = std::fs::remove_dir_all(&out);
}

// ---- Rendering: verdicts, names, glossary, chart axes (no games played) ----

use fairylab::report::figures::Interval;
use fairylab::report::{glossary, matrix, names::Names, svg, verdict, SetupCell, SetupMatrix};

fn iv(value: f64, low: f64, high: f64) -> Interval {
    Interval { value, low, high }
}

#[test]
fn ticks_are_round_cover_the_range_and_include_zero() {
    for (lo, hi) in
        [(-46.36, 47.69), (-0.99, 0.49), (0.3, 0.9), (1234.0, 5678.0), (-18.1, 31.7), (0.0, 7.0), (-3.0, -2.2)]
    {
        let t = svg::ticks(lo, hi, 6);
        assert!(t.len() >= 2 && t.len() <= 14, "{lo}..{hi}: {t:?}");
        assert!(t[0] <= lo && *t.last().unwrap() >= hi, "{lo}..{hi} not covered by {t:?}");
        let step = t[1] - t[0];
        let mantissa = step / 10f64.powf(step.log10().floor());
        assert!([1.0, 2.0, 5.0].iter().any(|m| (mantissa - m).abs() < 1e-6), "step {step} is not 1-2-5");
        for x in &t {
            assert!(((x / step) - (x / step).round()).abs() < 1e-6, "{x} is not a multiple of {step}");
        }
        // Labels print the round numbers, not float noise.
        for x in &t {
            assert!(svg::tick_label(*x, &t).len() <= 6, "{}", svg::tick_label(*x, &t));
        }
        if lo < 0.0 && hi > 0.0 {
            assert!(t.contains(&0.0), "{lo}..{hi}: no zero in {t:?}");
        }
    }
    assert!(svg::ticks(f64::NAN, 1.0, 6).is_empty());
}

#[test]
fn an_end_on_a_round_number_gets_no_tick_beyond_it() {
    // A rate from 0 %: the axis starts at zero, not at -10 %.
    assert_eq!(svg::ticks(0.0, 39.5, 6), vec![0.0, 10.0, 20.0, 30.0, 40.0]);
    assert_eq!(svg::ticks(-20.0, 40.0, 6), vec![-20.0, -10.0, 0.0, 10.0, 20.0, 30.0, 40.0]);
    // Float noise on the far side of a round end still rounds to it.
    assert_eq!(svg::ticks(0.1 + 0.2 - 0.3, 0.7 * 100.0, 6).first(), Some(&0.0));
}

#[test]
fn typical_intervals_are_shown_whole() {
    // Balance-like: values close together, intervals much wider than their spread.
    let rows = vec![("a".to_string(), 12.2, -7.3, 31.7), ("b".to_string(), -1.3, -18.1, 15.5)];
    assert_eq!(svg::bar_span(&rows, 0.0), (-18.1, 31.7));
}

#[test]
fn one_runaway_interval_is_cut() {
    let mut rows: Vec<(String, f64, f64, f64)> =
        (1..=5).map(|i| (format!("p{i}"), i as f64, i as f64 - 0.5, i as f64 + 0.5)).collect();
    rows.push(("wild".into(), 3.0, 1.0, 99.0));
    let (lo, hi) = svg::bar_span(&rows, 0.0);
    assert_eq!(lo, 0.0);
    assert!((5.5..10.0).contains(&hi), "axis end {hi}");
    // The cut end gets an arrowhead; whole intervals get none.
    let chart = svg::bars("t", "pawns", &rows, "");
    assert_eq!(chart.matches("class=\"cut\"").count(), 1, "{chart}");
    rows.pop();
    assert_eq!(svg::bars("t", "pawns", &rows, "").matches("class=\"cut\"").count(), 0);
}

#[test]
fn bar_chart_has_a_zero_line_gridlines_and_an_axis_title() {
    let rows = vec![("a".to_string(), 12.2, -7.3, 31.7), ("b".to_string(), -1.3, -18.1, 15.5)];
    let chart = svg::bars("t", "White's advantage (Elo)", &rows, "");
    assert!(chart.contains(">White's advantage (Elo)</text>"));
    let labels: Vec<&str> = chart.split("class=\"tick\">").skip(1).filter_map(|t| t.split('<').next()).collect();
    assert!(labels.contains(&"0"), "{labels:?}");
    assert!(labels.len() >= 4, "{labels:?}");
}

#[test]
fn histogram_has_a_count_axis() {
    let chart = svg::histogram("t", &[(0, 3), (10, 17), (20, 9)], 10, "plies");
    let labels: Vec<f64> =
        chart.split("class=\"tick\">").skip(1).filter_map(|t| t.split('<').next()?.parse().ok()).collect();
    assert_eq!(labels.first(), Some(&0.0));
    assert!(*labels.last().unwrap() >= 17.0, "{labels:?}");
    assert!(chart.contains(">games</text>"));
}

#[test]
fn balance_verdict_follows_the_interval() {
    assert!(verdict::balance(&iv(30.0, 10.0, 50.0)).starts_with("White favoured by 30.0 Elo"));
    assert!(verdict::balance(&iv(-12.0, -20.0, -4.0)).starts_with("Black favoured by 12.0 Elo"));
    let even = verdict::balance(&iv(5.0, -10.0, 20.0));
    assert!(even.starts_with("Balanced within ±20.0 Elo"), "{even}");
    assert!(verdict::balance(&iv(5.0, -24.5, 20.0)).starts_with("Balanced within ±24.5 Elo"));
    assert!(!verdict::balance(&iv(5.0, -24.5, 20.0)).contains("at most"), "near-symmetric: one figure says it");
    // A lopsided interval gives both one-sided bounds.
    let lop = verdict::balance(&iv(35.0, -9.3, 79.0));
    assert!(lop.contains("White's edge at most 79.0 Elo, Black's at most 9.3"), "{lop}");
    for missing in [iv(f64::NAN, f64::NAN, f64::NAN), iv(5.0, f64::NAN, 20.0)] {
        assert!(verdict::balance(&missing).contains("not enough data"));
    }
}

#[test]
fn difference_verdict_follows_the_interval() {
    let (f, r) = ("the Flying Bomber (F)", "the Rook (R)");
    let same = verdict::difference(f, r, &iv(-0.25, -0.99, 0.49));
    assert!(same.starts_with("The Flying Bomber (F) and the Rook (R) are worth the same within ±0.99 pawns"), "{same}");
    assert!(verdict::difference(f, r, &iv(0.5, 0.1, 0.9)).contains("is worth more than the Rook (R) by 0.50 pawns"));
    let less = verdict::difference(f, r, &iv(-0.5, -0.8, -0.2));
    assert!(less.contains("is worth less than the Rook (R) by 0.50 pawns (95 % interval 0.20 to 0.80)"), "{less}");
    assert!(verdict::difference(f, r, &iv(f64::NAN, f64::NAN, f64::NAN)).starts_with("Not enough data"));
}

#[test]
fn separate_intervals_differ_only_when_they_do_not_overlap() {
    let a = iv(3.0, 2.5, 3.5);
    assert!(verdict::compare("A", &a, "B", &iv(3.2, 3.0, 3.4), "pawns").contains("cannot be told apart"));
    assert!(verdict::compare("A", &a, "B", &iv(2.0, 1.5, 2.4), "pawns").contains("A is worth more than B"));
    assert!(verdict::compare("A", &a, "B", &iv(4.0, 3.6, 4.4), "pawns").contains("A is worth less than B"));
    assert!(verdict::compare("A", &a, "B", &iv(f64::NAN, 1.0, 2.0), "pawns").contains("Not enough data"));
}

fn setup(cells: &[(&str, &str, f64, f64)]) -> SetupMatrix {
    let mut choices: Vec<String> = cells.iter().map(|c| c.0.to_string()).collect();
    choices.dedup();
    SetupMatrix {
        choices,
        cells: cells
            .iter()
            .map(|&(w, b, v, half)| SetupCell {
                white: w.into(),
                black: b.into(),
                games: 80,
                white_score: iv(v, v - half, v + half),
            })
            .collect(),
        best_white: None,
        best_black: None,
    }
}

#[test]
fn the_best_setup_choice_is_the_best_worst_case_over_cells_with_enough_games() {
    // White's worst cases: X 0.40 (against Y), Y 0.45 (against X); Black's (White's
    // highest): X 0.70, Y 0.60. Z's only defined cell is against X.
    let nan = f64::NAN;
    let cells = [
        ("X", "X", 0.70, 0.1),
        ("X", "Y", 0.40, 0.1),
        ("X", "Z", nan, 0.1),
        ("Y", "X", 0.45, 0.1),
        ("Y", "Y", 0.60, 0.1),
        ("Y", "Z", nan, 0.1),
        ("Z", "X", 0.30, 0.1),
        ("Z", "Y", nan, 0.1),
        ("Z", "Z", nan, 0.1),
    ];
    let m = setup(&cells);
    assert_eq!(matrix::maximin(&m.choices, &m.cells, true), Some(("Y".into(), 0.45)));
    assert_eq!(matrix::maximin(&m.choices, &m.cells, false), Some(("Y".into(), 0.60)));
    // Ties keep the first choice; with no defined cell there is no best choice.
    let even = setup(&[("X", "X", 0.5, 0.1), ("X", "Y", 0.5, 0.1), ("Y", "X", 0.5, 0.1), ("Y", "Y", 0.5, 0.1)]);
    assert_eq!(matrix::maximin(&even.choices, &even.cells, true), Some(("X".into(), 0.5)));
    let none = setup(&cells.map(|(w, b, _, h)| (w, b, nan, h)));
    assert_eq!(matrix::maximin(&none.choices, &none.cells, true), None);
    // A choice whose cells all lack games is not ranked.
    assert!(matrix::ranked(&m, false).iter().all(|(c, _)| *c != "Z"));
}

/// Games of `pairs` colour-swapped pairs, White scoring `white` in each game.
fn games(pairs: u64, white: &[&str]) -> Vec<output::GameRow> {
    let mut out = vec![];
    for p in 0..pairs {
        for (g, r) in white.iter().enumerate() {
            let mut row: output::GameRow =
                serde_json::from_str(r#"{"game_id":0,"pair_id":0,"white":"A","black":"B","result":"1-0","termination":"checkmate","plies":40,"white_material":"","black_material":"","seed":1,"opening":"","moves":"","final_fen":""}"#).unwrap();
            row.game_id = p * 2 + g as u64;
            row.pair_id = p;
            row.result = r.to_string();
            out.push(row);
        }
    }
    out
}

#[test]
fn balance_figures_need_ten_games_and_two_pairs() {
    // Four equal games: once a zero-width 100 % [100, 100]; now not enough data.
    let few = figures::balance("x", 100, &games(2, &["1-0", "1-0"]));
    assert_eq!(few.games, 4);
    assert!(!few.white_score.is_defined() && !few.draw_rate.is_defined() && few.decisive_rate.is_nan());
    assert_eq!(report::format_pct(&few.white_score), "not enough data");
    assert_eq!(few.white_score.csv(4), ",,");
    // Twelve games in six pairs, each pair a White win and a draw: 75 %, a third drawn.
    let enough = figures::balance("x", 100, &games(6, &["1-0", "1/2-1/2"]));
    assert_eq!(enough.games, 12);
    assert!((enough.white_score.value - 0.75).abs() < 1e-12 && (enough.decisive_rate - 0.5).abs() < 1e-12);
    // Every pair scores the same, so the measured spread over pairs is zero; the interval
    // is then the binomial (Wilson) one of twelve games, not the point.
    let s = &enough.white_score;
    assert!(s.low < 0.5 && s.high > 0.9 && s.high < 1.0, "{s:?}");
    assert!(enough.white_elo.is_defined());
    // With a real spread the interval narrows as pairs add up, and never leaves [0, 1].
    let mixed = |pairs| {
        figures::balance(
            "x",
            100,
            &games(pairs, &["1-0", "1/2-1/2"])
                .into_iter()
                .chain(games(pairs, &["1-0", "1-0"]).into_iter().map(|mut g| {
                    g.pair_id += 1000;
                    g
                }))
                .collect::<Vec<_>>(),
        )
    };
    let (small, large) = (mixed(10).white_score, mixed(1000).white_score);
    assert!((small.value - 0.875).abs() < 1e-12 && (large.value - 0.875).abs() < 1e-12);
    assert!(large.high - large.low < 0.2 * (small.high - small.low) && small.low > 0.0 && small.high < 1.0);
}

#[test]
fn setup_verdict_says_whether_the_best_choice_stands_out() {
    // White's worst cases: X 0.60 (against Y), Y 0.30 (against Y).
    let cells = [("X", "X", 0.75, 0.05), ("X", "Y", 0.60, 0.05), ("Y", "X", 0.50, 0.05), ("Y", "Y", 0.30, 0.05)];
    let clear = setup(&cells);
    let ranked = matrix::ranked(&clear, true);
    assert_eq!((ranked[0].0, ranked[0].1.black.as_str()), ("X", "Y"));
    assert!(matrix::side_verdict(&clear, true)
        .contains("`X` (worst case 0.60 [0.55, 0.65] against `Y`) is distinguishable"));
    // Black's worst cases (White's highest score): X 0.75, Y 0.60; ±0.05 keeps them apart.
    assert!(
        matrix::side_verdict(&clear, false).contains("`Y`")
            && matrix::side_verdict(&clear, false).contains("is distinguishable")
    );
    // The same scores from fewer games: the intervals overlap.
    let vague = setup(&cells.map(|(w, b, v, _)| (w, b, v, 0.2)));
    assert!(matrix::side_verdict(&vague, true).contains("cannot be told from the runner-up"));
    let missing = setup(&cells.map(|(w, b, _, h)| (w, b, f64::NAN, h)));
    assert!(matrix::verdict(&missing).contains("not enough data"));
    assert_ne!(matrix::heat(0.8), matrix::heat(0.2));
    assert_eq!(matrix::heat(0.5), "#ffffff");
}

#[test]
fn pieces_are_named_from_the_variant_file() {
    let toml = std::fs::read_to_string("configs/variants/flying-bombers-grand.toml").unwrap();
    let table: toml::Value = toml::from_str(&toml).unwrap();
    let name = |l: &str| table["pieces"][l]["name"].as_str().unwrap().to_lowercase();
    let names = Names::of("flying-bombers-grand", &[]);
    let f = names.label("F");
    assert!(f.starts_with("F (") && f.to_lowercase().contains(&name("F")), "{f}");
    let fr = names.label("F-(B+P)").to_lowercase();
    for l in ["F", "B", "P"] {
        assert!(fr.contains(&name(l)), "{fr}");
    }
    assert_eq!(names.label("white"), "white");
    assert_eq!(Names::of("no-such-variant", &[]).label("F"), "F");
}

#[test]
fn the_glossary_explains_only_the_terms_a_page_uses() {
    let g = glossary::markdown("Mean length 80 plies; White +12 Elo.");
    assert!(g.contains("**plies**") && g.contains("**Elo**"), "{g}");
    assert!(!g.contains("imbalance-lsq") && !g.contains("pentanomial"), "{g}");
    assert_eq!(glossary::markdown("nothing here"), "");
    // A term is called for by any of its forms: the summary's bracket rows name only the
    // method, a report page's table the unit.
    for page in ["| imbalance-bracket | +0.51 |", "F - R (local pawns)"] {
        assert!(glossary::markdown(page).contains("**local pawns, imbalance-bracket**"), "{page}");
    }
}

/// The committed standard reports, rendered again from their report.json.
fn standard_reports() -> Vec<ReportData> {
    ["bland-chess-46", "flying-bombers-grand", "flying-bombers-hangars", "noble-wings"]
        .iter()
        .map(|v| {
            let text = std::fs::read_to_string(format!("data/reports/standard/{v}/report.json")).unwrap();
            serde_json::from_str(&text).unwrap()
        })
        .collect()
}

/// Every `## ` section of a page, except the notes and the glossary, opens with a verdict
/// (a bold sentence or a list of them), and the glossary comes last.
fn assert_verdicts_and_glossary(page: &str, md: &str) {
    let sections: Vec<&str> = md.split("\n## ").skip(1).collect();
    assert_eq!(sections.last().map(|s| s.starts_with("Glossary")), Some(true), "{page}: no glossary at the end");
    for s in sections.iter().filter(|s| !s.starts_with("Notes") && !s.starts_with("Glossary")) {
        let first = s.lines().skip(1).find(|l| !l.is_empty()).unwrap_or("");
        assert!(first.starts_with("**") || first.starts_with("* "), "{page}: section without a verdict: {s:.80}");
    }
}

#[test]
fn the_summary_has_verdicts_and_the_bomber_in_every_setting() {
    let reports = standard_reports();
    let dir = std::env::temp_dir().join(format!("fairylab-summary-{}", std::process::id()));
    for d in &reports {
        std::fs::create_dir_all(dir.join(&d.variant)).unwrap();
        std::fs::write(dir.join(&d.variant).join("report.json"), serde_json::to_string(d).unwrap()).unwrap();
    }
    assert_eq!(report::summary(&dir, &[]), Ok(reports.len()));
    let md = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    assert_verdicts_and_glossary("summary", &md);
    // Flying Bomber against Rook: one verdict per estimate, in each game's rules and with each option.
    let bomber = md.split("\n## Flying Bomber against Rook").nth(1).unwrap().split("\n## ").next().unwrap();
    let estimates: usize = reports
        .iter()
        .map(|d| {
            let own = d.piece_values.iter().filter(|v| v.piece == "F-R").count();
            own + d.option_effects.iter().flat_map(|o| &o.piece_values).filter(|v| v.piece == "F-R").count()
        })
        .sum();
    assert!(estimates > 0);
    assert_eq!(bomber.lines().filter(|l| l.starts_with("* ")).count(), estimates, "{bomber}");
    let html = std::fs::read_to_string(dir.join("summary.html")).unwrap();
    for d in &reports {
        assert!(!html.contains(&format!("{} @", d.variant)), "code names in the summary charts");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_section_opens_with_a_verdict_and_the_page_ends_with_a_glossary() {
    for d in standard_reports() {
        let md = report::render_markdown(&d);
        assert_verdicts_and_glossary(&d.variant, &md);
        // The glossary covers the page's jargon.
        let glossary = md.split("\n## Glossary").nth(1).unwrap();
        for term in ["plies", "regression-logistic", "imbalance-lsq", "side-to-move"] {
            assert!(glossary.contains(term), "{}: {term} unexplained", d.variant);
        }
        let names = Names::of(&d.variant, &d.options);
        for v in d.piece_values.iter().filter(|v| v.piece.len() == 1) {
            assert!(md.contains(&format!("| {} |", names.label(&v.piece))), "{}: {} unnamed", d.variant, v.piece);
        }
        let html = report::render_html(&d);
        assert!(!html.contains(&format!("{} @", d.variant)), "code names in the charts");
        if let Some(m) = &d.setup {
            for c in &m.cells {
                assert!(md.contains(&report::format_cell_score(&c.white_score)), "{c:?} without its interval");
                let heat = format!("fill=\"{}\"", matrix::heat(c.white_score.value));
                assert!(html.contains(&heat), "{c:?} not coloured");
            }
            assert!(md.contains("best choice"), "no setup verdict");
        }
    }
}

#[test]
fn the_piece_table_tests_the_estimators_by_their_ratio() {
    let value = |piece: &str, method: &str, v: f64, half: f64| report::PieceValue {
        piece: piece.into(),
        value: v,
        low: v - half,
        high: v + half,
        support: Default::default(),
        method: method.into(),
        games: 800,
        nodes: 0,
        unit: "pawns".into(),
    };
    // Imbalance = 1.5 x regression for N and R; the queen's 2.5 x is far off that factor.
    let mut d = standard_reports().remove(1);
    d.piece_values = vec![
        value("N", "regression-logistic", 3.0, 0.3),
        value("N", "imbalance-lsq", 4.5, 0.45),
        value("R", "regression-logistic", 5.0, 0.5),
        value("R", "imbalance-lsq", 7.5, 0.75),
        value("Q", "regression-logistic", 9.0, 0.9),
        value("Q", "imbalance-lsq", 22.5, 2.0),
        value("B", "regression-logistic", 3.2, 0.3),
    ];
    let a = report::estimator_agreement(&d.piece_values);
    assert_eq!(a.pieces.len(), 3, "B has no imbalance value: untested");
    let by = |p: &str| a.pieces.iter().find(|x| x.piece == p).unwrap();
    assert!((by("N").ratio - 1.5).abs() < 1e-9 && (by("R").ratio - 1.5).abs() < 1e-9);
    // Both ratios are 1.5 with intervals clear of 1: each disagrees with "the same value".
    assert!(by("N").disagree && by("Q").disagree && by("Q").beyond_quarter);
    let scale = a.scale.as_ref().unwrap();
    assert!(scale.factor > 1.5 && scale.factor < 2.5 && scale.dof == 2 && scale.p_value < 0.05, "{scale:?}");
    let md = report::render_markdown(&d);
    assert!(md.contains("| 1.50 [") && md.contains("**disagree** (z"), "{md}");
    assert!(md.contains("One unit: the imbalance values are") && md.contains("does not fit"), "{md}");
    assert!(md.contains("**log-ratio test, imbalance / regression**"), "glossary");
    // Equal values agree, and the single factor is 1 and fits.
    d.piece_values.retain(|v| v.method.starts_with("regression"));
    let again: Vec<_> =
        d.piece_values.iter().map(|v| report::PieceValue { method: "imbalance-lsq".into(), ..v.clone() }).collect();
    d.piece_values.extend(again);
    let a = report::estimator_agreement(&d.piece_values);
    assert!(a.pieces.iter().all(|p| !p.disagree && (p.ratio - 1.0).abs() < 1e-12));
    assert!(report::render_markdown(&d).contains("agree within their errors (log-ratio test) for 4 of 4 pieces"));
}

// Values more than 1.25 times apart are never left unexplained: in the headline, in a
// paragraph that says whether the gap is the unit (one factor that excludes 1 fits every
// piece) or too little data, and in the cross-report summary.
#[test]
fn values_more_than_a_quarter_apart_are_named_and_explained() {
    // Each piece's regression and imbalance value, as (value, low, high).
    type Figures = (f64, f64, f64);
    let both = |list: &[(&str, Figures, Figures)]| -> Vec<report::PieceValue> {
        let value = |piece: &str, method: &str, (value, low, high): Figures| report::PieceValue {
            piece: piece.into(),
            value,
            low,
            high,
            support: Default::default(),
            method: method.into(),
            games: 800,
            nodes: 0,
            unit: "pawns".into(),
        };
        list.iter().flat_map(|&(p, r, i)| [value(p, "regression-logistic", r), value(p, "imbalance-lsq", i)]).collect()
    };
    let mut d = standard_reports().remove(1);
    // Every imbalance value 1.5 times the regression's, each within its errors.
    d.piece_values = both(&[
        ("N", (3.0, 1.8, 4.2), (4.5, 3.0, 6.0)),
        ("R", (5.0, 3.0, 7.0), (7.5, 5.0, 10.0)),
        ("Q", (9.0, 5.5, 12.5), (13.5, 9.0, 18.0)),
    ]);
    let a = report::estimator_agreement(&d.piece_values);
    assert!(a.pieces.iter().all(|p| !p.disagree && p.beyond_quarter), "{a:?}");
    assert!(a.scale.as_ref().is_some_and(|k| k.low > 1.0 && k.p_value > 0.5), "{a:?}");
    let md = report::render_markdown(&d);
    assert!(
        md.contains(
            "for 3 of 3 pieces; their values are more than 1.25 times apart for N (Knight), Q (Queen), R (Rook).**"
        ),
        "{md}"
    );
    assert!(
        md.contains("N (Knight) (ratio 1.50 [")
            && md.contains("each within its errors. Why: one factor fits every piece and its interval excludes 1"),
        "{md}"
    );
    // The phase test: the Grand Chess page's refit on the fuller board has no supported values.
    assert!(md.contains("at least 0.75 of the start position's pieces has not enough data in this report"), "{md}");
    // A refit whose values lie near the imbalance ones takes the gap away.
    let x = d.sensitivity.iter_mut().find(|x| x.setting == "min-pieces").unwrap();
    x.rows.retain(|r| ["N", "R", "Q"].contains(&r.quantity.as_str()));
    for r in &mut x.rows {
        let v = [("N", 4.4), ("R", 7.3), ("Q", 13.0)].iter().find(|(p, _)| *p == r.quantity).unwrap().1;
        r.other = Interval { value: v, low: v * 0.7, high: v * 1.4 };
    }
    let md = report::render_markdown(&d);
    assert!(
        md.contains("the factor is 1.03 [")
            && md.contains("closer to 1, consistent with it and clear of the report's factor, so the phase accounts"),
        "{md}"
    );
    // Only the queen apart, with no common factor: too little data to tell, and which
    // estimator's games would narrow it.
    d.piece_values = both(&[
        ("N", (3.0, 2.0, 4.0), (3.0, 2.5, 3.5)),
        ("R", (5.0, 3.0, 7.0), (5.0, 4.2, 5.8)),
        ("Q", (9.0, 5.0, 13.0), (12.0, 10.5, 13.5)),
    ]);
    let md = report::render_markdown(&d);
    assert!(md.contains("more than 1.25 times apart for Q (Queen).**"), "{md}");
    assert!(!md.contains("Why: one factor"), "{md}");
    assert!(
        md.contains("each within its errors, and no common factor both fits")
            && md.contains("the data cannot yet tell")
            && md.contains("The regression's intervals are the wider"),
        "{md}"
    );
    // Without a gap beyond the errors the refit is context, not a verdict on the phase.
    assert!(md.contains("neither factor differs from 1 beyond its errors"), "{md}");
    // The summary uses the same test and lists the pieces with their ratios.
    let dir = std::env::temp_dir().join(format!("fairylab-quarter-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("one")).unwrap();
    std::fs::write(dir.join("one/report.json"), serde_json::to_string(&d).unwrap()).unwrap();
    assert_eq!(report::summary(&dir, &[]), Ok(1));
    let summary = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(summary.contains("agree within their errors (log-ratio test) for 3 of 3 pieces"), "{summary}");
    assert!(summary.contains(&format!("explained on its report's page: Q (Queen) in {} (1.33)", d.title)), "{summary}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn matches_that_differ_only_in_pawns_show_whether_the_pawns_add_up() {
    let value = |piece: &str, method: &str, v: f64, support: bool| report::PieceValue {
        piece: piece.into(),
        value: if support { v } else { f64::NAN },
        low: if support { v - 0.5 } else { f64::NAN },
        high: if support { v + 0.5 } else { f64::NAN },
        support: if support { Default::default() } else { fairylab::values::support::Support::NotEnoughData },
        method: method.into(),
        games: 800,
        nodes: 0,
        unit: "pawns".into(),
    };
    let mut d = standard_reports().remove(1);
    d.notes.retain(|n| !n.contains("additivity"));
    d.notes.push(format!(
        "Imbalance matches ({}): least squares over 3 matches, additivity chi2 9.00 on 1 dof, p = 0.003, errors scaled by 3.00 for the disagreement.",
        d.variant
    ));
    d.piece_values = vec![
        value("N", "regression-logistic", 3.0, true),
        value("N", "imbalance-lsq", 4.0, true),
        value("R", "regression-logistic", 5.0, true),
        value("R", "imbalance-lsq", 0.0, false),
        // Two more pawns moved N against pawns by 0.25 (additive values: by 2); R-(N+N) has
        // no partner, and the unsupported match is no evidence.
        value("N-(P+P+P)", "imbalance", 1.0, true),
        value("N-(P+P+P+P+P)", "imbalance", 0.75, true),
        value("R-(N+N)", "imbalance", 0.5, true),
        value("R-(N+N+P)", "imbalance", 0.0, false),
    ];
    let md = report::render_markdown(&d);
    let section = md.split("Do the imbalance matches add up?").nth(1).expect("the pawn steps");
    let section = section.split("All rows").next().unwrap();
    assert!(section.starts_with(" Over all of them: least squares over 3 matches, additivity chi2 9.00"), "{section}");
    let rows: Vec<&str> = section.lines().filter(|l| l.starts_with("| N-") || l.starts_with("| R-")).collect();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert!(rows[0].contains("+1.00 [+0.50, +1.50]") && rows[0].ends_with("| 2 | +0.25 |"), "{}", rows[0]);
    // The piece the chain could not value is named with the reason.
    assert!(md.contains("The imbalance matches give no value for R (Rook)") && md.contains("widened"), "{md}");
    // Without pairs there is no such table.
    d.piece_values.retain(|v| v.piece != "N-(P+P+P)");
    assert!(!report::render_markdown(&d).contains("add up?"));
}

// A chess report sets its balance and piece values beside the figures of chess.toml's
// `[published]` table, in report.md and report.json; other variants have no such section.
#[test]
fn a_chess_report_is_checked_against_the_published_figures() {
    let mut d = standard_reports().remove(3);
    assert!(report::render_markdown(&d).find("Against published figures").is_none(), "noble-wings has none");
    d.variant = "chess".into();
    d.title = "Orthodox chess".into();
    d.balance[0].white_elo = iv(3.0, -6.0, 12.0);
    let v = |piece: &str, method: &str, value: f64, half: f64| report::PieceValue {
        piece: piece.into(),
        value,
        low: value - half,
        high: value + half,
        support: Default::default(),
        method: method.into(),
        games: 1600,
        nodes: 0,
        unit: "pawns".into(),
    };
    d.piece_values = vec![
        v("N", "regression-logistic", 3.1, 0.2),
        v("Q", "regression-logistic", 9.7, 0.4),
        v("Q", "imbalance-lsq", 11.5, 0.6),
        v("R", "imbalance-lsq", 4.0, 0.3),
    ];
    let md = report::render_markdown(&d);
    let section = md.split("\n## Against published figures").nth(1).expect("section").split("\n## ").next().unwrap();
    assert!(section.contains("includes zero"), "{section}");
    assert!(section.contains("Stockfish 16 self-play from the start (+30.0 Elo)"), "{section}");
    assert!(section.contains("`imbalance-lsq`: the Queen (Q) above it; the Rook (R) below it."), "{section}");
    assert!(
        section.contains("`regression-logistic`: the Knight (N), the Queen (Q) within the published range."),
        "{section}"
    );
    assert!(
        section.contains("| Q (Queen) | imbalance-lsq | 11.50 [10.90, 12.10] | 9.75 | 9.50 | 9.50–9.75 | above |"),
        "{section}"
    );
    assert!(md.contains("**published range, consistent**"), "glossary");
    assert_verdicts_and_glossary("chess", &md);
    let dir = std::env::temp_dir().join(format!("fairylab-published-{}", std::process::id()));
    report::write(&dir, &d).unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(json["published"]["values"].as_array().map(|a| a.len()), Some(4), "{}", json["published"]);
    assert_eq!(json["published"]["balance"][0]["positions"][0], "below");
}

// `--nodes` and `--pairs` set the balance runs: one run per node budget with the pairs
// asked for, the first budget for everything else, and a note saying so.
#[test]
fn balance_runs_follow_the_nodes_and_pairs_asked_for() {
    let mut cfg = tiny_config("chess", "nodes-pairs");
    cfg.nodes = Some(vec![150]);
    cfg.balance_pairs = Some(vec![3]);
    let d = report::run(&cfg).unwrap();
    assert_eq!(d.balance.len(), 1);
    assert_eq!((d.balance[0].nodes, d.balance[0].games), (150, 6));
    assert_eq!(games_in(&cfg.out.join("runs/balance-150")), 6);
    assert!(d.notes.iter().any(|n| n.contains("150 nodes per move, 3 game pairs")), "{:?}", d.notes);
    // The piece values play at the first budget too.
    let regress = std::fs::read_to_string(cfg.out.join("runs/values/regress/run.toml")).unwrap();
    assert!(regress.lines().any(|l| l == "nodes = 150"), "{regress}");
    let _ = std::fs::remove_dir_all(&cfg.out);
}

// Openings drawn near the best moves repeat, and at a fixed node budget a repeated opening
// replays the same games: ten copies of twenty openings are twenty observations, so the
// interval is as wide as the twenty openings' own, not about three times narrower.
#[test]
fn repeated_openings_count_once_in_the_balance_interval() {
    let distinct: Vec<output::GameRow> = (0..20u64)
        .flat_map(|p| {
            let results: &[&str] = if p % 3 == 0 { &["1-0", "1/2-1/2"] } else { &["0-1", "1-0"] };
            games(1, results).into_iter().map(move |mut g| {
                g.pair_id = p;
                g.opening = format!("opening {p}");
                g
            })
        })
        .collect();
    let once = figures::balance("x", 100, &distinct);
    let replayed: Vec<output::GameRow> = (0..10u64)
        .flat_map(|k| {
            distinct.iter().cloned().map(move |mut g| {
                g.pair_id += 100 * k;
                g
            })
        })
        .collect();
    let tenfold = figures::balance("x", 100, &replayed);
    assert_eq!(tenfold.games, 400);
    let width = |b: &figures::Balance| b.white_score.high - b.white_score.low;
    assert!((once.white_score.value - tenfold.white_score.value).abs() < 1e-12);
    assert!(width(&tenfold) > 0.9 * width(&once), "{:?} against {:?}", tenfold.white_score, once.white_score);
}
