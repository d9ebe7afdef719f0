//! Value studies attached to reports: a study's table is read with the experiment beside
//! it, its figures shown on the page from its own rows, kept in report.json, and bad
//! tables are refused with the file named.

use fairylab::report::study::Study;
use fairylab::report::{self, ReportData};
use fairylab::values::table::{self, ValueRow};
use fairylab::values::ValuesError;
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fairylab-study-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn grand_chess_report() -> ReportData {
    let text = std::fs::read_to_string("data/reports/standard/flying-bombers-grand/report.json").unwrap();
    let mut d: ReportData = serde_json::from_str(&text).unwrap();
    d.studies.clear();
    d.evidence.clear();
    d
}

fn row(variant: &str, piece: &str, method: &str, value: f64, rel: f64) -> ValueRow {
    ValueRow {
        variant: variant.into(),
        options: String::new(),
        piece: piece.into(),
        value,
        ci_low: value / rel,
        ci_high: value * rel,
        support: Default::default(),
        unit: "pawns".into(),
        method: method.parse().unwrap(),
        games: 9000,
        nodes: 2000,
        seed: 4,
        version: "0.1.0".into(),
        note: if method == "imbalance-lsq" {
            "least squares over 8 matches, additivity chi2 2.00 on 3 dof, p = 0.572".into()
        } else {
            "1000 positions".into()
        },
    }
}

/// A Grand Chess study whose imbalance values are `factor` times the regression's and
/// `refit` times the fuller-board refit's, every piece alike, with an experiment file
/// beside it; returns the table's path.
fn write_study(dir: &Path, factor: f64, refit: f64) -> PathBuf {
    let mut rows = vec![];
    for (piece, regression) in [("N", 4.0), ("B", 6.0), ("R", 10.0), ("F", 11.0), ("Q", 25.0)] {
        rows.push(row("flying-bombers-grand", piece, "imbalance-lsq", regression * factor, 1.08));
        rows.push(row("flying-bombers-grand", piece, "regression-logistic", regression, 1.06));
        rows.push(row(
            "flying-bombers-grand",
            piece,
            "regression-logistic-min-pieces-0.75",
            regression * factor / refit,
            1.1,
        ));
    }
    table::write(dir, &rows).unwrap();
    let experiment =
        std::fs::read_to_string("configs/experiments/flying-bombers-grand-values-middlegame.toml").unwrap();
    std::fs::write(dir.join("experiment.toml"), experiment).unwrap();
    dir.join("values.csv")
}

