//! Perft tables as data: every `tests/data/perft/<variant>[+<option>...].epd` file is read
//! and each of its positions is counted to every depth it lists (format in
//! `tests/data/perft/README.md`). One test per file, so the files run in parallel; a
//! file no test names fails `every_table_has_a_test`.

use fairylab::Variant;
use std::path::{Path, PathBuf};

fn table_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/perft")
}

/// One position of a table: where it stands, the FEN (None: the start position) and the
/// expected leaves per depth.
struct Entry {
    line: usize,
    fen: Option<String>,
    counts: Vec<(u32, u64)>,
}

fn parse_table(path: &Path) -> Vec<Entry> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut entries = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = format!("{}:{}", path.display(), i + 1);
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim();
        assert!(!fen.is_empty(), "{at}: no FEN");
        let mut counts = Vec::new();
        for p in parts {
            let (d, n) = p
                .trim()
                .strip_prefix('D')
                .and_then(|s| s.split_once(' '))
                .unwrap_or_else(|| panic!("{at}: expected ';D<depth> <leaves>', found {p:?}"));
            let d: u32 = d.parse().unwrap_or_else(|_| panic!("{at}: bad depth {d:?}"));
            let n: u64 = n.trim().parse().unwrap_or_else(|_| panic!("{at}: bad leaf count {n:?}"));
            assert!(counts.iter().all(|&(e, _)| e != d), "{at}: depth {d} listed twice");
            counts.push((d, n));
        }
        assert!(!counts.is_empty(), "{at}: no ';D<depth> <leaves>' field");
        entries.push(Entry { line: i + 1, fen: (fen != "startpos").then(|| fen.to_string()), counts });
    }
    entries
}

/// Variant name and options from a file name such as `flying-bombers-grand+immediate-landing.epd`.
fn variant_of(file: &str) -> (String, Vec<String>) {
    let stem = file.strip_suffix(".epd").unwrap_or_else(|| panic!("{file}: not an .epd file"));
    let mut parts = stem.split('+').map(String::from);
    let name = parts.next().unwrap();
    (name, parts.collect())
}

fn run_table(file: &str) {
    let path = table_dir().join(file);
    let (name, options) = variant_of(file);
    let opts: Vec<&str> = options.iter().map(|s| s.as_str()).collect();
    let v = Variant::load(&name, &opts).unwrap_or_else(|e| panic!("{file}: variant {name} {opts:?}: {e}"));
    let entries = parse_table(&path);
    assert!(!entries.is_empty(), "{file}: no positions");
    for e in entries {
        let board = match &e.fen {
            Some(f) => v.parse_fen(f).unwrap_or_else(|err| panic!("{file}:{}: {f}: {err}", e.line)),
            None => v.start_position(),
        };
        let what = e.fen.as_deref().unwrap_or("startpos");
        for &(depth, expected) in &e.counts {
            let got = board.perft(depth).unwrap_or_else(|err| panic!("{file}:{}: {what}: {err}", e.line));
            assert_eq!(got, expected, "{file}:{}: {what}: perft({depth}) = {got}, expected {expected}", e.line);
        }
    }
}

macro_rules! tables {
    ($($test:ident => $file:literal),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                run_table($file);
            }
        )*
        const FILES: &[&str] = &[$($file),*];
    };
}

tables! {
    perft_chess => "chess.epd",
    perft_capablanca => "capablanca.epd",
    perft_flying_bombers_grand => "flying-bombers-grand.epd",
    perft_flying_bombers_grand_immediate_landing => "flying-bombers-grand+immediate-landing.epd",
    perft_flying_bombers_grand_super_jump_knights => "flying-bombers-grand+super-jump-knights.epd",
    perft_flying_bombers_hangars => "flying-bombers-hangars.epd",
    perft_flying_bombers_hangars_immediate_landing => "flying-bombers-hangars+immediate-landing.epd",
    perft_noble_wings => "noble-wings.epd",
    perft_bland_chess_46 => "bland-chess-46.epd",
}

#[test]
fn every_table_has_a_test() {
    let mut on_disk: Vec<String> = std::fs::read_dir(table_dir())
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".epd"))
        .collect();
    on_disk.sort();
    let mut named: Vec<String> = FILES.iter().map(|s| s.to_string()).collect();
    named.sort();
    assert_eq!(on_disk, named, "every .epd file in tests/data/perft needs a line in tables! (tests/perft.rs)");
}

/// The table reader itself: a malformed line is refused, not read as something else.
#[test]
fn table_lines_parse_as_documented() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("perft-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ok = dir.join("ok.epd");
    std::fs::write(&ok, "# comment\n\nstartpos ;D1 20 ;D3 8902\n8/8/8/8/8/8/8/K6k w - - 0 1 ;D2 9\n").unwrap();
    let e = parse_table(&ok);
    assert_eq!(e.len(), 2);
    assert_eq!((e[0].line, e[0].fen.is_none(), e[0].counts.clone()), (3, true, vec![(1, 20), (3, 8902)]));
    assert_eq!(e[1].fen.as_deref(), Some("8/8/8/8/8/8/8/K6k w - - 0 1"));
    for bad in ["startpos", "startpos ;D1", "startpos ;X1 20", "startpos ;D1 x", "startpos ;D1 2 ;D1 2"] {
        let p = dir.join("bad.epd");
        std::fs::write(&p, bad).unwrap();
        assert!(std::panic::catch_unwind(|| parse_table(&p)).is_err(), "{bad:?} was accepted");
    }
    assert_eq!(
        variant_of("flying-bombers-grand+immediate-landing.epd"),
        ("flying-bombers-grand".into(), vec!["immediate-landing".into()])
    );
}

/// The library refuses a depth its recursion could not hold, with a typed error instead
/// of a stack overflow; the deepest accepted depth still runs.
#[test]
fn perft_depth_above_the_bound_is_a_typed_error() {
    let chess = Variant::load("chess", &[]).unwrap();
    let start = chess.start_position();
    let max = fairylab::MAX_PERFT_DEPTH;
    for depth in [max + 1, 2000, u32::MAX] {
        let want = Err(fairylab::PerftError::TooDeep { depth, max });
        assert_eq!(start.perft(depth), want);
        assert_eq!(start.perft_full(depth), want);
        assert_eq!(start.divide(depth).map(|d| d.len()), want.map(|_: u64| 0));
    }
    assert!(start.perft(2000).unwrap_err().to_string().contains("at most 30 plies"));
    // A stalemate has no moves, so the deepest allowed perft finishes at once.
    let stalemate = chess.parse_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    assert_eq!(stalemate.perft(max), Ok(0));
    assert_eq!(stalemate.perft_full(max), Ok(0));
    assert_eq!(stalemate.divide(max), Ok(vec![]));
}
