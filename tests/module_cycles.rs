//! No file of `src/values` or `src/report` may depend on itself through others, and none
//! may glob-import: the same check as `scripts/check-module-cycles.py` (see it for the
//! rules), here so that `cargo test` keeps it.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

const AREAS: [&str; 2] = ["values", "report"];
/// Folders whose children may name the folder's own types (report/mod.rs holds
/// `ReportData` beside `run()`, which calls the children).
const TYPES_IN_FOLDER: [&str; 1] = ["report"];

type Module = Vec<String>;

fn modules(dir: &Path, src: &Path, out: &mut BTreeMap<Module, String>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            modules(&p, src, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            let rel = p.strip_prefix(src).unwrap().with_extension("");
            let mut m: Module = rel.iter().map(|c| c.to_string_lossy().into_owned()).collect();
            if m.last().is_some_and(|l| l == "mod") {
                m.pop();
            }
            out.insert(m, std::fs::read_to_string(&p).unwrap());
        }
    }
}

/// The code without comments, string literals and `#[cfg(test)]` modules.
fn strip(text: &str) -> String {
    let mut code = String::new();
    for line in text.lines() {
        let line = line.find("//").map_or(line, |i| &line[..i]);
        code.push_str(line);
        code.push('\n');
    }
    let mut out = String::new();
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '"' {
            while let Some(d) = chars.next() {
                match d {
                    '\\' => {
                        chars.next();
                    }
                    '"' => break,
                    _ => {}
                }
            }
            out.push_str("\"\"");
        } else {
            out.push(c);
        }
    }
    let mut kept = String::new();
    let mut rest = out.as_str();
    while let Some(i) = rest.find("#[cfg(test)]") {
        let after = rest[i + 12..].trim_start();
        if !after.starts_with("mod ") {
            kept.push_str(&rest[..i + 12]);
            rest = &rest[i + 12..];
            continue;
        }
        kept.push_str(&rest[..i]);
        let open = i + rest[i..].find('{').unwrap();
        let mut depth = 0;
        let mut end = rest.len();
        for (j, c) in rest[open..].char_indices() {
            depth += match c {
                '{' => 1,
                '}' => -1,
                _ => 0,
            };
            if depth == 0 {
                end = open + j + 1;
                break;
            }
        }
        rest = &rest[end..];
    }
    kept + rest
}

/// `a::{b, c::d as e}` -> paths `[a, b]`, `[a, c, d]` with their aliases.
fn expand(tail: &str) -> Vec<(Vec<String>, Option<String>)> {
    let tail = tail.trim_matches(':');
    let split = |s: &str| s.split("::").map(str::trim).filter(|p| !p.is_empty()).map(String::from).collect::<Vec<_>>();
    let (head, items) = match tail.find('{') {
        Some(i) => (split(&tail[..i]), tail[i + 1..].trim_end_matches('}').split(',').map(String::from).collect()),
        None => (vec![], vec![tail.to_string()]),
    };
    items
        .iter()
        .filter(|i| !i.trim().is_empty())
        .map(|item| {
            let (path, alias) = match item.split_once(" as ") {
                Some((p, a)) => (p, Some(a.trim().to_string())),
                None => (item.as_str(), None),
            };
            ([head.clone(), split(path)].concat(), alias)
        })
        .collect()
}

