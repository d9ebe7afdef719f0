//! Betza as Fairy-Stockfish reads it: every `tests/data/betza/<name>.toml` test variant is
//! counted against `<name>.epd`, perft counts that Fairy-Stockfish produced for the twin
//! section `[name]` of `tests/data/betza/variants.ini` (`scripts/betza-perft.py` regenerates
//! them; this test needs no Fairy-Stockfish). Table format as in `tests/data/perft`.

use fairylab::Variant;
use std::path::{Path, PathBuf};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/betza")
}

/// (line, FEN or None for the start, [(depth, leaves)]) per table line.
type Row = (usize, Option<String>, Vec<(u32, u64)>);

fn rows(path: &Path) -> Vec<Row> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim().to_string();
        let counts = parts
            .map(|p| {
                let (d, n) = p.trim().strip_prefix('D').and_then(|s| s.split_once(' ')).expect("';D<depth> <leaves>'");
                (d.parse().unwrap(), n.trim().parse().unwrap())
            })
            .collect();
        out.push((i + 1, (fen != "startpos").then_some(fen), counts));
    }
    out
}

fn check(name: &str) {
    let dir = data_dir();
    let toml = dir.join(format!("{name}.toml"));
    let v = Variant::load(toml.to_str().unwrap(), &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
    let table = rows(&dir.join(format!("{name}.epd")));
    assert!(table.len() > 1, "{name}: the start and random positions");
    for (line, fen, counts) in table {
        let board = match &fen {
            Some(f) => v.parse_fen(f).unwrap_or_else(|e| panic!("{name}.epd:{line}: {f}: {e}")),
            None => v.start_position(),
        };
        for (depth, expected) in counts {
            let got = board.perft(depth).unwrap();
            assert_eq!(got, expected, "{name}.epd:{line}: {fen:?}: perft({depth}) = {got}, Fairy-Stockfish {expected}");
        }
    }
}

macro_rules! variants {
    ($($test:ident => $name:literal),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                check($name);
            }
        )*
        const NAMES: &[&str] = &[$($name),*];
    };
}

variants! {
    cannons_mrcpr_mbcpb_pr => "betza-cannons",
    grasshoppers_gq_gr => "betza-grasshoppers",
    lame_nn_na_nd_nj => "betza-lame",
    initial_ifmnd_in_imr => "betza-initial",
    camel_zebra_and_directions => "betza-directions",
}

/// Each test variant has its table and its Fairy-Stockfish twin, and each is tested.
#[test]
fn every_variant_has_a_table_and_a_twin() {
    let dir = data_dir();
    let ini = std::fs::read_to_string(dir.join("variants.ini")).unwrap();
    let mut tomls: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".toml").map(String::from))
        .collect();
    tomls.sort();
    let mut named: Vec<String> = NAMES.iter().map(|s| s.to_string()).collect();
    named.sort();
    assert_eq!(tomls, named, "every tests/data/betza/*.toml needs a line in variants! (tests/betza_perft.rs)");
    for n in NAMES {
        assert!(dir.join(format!("{n}.epd")).is_file(), "{n}.epd missing: run scripts/betza-perft.py");
        assert!(ini.contains(&format!("[{n}]")), "variants.ini has no section [{n}]");
    }
}
