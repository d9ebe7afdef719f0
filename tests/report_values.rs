//! The report's piece-value extras: the headline priced in local pawns (bracket) beside
//! the pawn-odds price, and the values' sensitivity to the phase filter and the search.

use fairylab::report::{self, figures::Interval, Budget, PawnPrices, ReportConfig, ReportData, Sensitivity};
use fairylab::values::method::Fit;
use fairylab::values::plan::{Corpus, Play, RegressionPlan, Source, StudyPlan};
use fairylab::values::{study, Model};

/// A regression of chess-like `variant` on `source`, fitted with the report's settings and
/// phase filter `min_pieces`.
fn regression(variant: &str, source: Source, nodes: u64, seed: u64, min_pieces: f64) -> StudyPlan {
    let v = fairylab::Variant::load(variant, &[]).unwrap();
    let play = Play {
        nodes,
        seed,
        engine: vec![],
        player: None,
        adjudication: fairylab::values::selfplay::default_adjudication(),
        concurrency: 2,
        shard: None,
        progress: Default::default(),
    };
    let regression = RegressionPlan {
        source,
        skip_plies: 10,
        min_pieces,
        fits: vec![Fit::Positions],
        models: vec![Model::Logistic],
        bootstrap: 1000,
        comparisons: vec![],
        include_imbalance_games: false,
    };
    StudyPlan::new(v, v.name().into(), vec![], play, Some(regression), None).unwrap()
}

fn rows_of(plan: &StudyPlan) -> Vec<fairylab::values::ValueRow> {
    let r = study::run(plan).unwrap();
    assert!(r.failed.is_empty(), "{:?}", r.failed);
    r.rows
}

fn tiny(variant: &str, name: &str) -> (std::path::PathBuf, ReportData) {
    let out = std::env::temp_dir().join(format!("fairylab-report-values-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let cfg = ReportConfig {
        variant: variant.into(),
        options: vec![],
        budget: Budget::Tiny,
        out: out.clone(),
        concurrency: 2,
        seed: 5,
        progress: Default::default(),
        shard: None,
        balance_pairs: None,
        nodes: None,
        studies: vec![],
    };
    (out, report::run(&cfg).unwrap())
}

fn same(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan()) || (a - b).abs() < 1e-9
}

fn same_interval(a: &Interval, b: &Interval) -> bool {
    same(a.value, b.value) && same(a.low, b.low) && same(a.high, b.high)
}

/// An interval read from a values.json row (null: NaN).
fn row_interval(row: &serde_json::Value) -> Interval {
    let f = |k: &str| row[k].as_f64().unwrap_or(f64::NAN);
    Interval { value: f("value"), low: f("ci_low"), high: f("ci_high") }
}