#[test]
fn a_study_is_shown_beside_the_report_and_kept_in_its_json() {
    let root = scratch("shown");
    let dir = root.join("grand-middlegame");
    std::fs::create_dir_all(&dir).unwrap();
    let path = write_study(&dir, 1.3, 1.02);
    let studies = Study::read(&path).unwrap();
    assert_eq!(studies.len(), 1);
    let s = &studies[0];
    assert_eq!((s.name.as_str(), s.variant.as_str()), ("grand-middlegame", "flying-bombers-grand"));
    assert!(s.described && s.description.contains("middlegame"), "{s:?}");
    assert_eq!(s.starts.as_deref(), Some("data/starts/flying-bombers-grand-middlegames.epd"));

    let mut d = grand_chess_report();
    assert!(report::study::attach(&mut d, &studies).is_empty());
    // Attaching it again replaces it.
    report::study::attach(&mut d, &studies);
    assert_eq!(d.studies.len(), 1);
    let md = report::render_markdown(&d);
    let section =
        md.split("\n## Value studies\n").nth(1).expect("no value-study section").split("\n## ").next().unwrap();
    // The section opens with its verdict: the main factor, and the refit's taking the gap away.
    assert!(
        section
            .trim_start()
            .starts_with("**Study `grand-middlegame` (9000 games): imbalance matches over regression 1.30 ["),
        "{section}"
    );
    assert!(
        section.contains("over regression, ≥ 0.75 of the pieces 1.02 [")
            && section.contains("so the phase accounts for the gap"),
        "{section}"
    );
    assert!(section.contains("the positions in `data/starts/flying-bombers-grand-middlegames.epd`"), "{section}");
    assert!(section.contains("least squares over 8 matches, additivity chi2 2.00 on 3 dof"), "{section}");
    assert!(section.contains("| Q (Queen) | 32.50 [30.09, 35.10] | 25.00 [23.58, 26.50] |"), "{section}");
    assert!(section.contains("| common factor | 1.30 ["), "{section}");
    // Every piece 1.3 apart in the main comparison, none after the refit.
    assert!(section.contains("imbalance matches against regression: more than 1.25 times apart for"), "{section}");
    assert!(section.contains("≥ 0.75 of the pieces: every piece within 1.25 times"), "{section}");
    // The report's values against the study's: its factor splits into the three steps.
    let own = report::estimator_agreement(&d.piece_values).scale.unwrap().factor;
    assert!(section.contains(&format!("against this report's own factor of {own:.2}")), "{section}");
    // The report's paragraph, which has no refit data of its own, points to the study.
    assert!(md.contains("has not enough data in this report to test that; the value studies below test it"), "{md}");

    // The summary lists it, and report.json keeps it for later runs without --study.
    let reports = root.join("reports");
    std::fs::create_dir_all(reports.join("grand")).unwrap();
    std::fs::write(reports.join("grand/report.json"), serde_json::to_string(&grand_chess_report()).unwrap()).unwrap();
    assert_eq!(report::summary(&reports, &studies), Ok(1));
    assert_eq!(report::summary(&reports, &[]), Ok(1));
    let summary = std::fs::read_to_string(reports.join("summary.md")).unwrap();
    assert!(summary.contains("Value studies attached to the reports as evidence"), "{summary}");
    assert!(
        summary.contains("(9000 games, `grand-middlegame`): imbalance matches over regression 1.30 ["),
        "{summary}"
    );
    let page = std::fs::read_to_string(reports.join("grand/report.md")).unwrap();
    assert!(page.contains("### grand-middlegame"), "the study was not kept");
    assert_eq!(report::study::kept(&reports.join("grand")), Ok(studies.clone()));
    assert_eq!(report::study::kept(&root.join("no-report-here")), Ok(vec![]));

    // A study of a variant no report is of is refused, after the others are written.
    let chess = root.join("chess");
    std::fs::create_dir_all(&chess).unwrap();
    let mut rows = vec![];
    for (piece, v) in [("N", 3.0), ("Q", 9.0)] {
        rows.push(row("chess", piece, "imbalance-lsq", v, 1.1));
        rows.push(row("chess", piece, "regression-logistic", v, 1.1));
    }
    table::write(&chess, &rows).unwrap();
    let chess_study = Study::read(&chess.join("values.csv")).unwrap();
    assert!(!chess_study[0].described, "no experiment file beside it");
    let e = report::summary(&reports, &chess_study).unwrap_err();
    assert!(matches!(e, report::ReportError::Study(_)), "{e:?}");
    let e = e.to_string();
    assert!(e.contains("no report under") && e.contains("is of chess (no options)"), "{e}");
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_study_whose_phase_refit_keeps_the_gap_says_so() {
    let root = scratch("kept-gap");
    let verdict = |refit: f64| {
        let path = write_study(&root, 1.3, refit);
        let mut d = grand_chess_report();
        report::study::attach(&mut d, &Study::read(&path).unwrap());
        report::render_markdown(&d)
    };
    // Further from 1 than the main fit.
    let md = verdict(1.45);
    assert!(
        md.contains("≥ 0.75 of the pieces 1.45 [") && md.contains("no closer to 1, so the phase does not account"),
        "{md}"
    );
    // Nearer 1, but by less than the main factor's errors: no phase effect shown either.
    let md = verdict(1.27);
    assert!(
        md.contains("≥ 0.75 of the pieces 1.27 [")
            && md.contains(
                "within the interval of the study's factor and still away from 1, so the phase does not account"
            ),
        "{md}"
    );
    // Nearer 1 by more than its errors, yet still away from it: part of the gap.
    let md = verdict(1.12);
    assert!(
        md.contains("≥ 0.75 of the pieces 1.12 [") && md.contains("so the phase accounts for part of the gap"),
        "{md}"
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_study_whose_start_fit_closes_the_gap_names_the_cause() {
    let root = scratch("start-fit");
    let path = write_study(&root, 1.3, 1.28);
    // The fit on the games' start material prices the pieces as the matches do.
    let mut rows = table::read(&path).unwrap();
    for (piece, regression) in [("N", 4.0), ("B", 6.0), ("R", 10.0), ("F", 11.0), ("Q", 25.0)] {
        rows.push(row("flying-bombers-grand", piece, "regression-logistic-start", regression * 1.3, 1.1));
    }
    table::write(&root, &rows).unwrap();
    let studies = Study::read(&path).unwrap();
    let mut d = grand_chess_report();
    report::study::attach(&mut d, &studies);
    let md = report::render_markdown(&d);
    // Not taken for the main fit: the study's factor is still the position fit's.
    assert!(md.contains("imbalance matches over regression 1.30 ["), "{md}");
    assert!(
        md.contains("over regression on the start's material 1.00 [")
            && md.contains("so what the material goes on to win or lose accounts for the gap"),
        "{md}"
    );
    assert!(md.contains("Priced from the start's material the factor is 1.00 ["), "{md}");
    // The phase refit, which moved the factor by less than its errors, does not.
    assert!(md.contains("so the phase does not account for the gap"), "{md}");
    // A start fit that prices every piece far above the matches overshoots: not the cause.
    for r in rows.iter_mut().filter(|r| r.method.to_string() == "regression-logistic-start") {
        (r.value, r.ci_low, r.ci_high) = (r.value * 1.6, r.ci_low * 1.6, r.ci_high * 1.6);
    }
    table::write(&root, &rows).unwrap();
    let mut d = grand_chess_report();
    report::study::attach(&mut d, &Study::read(&path).unwrap());
    let md = report::render_markdown(&d);
    assert!(
        md.contains("over regression on the start's material 0.62 [")
            && md.contains("on the other side of 1, so what the material goes on to win or lose moves the values by more than the gap"),
        "{md}"
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn bad_study_tables_are_refused_with_the_file_named() {
    let root = scratch("bad");
    let good = write_study(&root, 1.3, 1.0);
    let text = std::fs::read_to_string(&good).unwrap();
    let header = text.lines().next().unwrap().to_string();
    let cases: Vec<(&str, String, &str)> = vec![
        ("empty.csv", String::new(), "no value rows"),
        ("header.csv", format!("{header}\n"), "no value rows"),
        // A file cut off in the middle of a row.
        ("cut.csv", text[..text.len() / 2].trim_end_matches(|c| c != ',').to_string(), "is cut off"),
        // A row with fields missing.
        ("short.csv", format!("{header}\nchess,,N,3.0,2.0\n"), "line 2 is not a value-table row"),
        ("words.csv", format!("{header}\nchess,,N,three,,,supported,pawns,imbalance-lsq,1,1,1,0.1.0,x\n"), "line 2"),
        (
            "one-estimator.csv",
            text.lines().filter(|l| !l.contains("imbalance-lsq")).map(|l| format!("{l}\n")).collect::<String>(),
            "no piece has both",
        ),
    ];
    for (name, content, expected) in cases {
        let dir = root.join(name.trim_end_matches(".csv"));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, content).unwrap();
        let e = Study::read(&path).unwrap_err();
        // A table that reads but holds no study is the study's fault, not the file's.
        let typed = match name {
            "one-estimator.csv" => matches!(e, report::ReportError::Study(_)),
            _ => matches!(e, report::ReportError::Values(ValuesError::Table { .. })),
        };
        assert!(typed, "{name}: {e:?}");
        let e = e.to_string();
        assert!(e.contains(name) && e.contains(expected), "{name}: {e}");
    }
    let e = Study::read(&root.join("absent/values.csv")).unwrap_err();
    assert!(matches!(e, report::ReportError::Values(ValuesError::Io { action: "read", .. })), "{e:?}");
    let e = e.to_string();
    assert!(e.contains("cannot read") && e.contains("absent"), "{e}");
    // A broken experiment file beside a good table is named too.
    std::fs::write(root.join("experiment.toml"), "name = \"x\"\nvariant = \"no-such-game\"\n").unwrap();
    let e = Study::read(&good).unwrap_err();
    assert!(e.to_string().contains("experiment.toml"), "{e}");
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn the_command_line_refuses_a_study_of_another_variant_before_playing() {
    let root = scratch("cli");
    let path = write_study(&root, 1.3, 1.0);
    let out = root.join("report");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_fairylab"))
        .args(["report", "--variant", "chess", "--budget", "tiny", "--quiet", "--study"])
        .arg(&path)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("the study is of flying-bombers-grand (no options), the report of chess"), "{err}");
    assert!(!out.join("runs").exists(), "games were played before the study was checked");

    // An earlier report.json whose studies do not parse stops the run, naming the file,
    // instead of dropping them from the page written next.
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("report.json"), r#"{"variant": "chess", "studies": [{"name": 3}]}"#).unwrap();
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_fairylab"))
        .args(["report", "--variant", "chess", "--budget", "tiny", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("report.json") && err.contains("mend the file, or delete it"), "{err}");
    assert!(!out.join("runs").exists(), "games were played before report.json was checked");
    std::fs::remove_dir_all(&root).unwrap();
}
