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
    v.value.is_finite() && v.low.is_finite() && v.high.is_finite()
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
        assert!(csv.contains(&format!("{},{},{},{:.4}", b.label, b.nodes, b.games, b.white_score.value)));
    }
    let total: u64 = data.terminations.values().sum();
    let last = data.balance.last().unwrap();
    assert_eq!(total, last.games, "terminations count the stronger run's games");
    let lengths: u64 = data.lengths.bins.iter().map(|b| b.1).sum();
    assert_eq!(lengths, last.games);
    // Piece values (regression for every piece, imbalance F=R in a bomber game) match their CSV.
    assert!(data.piece_values.iter().any(|v| v.piece == "F"), "{:?}", data.piece_values);
    let values_csv = std::fs::read_to_string(out.join("piece_values.csv")).unwrap();
    let with_option = &data.option_effects[0].piece_values;
    assert!(with_option.iter().any(|v| v.piece == "F-R"), "no bomber value with the option: {with_option:?}");
    assert_eq!(values_csv.lines().count(), data.piece_values.len() + with_option.len() + 1);
    for v in &data.piece_values {
        assert!(values_csv.contains(&format!("\n,{},{:.3},{:.3},{:.3}", v.piece, v.value, v.low, v.high)));
        assert!(md.contains(&format!("| {} | {} |", v.piece, value_cell(v))), "{v:?} not in report.md");
    }
    for v in with_option {
        let line = format!("\nimmediate-landing,{},{:.3},{:.3},{:.3}", v.piece, v.value, v.low, v.high);
        assert!(values_csv.contains(&line), "{line} not in piece_values.csv");
        assert!(md.contains(&format!("| {} | {} | {} |", v.piece, v.method, value_cell(v))));
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
    let widest = data.balance.iter().map(|b| 50.0 * (b.white_score.high - b.white_score.low)).fold(0.0, f64::max);
    assert!(md.contains(&format!("White's score ±{widest:.1} %")), "no precision line");
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
    assert_eq!(report::summary(&all), Ok(1));
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
                Some(f) => format!(" F {} |", interval_text(f)),
                None => " - |".to_string(),
            };
            assert!(line.contains(&cell), "{cell} not in the summary row {line}");
        }
    }
    for v in
        data.piece_values.iter().filter(|v| v.method.starts_with("regression") && v.piece.len() == 1 && v.piece != "P")
    {
        let cell = format!("| {} | {} |", v.piece, interval_text(v));
        assert!(summary.contains(&cell), "{cell} not in the summary");
    }
    let html = std::fs::read_to_string(all.join("summary.html")).unwrap();
    assert_eq!(html.matches("<svg").count(), 2, "Elo and draw-rate charts");
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
        let got = [&row["value"], &row["ci_low"], &row["ci_high"]].map(|x| x.as_f64().unwrap());
        assert_eq!(got, [r.orthodox.value, r.orthodox.low, r.orthodox.high]);
    }
    let csv = std::fs::read_to_string(out.join("replacements.csv")).unwrap();
    assert_eq!(csv.lines().count(), 4);
    assert!(std::fs::read_to_string(out.join("report.md")).unwrap().contains("| E | "));
}

#[test]
fn bland_report_has_the_setup_matrix() {
    let (out, data) = tiny("bland-chess-46", "bland");
    let m = data.setup.as_ref().expect("setup matrix");
    assert_eq!(m.choices.len(), 6);
    assert_eq!(m.cells.len(), 36);
    // The best White choice's worst case is the maximum over rows of the row minimum.
    let worst =
        |w: &str| m.cells.iter().filter(|c| c.white == w).map(|c| c.white_score.value).fold(f64::INFINITY, f64::min);
    let best = m.choices.iter().map(|w| worst(w)).fold(f64::NEG_INFINITY, f64::max);
    assert_eq!(m.best_white.1, best);
    assert!(std::fs::read_to_string(out.join("setup_matrix.csv")).unwrap().lines().count() == 37);
    assert!(data.notes.iter().any(|n| n.contains("provisional")));
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
    assert!(md.contains(&format!("| {} | imbalance | {} |", k.piece, value_cell(k))), "{k:?} not in report.md");
    // Immediate Landing changes the bomber, whose match is the headline F=R only.
    let il = data.option_effects.iter().find(|o| o.option == "immediate-landing").unwrap();
    let matches: Vec<&str> =
        il.piece_values.iter().filter(|v| v.method == "imbalance").map(|v| v.piece.as_str()).collect();
    assert_eq!(matches, ["F-R"]);
    let _ = std::fs::remove_dir_all(&out);
}