#[test]
fn a_tiny_bomber_report_prices_the_headline_locally_and_measures_its_sensitivity() {
    let (out, data) = tiny("flying-bombers-hangars", "hangars");
    let runs = out.join("runs");
    // One price for the report's own rules and one with its option.
    let settings: Vec<Option<&str>> = data.pawn_prices.iter().map(|p| p.option.as_deref()).collect();
    assert_eq!(settings, [None, Some("immediate-landing")], "{:?}", data.notes);
    // The bracket's matches and the scale check were played beside the headline's own
    // match, whose figures are the report's F-R imbalance row.
    let imbalance = runs.join("values/imbalance");
    assert!(imbalance.join("bracket").is_dir() && imbalance.join("scale-check").is_dir());
    let own = &data.pawn_prices[0];
    let headline = data.piece_values.iter().find(|v| v.piece == "F-R" && v.method == "imbalance").unwrap();
    let shown = report_interval(headline);
    assert!(same_interval(&own.calibrated, &shown), "{:?} against {:?}", own.calibrated, shown);
    assert!(own.games > 0 && own.note.contains("local pawn"), "{own:?}");
    // Every figure of the prices is the study's table row, written to values.json.
    let text = std::fs::read_to_string(runs.join("values/values.json")).unwrap();
    let rows: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    let find = |piece: &str, method: &str| rows.iter().find(|r| r["piece"] == piece && r["method"] == method);
    // The chain plays the pair in the order the regression ranks them (`R=F` when it puts
    // the rook above the bomber); the headline is always F - R.
    let (bracket, label) = match find("F-R", "imbalance-bracket") {
        Some(r) => (row_interval(r), "F-R"),
        None => {
            let r = row_interval(find("R-F", "imbalance-bracket").expect("the bracket's row"));
            (Interval { value: -r.value, low: -r.high, high: -r.low }, "R-F")
        }
    };
    assert!(same_interval(&own.bracketed, &bracket), "{:?} against {bracket:?}", own.bracketed);
    match find(&format!("elo-per-pawn@{label}"), "imbalance-bracket") {
        Some(r) => assert!(same_interval(&own.local_elo, &row_interval(r))),
        None => assert!(!own.local_elo.is_defined()),
    }
    assert!(same_interval(&own.pawn_odds_elo, &row_interval(find("elo-per-pawn", "pawn-odds").unwrap())));
    // The bracket is a piece value of the report too, and the page shows both prices.
    assert!(data.piece_values.iter().any(|v| v.piece == "F-R" && v.method == "imbalance-bracket"));
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("### The pawn's price where the bomber is traded for the rook"), "{md}");
    for p in &data.pawn_prices {
        assert!(md.contains(&report::render_price_verdict(&data, p)), "no verdict for {p:?}");
    }
    assert!(md.contains("**local pawns, imbalance-bracket**") && md.contains("**pawn odds**"), "glossary");

    // Sensitivity: the phase filter on the same games, then the headline at the stronger search.
    let kinds: Vec<&str> = data.sensitivity.iter().map(|s| s.setting.as_str()).collect();
    assert_eq!(kinds, ["min-pieces", "nodes"], "{:?}", data.notes);
    let phase = &data.sensitivity[0];
    assert_eq!((phase.base.as_str(), phase.other.as_str()), ("0.5", "0.75"));
    // The other column is the regression refitted on the report's games with the other filter.
    let refit =
        rows_of(&regression(&data.variant, Source::Runs(vec![runs.join("values/regress")]), 2000, data.seed, 0.75));
    assert!(!phase.rows.is_empty());
    for r in &phase.rows {
        let again = refit.iter().find(|x| x.piece == r.quantity).expect("refitted piece");
        assert!(same(r.other.value, again.value), "{r:?} against {again:?}");
        let base = data.piece_values.iter().find(|v| v.piece == r.quantity && v.method.starts_with("regression"));
        assert!(same_interval(&r.base, &report_interval(base.unwrap())), "{r:?}");
        // A difference is quoted only with both values, and it is their difference.
        if r.difference.is_defined() {
            assert!(r.base.is_defined() && r.other.is_defined());
            assert!(same(r.difference.value, r.other.value - r.base.value), "{r:?}");
            assert!(r.difference.low <= r.difference.value && r.difference.value <= r.difference.high);
        }
    }
    let nodes = &data.sensitivity[1];
    assert_eq!(nodes.other, Budget::Tiny.nodes()[1].to_string());
    assert!(runs.join(format!("values/imbalance-{}/pawn-odds", nodes.other)).is_dir());
    for r in &nodes.rows {
        assert_eq!(r.difference.is_defined(), r.base.is_defined() && r.other.is_defined(), "{r:?}");
    }
    assert!(md.contains("## Sensitivity of the piece values") && md.contains("| quantity | unit | min-pieces 0.5 |"));
    assert!(md.contains("**phase filter, `min-pieces`**"), "glossary");
    // report.json holds it all and reads back.
    let json = std::fs::read_to_string(out.join("report.json")).unwrap();
    let back: ReportData = serde_json::from_str(&json).unwrap();
    assert_eq!(format!("{:?}", back.pawn_prices), format!("{:?}", data.pawn_prices));
    assert_eq!(format!("{:?}", back.sensitivity), format!("{:?}", data.sensitivity));
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_tiny_report_without_a_headline_replays_a_fairy_link_of_its_chain_at_the_stronger_search() {
    let (out, data) = tiny("noble-wings", "noble");
    let nodes = data.sensitivity.iter().find(|s| s.setting == "nodes").expect("a node sensitivity");
    assert_eq!(nodes.other, Budget::Tiny.nodes()[1].to_string());
    // The replayed comparison weighs a piece chess lacks (Noble WingS: Earl, Baron, Archbishop).
    let link = &nodes.rows[0].quantity;
    assert!(link.contains('-') && link.chars().any(|c| "EOA".contains(c)), "{link}");
    assert_eq!(nodes.rows[1].quantity, "elo-per-pawn");
    let replay = out.join(format!("runs/values/imbalance-{}", nodes.other));
    let dir = link.replacen('-', "-vs-", 1).replace(['(', ')'], "");
    assert!(replay.join(dir).join("games.csv").is_file(), "{link}");
    assert!(replay.join("pawn-odds/games.csv").is_file());
    // Its base is the report's own figure for that comparison at the report's budget.
    let own = data.piece_values.iter().find(|v| &v.piece == link && v.method == "imbalance");
    assert!(same_interval(&nodes.rows[0].base, &report_interval(own.expect("the link's own row"))));
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("| quantity | unit | 100 nodes | 200 nodes | difference |"), "{md}");
    assert!(md.contains("One imbalance match (the headline where the game has one)"), "{md}");
    let _ = std::fs::remove_dir_all(&out);
}