/// Paths a statement names: `crate::`, `super::`, `self::` anywhere, and `use x::` of a
/// name in scope.
fn paths(stmt: &str, children: &[String], is_folder: bool) -> Vec<(String, String)> {
    let mut out = vec![];
    let bytes = stmt.as_bytes();
    for kind in ["crate", "super", "self"] {
        let mut from = 0;
        while let Some(i) = stmt[from..].find(kind).map(|i| i + from) {
            from = i + kind.len();
            let before_ok =
                i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_' || bytes[i - 1] == b':');
            if !before_ok || !stmt[from..].starts_with("::") {
                continue;
            }
            let mut end = from;
            let mut depth = 0;
            for (j, c) in stmt[from..].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth > 0 => depth -= 1,
                    c if depth > 0 || c.is_alphanumeric() || c == '_' || c == ':' || c == '*' => {}
                    _ => {
                        end = from + j;
                        break;
                    }
                }
                end = from + j + c.len_utf8();
            }
            out.push((kind.to_string(), stmt[from..end].to_string()));
        }
    }
    let is_use = |s: &str| {
        let s = s.trim_start_matches("pub").trim_start();
        let s = if s.starts_with('(') { s[s.find(')').unwrap() + 1..].trim_start() } else { s };
        s.starts_with("use ").then(|| s[4..].trim_start().to_string())
    };
    if let Some(rest) = is_use(stmt) {
        if let Some((first, _)) = rest.split_once("::") {
            if !["crate", "super", "self", "std", "core", "alloc"].contains(&first) && !first.contains('{') {
                out.push(("self".into(), format!("::{rest}")));
            }
        }
    } else if is_folder && !stmt.trim_start_matches("pub ").starts_with("mod ") {
        for c in children {
            let mut from = 0;
            while let Some(i) = stmt[from..].find(&format!("{c}::")).map(|i| i + from) {
                from = i + 1;
                if i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_' || bytes[i - 1] == b':') {
                    out.push(("self".into(), format!("::{c}")));
                    break;
                }
            }
        }
    }
    out
}

struct Graph {
    edges: BTreeMap<Module, BTreeSet<Module>>,
    globs: Vec<String>,
}

fn graph(root: &Path) -> Graph {
    let src = root.join("src");
    let mut files = BTreeMap::new();
    for area in AREAS {
        modules(&src.join(area), &src, &mut files);
    }
    let mut refs: BTreeMap<Module, Vec<Module>> = BTreeMap::new();
    let mut reexports: HashMap<(Module, String), Module> = HashMap::new();
    let mut globs = vec![];
    for (module, text) in &files {
        let is_folder = files.keys().any(|m| m.len() == module.len() + 1 && m.starts_with(module));
        let children: Vec<String> = files
            .keys()
            .filter(|m| m.len() == module.len() + 1 && m.starts_with(module))
            .map(|m| m.last().unwrap().clone())
            .collect();
        for stmt in strip(text).split(';') {
            let stmt = stmt.split_whitespace().collect::<Vec<_>>().join(" ");
            let is_use = stmt.starts_with("use ") || (stmt.starts_with("pub") && stmt.contains(" use "));
            if is_use && stmt.ends_with('*') {
                globs.push(format!("{}: {stmt}", module.join("::")));
            }
            let public_use = is_folder && is_use && stmt.starts_with("pub");
            for (kind, tail) in paths(&stmt, &children, is_folder) {
                for (parts, alias) in expand(&tail) {
                    let target: Module = match kind.as_str() {
                        "crate" => parts,
                        "super" => {
                            let mut up = module[..module.len().saturating_sub(1)].to_vec();
                            let mut parts = parts.as_slice();
                            while parts.first().is_some_and(|p| p == "super") {
                                up.pop();
                                parts = &parts[1..];
                            }
                            [up, parts.to_vec()].concat()
                        }
                        _ => [module.clone(), parts].concat(),
                    };
                    if public_use && !target.is_empty() {
                        let name = alias.unwrap_or_else(|| target.last().unwrap().clone());
                        reexports.insert((module.clone(), name), target);
                    } else {
                        refs.entry(module.clone()).or_default().push(target);
                    }
                }
            }
        }
    }
    let resolve = |target: &Module| {
        let mut target = target.clone();
        for _ in 0..8 {
            let k = (1..=target.len()).rev().find(|&k| files.contains_key(&target[..k]))?;
            match target.get(k).and_then(|n| reexports.get(&(target[..k].to_vec(), n.clone()))) {
                Some(passed) => target = passed.clone(),
                None => return Some(target[..k].to_vec()),
            }
        }
        None
    };
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = files.keys().map(|m| (m.clone(), BTreeSet::new())).collect();
    for (module, targets) in &refs {
        for t in targets.iter().filter_map(resolve) {
            let own_types = TYPES_IN_FOLDER.iter().any(|f| t == [*f]) && module[..module.len() - 1] == t[..];
            if t != *module && !own_types {
                edges.get_mut(module).unwrap().insert(t);
            }
        }
    }
    Graph { edges, globs }
}

