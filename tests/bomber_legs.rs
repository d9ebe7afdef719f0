//! The Flying Bomber written as a multi-leg movement string counts exactly as the bomber
//! written in Rust did. `tests/data/bomber/<game>[+<option>].epd` holds 1,000 positions per
//! game and landing rule, reached by seeded random playouts from the start, with the perft
//! counts the named `<bomber>` movement gave before it became a string (`generate` below
//! wrote them, run once on that code). The rules test positions are in `tests/data/perft`.
//!
//! Each table is counted twice: through the compiled bomber fast path, and through the
//! generic multi-leg generator (`[rules] leg_fast_path = false`), so the two agree with
//! each other as well as with the old code.

use fairylab::rng::Rng;
use fairylab::{Board, Variant};
use std::path::{Path, PathBuf};

const GAMES: [(&str, &str); 5] = [
    ("flying-bombers-grand", ""),
    ("flying-bombers-grand", "immediate-landing"),
    ("flying-bombers-hangars", ""),
    ("flying-bombers-hangars", "immediate-landing"),
    ("bomber-diagram", ""),
];
const POSITIONS: usize = 1000;
const DEPTH: u32 = 3;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bomber")
}

fn file_name(game: &str, option: &str) -> String {
    if option.is_empty() {
        format!("{game}.epd")
    } else {
        format!("{game}+{option}.epd")
    }
}

fn options(option: &str) -> Vec<&str> {
    if option.is_empty() {
        vec![]
    } else {
        vec![option]
    }
}

/// A position `plies` random legal moves from the start (fewer if the game ends first).
fn playout(v: Variant, rng: &mut Rng, plies: usize) -> Board {
    let mut b = v.start_position();
    for _ in 0..plies {
        let moves = b.legal_moves();
        if moves.is_empty() {
            break;
        }
        b = b.play(moves[rng.below(moves.len())]).unwrap();
    }
    b
}

/// Writes the tables from the movement the variant files give the bomber. It was run once
/// (`cargo test --release --test bomber_legs -- --ignored generate`) on the code with the
/// named `<bomber>` movement, commit b720ec3; run now it would count the string instead.
#[test]
#[ignore]
fn generate() {
    std::fs::create_dir_all(data_dir()).unwrap();
    for (i, (game, option)) in GAMES.iter().enumerate() {
        let v = Variant::load(game, &options(option)).unwrap();
        let mut rng = Rng::new(4000 + i as u64);
        let mut out = format!(
            "# {game} {option}: {POSITIONS} positions by seeded random playouts (seed {}), perft from the <bomber> code\n",
            4000 + i
        );
        for _ in 0..POSITIONS {
            let plies = 1 + rng.below(90);
            let b = playout(v, &mut rng, plies);
            out += &b.fen();
            for d in 1..=DEPTH {
                out += &format!(";D{d} {}", b.perft(d).unwrap());
            }
            out.push('\n');
        }
        std::fs::write(data_dir().join(file_name(game, option)), out).unwrap();
    }
}

/// (FEN, [(depth, leaves)]) per line of a table.
fn rows(path: &Path) -> Vec<(String, Vec<(u32, u64)>)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let (d, n) =
                        p.trim().strip_prefix('D').and_then(|s| s.split_once(' ')).expect("';D<depth> <leaves>'");
                    (d.parse().unwrap(), n.trim().parse().unwrap())
                })
                .collect();
            (fen, counts)
        })
        .collect()
}

/// Counts every table position to `depth` (to the table's depth on every `deep`-th one).
fn check(v: Variant, file: &str, what: &str, depth: u32, deep: usize) {
    let table = rows(&data_dir().join(file));
    assert_eq!(table.len(), POSITIONS, "{file}");
    for (i, (fen, counts)) in table.into_iter().enumerate() {
        let b = v.parse_fen(&fen).unwrap_or_else(|e| panic!("{file}: {fen}: {e}"));
        for (d, want) in counts {
            if d <= depth || i % deep == 0 {
                assert_eq!(b.perft(d).unwrap(), want, "{file} ({what}): {fen}: perft({d})");
            }
        }
    }
}

fn bomber_type(v: Variant) -> Option<usize> {
    match v {
        Variant::Narrow(r) => r.bomber,
        Variant::Wide(r) => r.bomber,
    }
}

/// The game's file with the bomber sent through the generic multi-leg walk.
fn generic(game: &str, option: &str) -> Variant {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("configs/variants/{game}.toml"));
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains("\n[rules]\n"), "{game}: no [rules] section to switch the fast path off in");
    let text = text.replacen("\n[rules]\n", "\n[rules]\nleg_fast_path = false\n", 1);
    Variant::from_toml(&text, &options(option)).unwrap()
}

#[test]
fn the_bomber_string_counts_as_the_old_bomber() {
    for (game, option) in GAMES {
        let v = Variant::load(game, &options(option)).unwrap();
        assert!(bomber_type(v).is_some(), "{game}: the bomber's string takes the fast path");
        check(v, &file_name(game, option), "fast path", DEPTH, 1);
    }
}

#[test]
fn the_generic_walk_counts_as_the_fast_path() {
    for (game, option) in GAMES {
        let v = generic(game, option);
        assert!(bomber_type(v).is_none(), "{game}: leg_fast_path = false keeps the generic walk");
        check(v, &file_name(game, option), "generic path", 2, 10);
    }
}

/// The bomber's rules test positions (`tests/data/bomber/rules-positions.epd`, written by
/// `scripts/bomber-rules-perft.py` with the `<bomber>` code), through both paths.
#[test]
fn the_rules_positions_count_as_with_the_old_bomber() {
    let text = std::fs::read_to_string(data_dir().join("rules-positions.epd")).unwrap();
    let mut seen = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let (name, rest) = line.split_once(" | ").expect("<variant>[+option] | FEN ;D<depth> <leaves>");
        let (game, option) = name.split_once('+').unwrap_or((name, ""));
        let mut parts = rest.split(';');
        let fen = parts.next().unwrap().trim();
        for v in [Variant::load(game, &options(option)).unwrap(), generic(game, option)] {
            let b = v.parse_fen(fen).unwrap_or_else(|e| panic!("{name}: {fen}: {e}"));
            for p in parts.clone() {
                let (d, n) = p.trim().strip_prefix('D').and_then(|s| s.split_once(' ')).unwrap();
                let (d, n): (u32, u64) = (d.parse().unwrap(), n.trim().parse().unwrap());
                let path = if bomber_type(v).is_some() { "fast" } else { "generic" };
                assert_eq!(b.perft(d).unwrap(), n, "{name} ({path} path): {fen}: perft({d})");
            }
        }
        seen += 1;
    }
    assert_eq!(seen, 62, "rules positions");
}