fn report_interval(v: &report::PieceValue) -> Interval {
    if !v.support.is_supported() {
        return Interval::UNDEFINED;
    }
    Interval { value: v.value, low: v.low, high: v.high }
}

#[test]
fn reports_written_before_the_local_prices_read_back_without_them() {
    // A committed report as an older fairylab wrote it: without the two sections' keys.
    for v in ["flying-bombers-hangars", "noble-wings"] {
        let text = std::fs::read_to_string(format!("data/reports/standard/{v}/report.json")).unwrap();
        let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let fields = value.as_object_mut().unwrap();
        fields.remove("pawn_prices");
        fields.remove("sensitivity");
        let text = serde_json::to_string(&value).unwrap();
        let d: ReportData = serde_json::from_str(&text).unwrap();
        assert!(d.pawn_prices.is_empty() && d.sensitivity.is_empty());
        let md = report::render_markdown(&d);
        assert!(!md.contains("Sensitivity of the piece values") && !md.contains("The pawn's price"));
    }
}

fn iv(value: f64, half: f64) -> Interval {
    Interval { value, low: value - half, high: value + half }
}

fn prices(local: Interval, pawn_odds: Interval) -> PawnPrices {
    PawnPrices {
        option: None,
        comparison: "F-R".into(),
        calibrated: iv(0.5, 0.6),
        pawn_odds_elo: pawn_odds,
        bracketed: iv(0.3, 0.4),
        local_elo: local,
        neutral_pawn_odds_elo: Interval::UNDEFINED,
        scale_checked: true,
        note: String::new(),
        games: 2400,
    }
}

