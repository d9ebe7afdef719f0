//! The figures the README and `docs/` quote from reports and studies equal their sources.
//!
//! A quoted figure is marked where it stands, `<!-- fig PATH#SELECTOR -->1.08 [1.01, 1.17]`,
//! with PATH a `report.json` or a `values.csv`/`fairylab.csv` in the repository. For JSON
//! the selector is a dotted path (`answer.comparisons.0.ratio`) to a number or to an
//! interval object; for CSV it is `column=value&...`, selecting the first matching row
//! (its `value`, `ci_low`, `ci_high`). The figure after the marker is one number, or a
//! value with its interval in brackets; each is compared at the decimals it is written
//! with. In the findings and the report guide every interval must carry a marker, so a
//! figure cannot be typed there without its source.

use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const MARK: &str = "<!-- fig ";

/// Files whose every bracketed interval must be a marked figure.
const STRICT: &[&str] = &["docs/findings.md", "docs/reports.md"];

fn documents() -> Vec<String> {
    let mut files = vec!["README.md".to_string(), "data/studies/README.md".to_string()];
    let mut docs: Vec<String> = std::fs::read_dir(Path::new(ROOT).join("docs"))
        .expect("docs/")
        .filter_map(|e| e.ok())
        .map(|e| format!("docs/{}", e.file_name().to_string_lossy()))
        .filter(|f| f.ends_with(".md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// A written number and its decimals (`−3.6` → (−3.6, 1)); the typographic minus counts.
fn numbers(text: &str) -> Vec<(f64, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = vec![];
    let mut i = 0;
    while i < chars.len() {
        let sign_at = matches!(chars[i], '-' | '+' | '−') && chars.get(i + 1).is_some_and(|c| c.is_ascii_digit());
        if chars[i].is_ascii_digit() || sign_at {
            let start = i;
            i += 1;
            while i < chars.len()
                && (chars[i].is_ascii_digit()
                    || chars[i] == ','
                        && chars.get(i + 1).is_some_and(|c| c.is_ascii_digit())
                        && chars.get(i + 4).is_none_or(|c| !c.is_ascii_digit())
                        && chars[i + 1..].iter().take(3).all(|c| c.is_ascii_digit())
                    || chars[i] == '.' && chars.get(i + 1).is_some_and(|c| c.is_ascii_digit()))
            {
                i += 1;
            }
            let written: String = chars[start..i].iter().collect();
            let plain = written.replace('−', "-").replace(',', "");
            let decimals = plain.split_once('.').map_or(0, |(_, d)| d.len());
            out.push((plain.parse().unwrap_or_else(|_| panic!("number {written}")), decimals));
        } else {
            i += 1;
        }
    }
    out
}

/// The figure after a marker: up to its closing bracket when an interval follows the
/// first number, else the first number alone.
fn figure(after: &str) -> &str {
    let first_digit = after.find(|c: char| c.is_ascii_digit()).unwrap_or(after.len());
    let open = after.find('[');
    match open {
        Some(o) if o < first_digit + 24 => after[..after[o..].find(']').map_or(after.len(), |c| o + c + 1)].trim(),
        _ => {
            let end = after[first_digit..]
                .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
                .map_or(after.len(), |e| first_digit + e);
            after[..end].trim_end_matches([',', '.']).trim()
        }
    }
}

/// (value, low, high) of a source figure; low/high NaN for a plain number.
fn source(spec: &str) -> Result<(f64, f64, f64), String> {
    let (path, selector) = spec.split_once('#').ok_or("no # between path and selector")?;
    let text = std::fs::read_to_string(Path::new(ROOT).join(path)).map_err(|e| format!("{path}: {e}"))?;
    if path.ends_with(".json") {
        let mut v: serde_json::Value = serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
        for key in selector.split('.') {
            v = match key.parse::<usize>() {
                Ok(i) => v.get(i).cloned(),
                Err(_) => v.get(key).cloned(),
            }
            .ok_or_else(|| format!("{path}: no `{key}` in `{selector}`"))?;
        }
        let num = |v: &serde_json::Value, keys: &[&str]| keys.iter().find_map(|k| v.get(*k)?.as_f64());
        if let Some(x) = v.as_f64() {
            return Ok((x, f64::NAN, f64::NAN));
        }
        let value = num(&v, &["value", "factor", "ratio"]).ok_or(format!("{selector}: no value"))?;
        let low = num(&v, &["low", "ratio_low"]).unwrap_or(f64::NAN);
        let high = num(&v, &["high", "ratio_high"]).unwrap_or(f64::NAN);
        Ok((value, low, high))
    } else {
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let header = reader.headers().map_err(|e| e.to_string())?.clone();
        let col = |name: &str| header.iter().position(|h| h == name).ok_or(format!("{path}: no column {name}"));
        let wanted: Vec<(usize, &str)> = selector
            .split('&')
            .map(|kv| {
                let (k, v) = kv.split_once('=').ok_or(format!("selector `{kv}` is not column=value"))?;
                Ok((col(k)?, v))
            })
            .collect::<Result<_, String>>()?;
        let (vi, li, hi) = (col("value")?, col("ci_low")?, col("ci_high")?);
        for row in reader.records() {
            let row = row.map_err(|e| e.to_string())?;
            if wanted.iter().all(|(i, v)| row.get(*i) == Some(*v)) {
                let f = |i: usize| row.get(i).and_then(|x| x.parse().ok()).unwrap_or(f64::NAN);
                return Ok((f(vi), f(li), f(hi)));
            }
        }
        Err(format!("{path}: no row with {selector}"))
    }
}

fn agrees(written: (f64, usize), actual: f64) -> bool {
    (written.0 - actual).abs() <= 0.5 * 10f64.powi(-(written.1 as i32)) + 1e-9
}

#[test]
fn quoted_figures_equal_their_sources() {
    let mut checked = 0;
    let mut wrong = vec![];
    for file in documents() {
        let Ok(text) = std::fs::read_to_string(Path::new(ROOT).join(&file)) else { continue };
        for (at, _) in text.match_indices(MARK) {
            let rest = &text[at + MARK.len()..];
            let end = rest.find("-->").unwrap_or_else(|| panic!("{file}: unclosed figure marker"));
            let spec = rest[..end].trim();
            let shown = figure(&rest[end + 3..]);
            let written = numbers(shown);
            let place = format!("{file}: `{spec}` quoted as `{shown}`");
            match source(spec) {
                Err(e) => wrong.push(format!("{place}: {e}")),
                Ok((v, lo, hi)) => {
                    let ok = match written.as_slice() {
                        [x] => agrees(*x, v),
                        [x, l, h] => agrees(*x, v) && agrees(*l, lo) && agrees(*h, hi),
                        _ => false,
                    };
                    if !ok {
                        wrong.push(format!("{place}: the source says {v} [{lo}, {hi}]"));
                    }
                }
            }
            checked += 1;
        }
    }
    assert!(wrong.is_empty(), "figures that differ from their sources:\n{}", wrong.join("\n"));
    assert!(checked >= 10, "only {checked} marked figures: the markers were lost");
}

/// Every `[low, high]` interval in the strict files follows a marker on the same figure.
#[test]
fn findings_quote_no_unmarked_interval() {
    let mut unmarked = vec![];
    for file in STRICT {
        let text = std::fs::read_to_string(Path::new(ROOT).join(file)).expect(file);
        let marked: Vec<(usize, usize)> = text
            .match_indices(MARK)
            .map(|(at, _)| {
                let end = at + text[at..].find("-->").unwrap() + 3;
                let shown = figure(&text[end..]);
                (end, end + text[end..].find(shown).unwrap_or(0) + shown.len())
            })
            .collect();
        for (at, _) in text.match_indices('[') {
            let inner = &text[at + 1..text[at..].find(']').map_or(at + 1, |e| at + e)];
            let is_interval = numbers(inner).len() == 2 && inner.contains(", ") && !inner.contains('(');
            if is_interval && !marked.iter().any(|&(s, e)| s <= at && at < e) {
                unmarked.push(format!("{file}: [{inner}]"));
            }
        }
    }
    assert!(unmarked.is_empty(), "intervals without a source marker:\n{}", unmarked.join("\n"));
}

#[test]
fn figure_reader_reads_signs_decimals_and_brackets() {
    assert_eq!(figure("+4.5 Elo [−3.6, +12.6]) more"), "+4.5 Elo [−3.6, +12.6]");
    assert_eq!(figure("1.45 times the"), "1.45");
    assert_eq!(numbers("+4.5 Elo [−3.6, +12.6]"), vec![(4.5, 1), (-3.6, 1), (12.6, 1)]);
    assert_eq!(numbers("31,464 games"), vec![(31464.0, 0)]);
    assert!(agrees((1.08, 2), 1.0839) && !agrees((1.08, 2), 1.0851));
}