/// Groups of more than one file that reach each other (Tarjan's strongly connected components).
fn circles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct State<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: HashMap<&'a Module, usize>,
        low: HashMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        out: Vec<Vec<Module>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a Module) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        for w in &s.edges[v] {
            if !s.index.contains_key(w) {
                visit(s, w);
                let l = s.low[w].min(s.low[v]);
                s.low.insert(v, l);
            } else if s.stack.contains(&w) {
                let l = s.index[w].min(s.low[v]);
                s.low.insert(v, l);
            }
        }
        if s.low[v] == s.index[v] {
            let mut group = vec![];
            while let Some(w) = s.stack.pop() {
                group.push(w.clone());
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                s.out.push(group);
            }
        }
    }
    let mut s = State { edges, index: HashMap::new(), low: HashMap::new(), stack: vec![], out: vec![] };
    for v in edges.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.out
}

#[test]
fn values_and_report_have_no_import_circles_and_no_glob_imports() {
    let g = graph(Path::new(env!("CARGO_MANIFEST_DIR")));
    let found = circles(&g.edges);
    let text: Vec<String> =
        found.iter().map(|c| c.iter().map(|m| m.join("::")).collect::<Vec<_>>().join(" <-> ")).collect();
    let deps: usize = g.edges.values().map(BTreeSet::len).sum();
    if std::env::var_os("MODULE_GRAPH").is_some() {
        for (m, to) in &g.edges {
            let to: Vec<String> = to.iter().map(|t| t.join("::")).collect();
            println!("{} -> {}", m.join("::"), if to.is_empty() { "-".into() } else { to.join(", ") });
        }
    }
    println!("{} files, {deps} dependencies, {} circles, {} glob imports", g.edges.len(), found.len(), g.globs.len());
    assert!(found.is_empty(), "import circles: {text:#?}");
    assert!(g.globs.is_empty(), "glob imports: {:#?}", g.globs);
    // The check sees the dependencies it is meant to: a folder's code on its children, a
    // child on a sibling, and a name passed on by a folder on the file defining it.
    let has = |a: &str, b: &str| {
        let m = |s: &str| s.split("::").map(String::from).collect::<Module>();
        g.edges[&m(a)].contains(&m(b))
    };
    assert!(has("report", "report::study"));
    assert!(has("values::experiment", "values::study"));
    assert!(has("values::study", "values::error"), "ValuesError through values/mod.rs");
}

#[test]
fn the_check_finds_a_circle_and_a_glob() {
    let m = |s: &str| s.split("::").map(String::from).collect::<Module>();
    let edges: BTreeMap<Module, BTreeSet<Module>> = [
        (m("a::x"), [m("a::y")].into_iter().collect()),
        (m("a::y"), [m("a::z")].into_iter().collect()),
        (m("a::z"), [m("a::x")].into_iter().collect()),
        (m("a::w"), [m("a::x")].into_iter().collect()),
    ]
    .into_iter()
    .collect();
    assert_eq!(circles(&edges), vec![vec![m("a::x"), m("a::y"), m("a::z")]]);
    let stmt = strip("use super::render::*;\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n// use super::*;\n");
    assert_eq!(stmt.matches('*').count(), 1, "{stmt}");
    assert_eq!(expand("::a::{b, c::d as e}"), vec![(m("a::b"), None), (m("a::c::d"), Some("e".into()))]);
}