#[test]
fn the_price_verdict_says_whether_the_two_pawns_differ_beyond_their_errors() {
    let text = std::fs::read_to_string("data/reports/standard/flying-bombers-grand/report.json").unwrap();
    let mut d: ReportData = serde_json::from_str(&text).unwrap();
    // 60 ± 10 against 30 ± 8: the difference 30 has half-width about 12.8.
    let apart = prices(iv(60.0, 10.0), iv(30.0, 8.0));
    let v = report::render_price_verdict(&d, &apart);
    assert!(v.contains("differ beyond their errors") && v.contains("+30.0 Elo [+17.2, +42.8]"), "{v}");
    assert!(v.contains("quote it in local pawns, +0.30 [-0.10, +0.70]"), "{v}");
    let close = prices(iv(40.0, 10.0), iv(30.0, 8.0));
    let agree = report::render_price_verdict(&d, &close);
    assert!(agree.contains("agree within their errors") && agree.contains("same unit"), "{agree}");
    // With one of the two F − R figures missing, the unit argument has nothing to say.
    let one_missing = PawnPrices { calibrated: Interval::UNDEFINED, ..close.clone() };
    let v = report::render_price_verdict(&d, &one_missing);
    assert!(v.contains("agree within their errors") && !v.contains("same unit"), "{v}");
    let scale = PawnPrices { neutral_pawn_odds_elo: iv(-0.04, 5.0), ..close.clone() };
    let md = report::render_markdown(&ReportData { pawn_prices: vec![scale], ..d.clone() });
    assert!(md.contains("| 0.0 [-5.0, 5.0] |") && !md.contains("| -0.0 ["), "no negative zero");
    let missing = prices(Interval::UNDEFINED, iv(30.0, 8.0));
    assert!(report::render_price_verdict(&d, &missing).contains("not enough data"));
    // On the page: a subsection of the headline, the verdict first, the table after.
    d.pawn_prices = vec![apart, PawnPrices { option: Some("immediate-landing".into()), ..close }];
    let md = report::render_markdown(&d);
    let section = md.split("### The pawn's price").nth(1).expect("the prices");
    assert!(
        section.contains("* standard rules: the two prices")
            && section.contains("* standard rules + immediate-landing:")
    );
    assert!(section.contains("| standard rules | +0.50 [-0.10, +1.10] | 30.0 [22.0, 38.0] | +0.30 [-0.10, +0.70] | 60.0 [50.0, 70.0] | not enough data | 2400 |"), "{section}");
    // The quick budget brackets its own rules without the scale check: the row says the
    // check was not played, and a page without any check has no column for it.
    d.pawn_prices[1].scale_checked = false;
    let md = report::render_markdown(&d);
    let section = md.split("### The pawn's price").nth(1).unwrap().split("\n## ").next().unwrap();
    assert!(section.contains("| 60.0 [50.0, 70.0] | not enough data | 2400 |"), "{section}");
    assert!(section.contains("| 40.0 [30.0, 50.0] | not played | 2400 |"), "{section}");
    d.pawn_prices.truncate(1);
    d.pawn_prices[0].scale_checked = false;
    let md = report::render_markdown(&d);
    let section = md.split("### The pawn's price").nth(1).unwrap().split("\n## ").next().unwrap();
    assert!(!section.contains("under F=R's weights") && !section.contains("scale check"), "{section}");
    assert!(
        section.contains("| 60.0 [50.0, 70.0] | 2400 |")
            && section.contains("Brackets:") != d.pawn_prices[0].note.is_empty()
    );
}

#[test]
fn the_sensitivity_section_names_what_moved_beyond_its_interval() {
    let text = std::fs::read_to_string("data/reports/standard/flying-bombers-grand/report.json").unwrap();
    let mut d: ReportData = serde_json::from_str(&text).unwrap();
    let row = |quantity: &str, base: Interval, other: Interval, difference: Interval| report::SensitivityRow {
        quantity: quantity.into(),
        unit: "pawns".into(),
        base,
        other,
        difference,
    };
    d.sensitivity = vec![Sensitivity {
        setting: "min-pieces".into(),
        base: "0.5".into(),
        other: "0.75".into(),
        rows: vec![
            row("Q", iv(9.0, 1.0), iv(10.5, 1.2), iv(1.5, 0.6)),
            row("N", iv(3.0, 0.3), iv(3.1, 0.3), iv(0.1, 0.2)),
            row("F", iv(5.0, 1.0), Interval::UNDEFINED, Interval::UNDEFINED),
        ],
        note: "test".into(),
    }];
    let md = report::render_markdown(&d);
    let section = md.split("\n## Sensitivity of the piece values").nth(1).expect("the section");
    let names = report::names::Names::of(&d.variant, &d.options);
    let verdict = section.lines().find(|l| !l.is_empty()).unwrap();
    assert!(verdict.starts_with("**From min-pieces 0.5 to min-pieces 0.75, 1 of 2 figures move"), "{verdict}");
    assert!(verdict.contains(&format!("{} by +1.50 pawns [+0.90, +2.10]", names.label("Q"))), "{verdict}");
    assert!(verdict.contains("not enough data for the other 1"), "{verdict}");
    assert!(section.contains(&format!(
        "| {} | pawns | 5.00 [4.00, 6.00] | not enough data | not enough data |",
        names.label("F")
    )));
    let html = report::render_html(&d);
    assert!(html.contains("min-pieces 0.75 minus min-pieces 0.5"), "the chart");
}

