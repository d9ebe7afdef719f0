//! The value tables and reports kept under data/ read with today's types, and a table
//! written again says every method exactly as the file does.

use fairylab::report::ReportData;
use fairylab::values::table::{self, ValueRow};
use std::path::{Path, PathBuf};

fn files(dir: &Path, keep: &dyn Fn(&Path) -> bool, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, keep, out);
        } else if keep(&p) {
            out.push(p);
        }
    }
}

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data")
}

/// The method column of a CSV file as written.
fn methods_in(text: &str) -> Vec<String> {
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let column = r.headers().unwrap().iter().position(|h| h == "method").unwrap();
    r.records().map(|rec| rec.unwrap()[column].to_string()).collect()
}

#[test]
fn every_kept_value_table_reads_and_writes_its_methods_unchanged() {
    let mut tables = vec![];
    let is_table = |p: &Path| {
        p.extension().is_some_and(|x| x == "csv")
            && std::fs::read_to_string(p).is_ok_and(|t| {
                t.lines().next().is_some_and(|h| h.starts_with("variant,options,piece,") && h.contains(",method,"))
            })
    };
    files(&data(), &is_table, &mut tables);
    assert!(tables.len() >= 10, "{tables:?}");
    for path in &tables {
        let rows = table::read(path).unwrap_or_else(|e| panic!("{e}"));
        let text = std::fs::read_to_string(path).unwrap();
        let mut w = csv::Writer::from_writer(vec![]);
        for r in &rows {
            w.serialize(r).unwrap();
        }
        let again = String::from_utf8(w.into_inner().unwrap()).unwrap();
        assert_eq!(methods_in(&again), methods_in(&text), "{}", path.display());
    }
    let mut json = vec![];
    files(&data().join("studies"), &|p| p.file_name().is_some_and(|n| n == "values.json"), &mut json);
    for path in &json {
        let text = std::fs::read_to_string(path).unwrap();
        let rows: Vec<ValueRow> = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let written: serde_json::Value = serde_json::to_value(&rows).unwrap();
        let kept: serde_json::Value = serde_json::from_str(&text).unwrap();
        let method =
            |v: &serde_json::Value| v.as_array().unwrap().iter().map(|r| r["method"].clone()).collect::<Vec<_>>();
        assert_eq!(method(&written), method(&kept), "{}", path.display());
    }
}

#[test]
fn every_kept_report_reads() {
    let mut reports = vec![];
    files(&data().join("reports"), &|p| p.file_name().is_some_and(|n| n == "report.json"), &mut reports);
    assert!(!reports.is_empty());
    for path in &reports {
        let text = std::fs::read_to_string(path).unwrap();
        let d: ReportData = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // The studies' rows carry their methods through a round trip unchanged.
        let kept: serde_json::Value = serde_json::from_str(&text).unwrap();
        let again = serde_json::to_value(&d.studies).unwrap();
        let methods = |studies: &serde_json::Value| {
            studies
                .as_array()
                .into_iter()
                .flatten()
                .flat_map(|s| s["rows"].as_array().unwrap().iter().map(|r| r["method"].clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(methods(&again), methods(&kept["studies"]), "{}", path.display());
    }
}