#[test]
fn the_phase_sensitivity_is_the_regression_refitted_with_the_other_filter() {
    let out = std::env::temp_dir().join(format!("fairylab-report-values-{}-phase", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    // Enough chess games at a shallow search for supported values under both filters.
    let corpus = Corpus {
        games: 1000,
        out: out.clone(),
        random_plies: 8,
        imbalance_fraction: 0.5,
        jitter: 0.0,
        all_setups: false,
    };
    let req = regression("chess", Source::SelfPlay(corpus), 100, 3, 0.5);
    let base = rows_of(&req);
    let shifts = study::sensitivity(&req, 0.25).unwrap();
    let refit = rows_of(&regression("chess", Source::Runs(vec![out.clone()]), 100, 3, 0.25));
    let mut measured = 0;
    for s in &shifts {
        assert_ne!(s.name, "P", "the pawn is the unit");
        let (b, o) =
            (base.iter().find(|r| r.piece == s.name).unwrap(), refit.iter().find(|r| r.piece == s.name).unwrap());
        assert!(same(s.base.value, b.value) && same(s.other.value, o.value), "{s:?} against {b:?} and {o:?}");
        let (d, low, high) = s.difference;
        if !(b.support.is_supported() && o.support.is_supported()) {
            assert!(d.is_nan() && low.is_nan() && high.is_nan(), "{s:?}");
            continue;
        }
        measured += 1;
        eprintln!(
            "{}: {:.2} [{:.2}, {:.2}] -> {:.2} [{:.2}, {:.2}], difference {d:+.2} [{low:+.2}, {high:+.2}]",
            s.name, b.value, b.ci_low, b.ci_high, o.value, o.ci_low, o.ci_high
        );
        assert!(same(d, o.value - b.value) && low < d && d < high, "{s:?}");
        // The two fits share the games: the paired interval is narrower than the two
        // intervals' widths added, which is what independent fits would give at most.
        assert!(high - low < (b.ci_high - b.ci_low) + (o.ci_high - o.ci_low), "{s:?}");
    }
    assert!(measured > 0, "no piece supported under both filters: {shifts:?}");
    // Nothing to refit, or a filter that is no share: errors, not panics.
    assert!(study::sensitivity(&req, 1.5).is_err());
    let missing = regression("chess", Source::Runs(vec![out.join("nothing-here")]), 100, 3, 0.5);
    assert!(study::sensitivity(&missing, 0.25).is_err());
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn shards_of_a_bomber_report_merge_into_its_local_prices_and_sensitivity() {
    let config = |name: &str, shard| {
        let out = std::env::temp_dir().join(format!("fairylab-report-values-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        ReportConfig {
            variant: "flying-bombers-hangars".into(),
            options: vec![],
            budget: Budget::Tiny,
            out,
            concurrency: 2,
            seed: 7,
            progress: Default::default(),
            shard,
            balance_pairs: None,
            nodes: None,
            studies: vec![],
        }
    };
    let whole_cfg = config("shard-whole", None);
    let whole = report::run(&whole_cfg).unwrap();
    let mut parts = vec![];
    for i in 1..=2 {
        let cfg = config(&format!("shard-part{i}"), Some((i, 2)));
        report::run(&cfg).unwrap();
        // The replay at the stronger search is sharded; the bracket waits for the merge.
        let values = cfg.out.join("runs/values");
        assert!(values.join(format!("imbalance-{}", Budget::Tiny.nodes()[1])).is_dir());
        assert!(!values.join("imbalance/bracket").exists());
        parts.push(cfg.out);
    }
    let merged = config("shard-merged", None);
    fairylab::tournament::output::merge_tree(&parts, &merged.out).unwrap();
    let data = report::run(&merged).unwrap();
    assert!(!data.pawn_prices.is_empty() && data.sensitivity.len() == 2);
    // Compared as text: undefined figures are NaN, which never equals itself.
    assert_eq!(format!("{:?}", data.pawn_prices), format!("{:?}", whole.pawn_prices));
    assert_eq!(format!("{:?}", data.sensitivity), format!("{:?}", whole.sensitivity));
    assert_eq!(format!("{:?}", data.piece_values), format!("{:?}", whole.piece_values));
    for p in parts.iter().chain([&merged.out, &whole_cfg.out]) {
        let _ = std::fs::remove_dir_all(p);
    }
}
