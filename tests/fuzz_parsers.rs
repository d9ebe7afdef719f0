//! Generated-input tests for the parsers a user or an engine feeds (issue 14, "Fuzzing"):
//! FEN for every variant, variant TOML, PGN, the run folder's CSV files on resume,
//! experiment TOML, UCI commands sent to `fairylab uci`, and UCI output read from an
//! external engine.
//!
//! Valid inputs are mutated by a seeded generator; every call must return `Ok` or `Err`
//! without panicking. A failure prints the seed, the iteration and the input.
//!
//! `cargo test` runs a short pass. `FAIRYLAB_FUZZ_ITERATIONS=N` sets the number of inputs
//! per parser and `FAIRYLAB_FUZZ_SEED=S` the seed (`scripts/fuzz.sh` runs the long pass).

use fairylab::rng::Rng;
use fairylab::Variant;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

// ---------------------------------------------------------------------------------------
// Settings and the mutator
// ---------------------------------------------------------------------------------------

fn iterations(default: usize) -> usize {
    match std::env::var("FAIRYLAB_FUZZ_ITERATIONS") {
        Ok(v) => v.trim().parse().unwrap_or_else(|_| panic!("FAIRYLAB_FUZZ_ITERATIONS={v:?} is not a count")),
        Err(_) => default,
    }
}

fn seed() -> u64 {
    match std::env::var("FAIRYLAB_FUZZ_SEED") {
        Ok(v) => v.trim().parse().unwrap_or_else(|_| panic!("FAIRYLAB_FUZZ_SEED={v:?} is not a number")),
        Err(_) => 14,
    }
}

/// One summary line per parser, read by `scripts/fuzz.sh`.
fn report(parser: &str, inputs: usize, accepted: usize, start: Instant) {
    eprintln!("fuzz {parser}: {inputs} inputs, {accepted} accepted, 0 panics, {:.1} s", start.elapsed().as_secs_f64());
}

/// Numbers that stress counters and sizes.
const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "-0",
    "1",
    "255",
    "256",
    "65535",
    "65536",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999999",
    "-9223372036854775808",
    "1e308",
    "nan",
];

fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len())]
}

/// Byte range of a random run of ASCII digits, if the text has one.
fn digit_run(rng: &mut Rng, b: &[u8]) -> Option<(usize, usize)> {
    let starts: Vec<usize> =
        (0..b.len()).filter(|&i| b[i].is_ascii_digit() && (i == 0 || !b[i - 1].is_ascii_digit())).collect();
    if starts.is_empty() {
        return None;
    }
    let s = starts[rng.below(starts.len())];
    let mut e = s;
    while e < b.len() && b[e].is_ascii_digit() {
        e += 1;
    }
    Some((s, e))
}

/// Applies 1 to 4 random edits to `text`; `tokens` are the insertions that matter to the
/// parser at hand. The bytes may stop being UTF-8: they are read back lossily, which also
/// puts multi-byte characters where the parser expects ASCII.
fn mutate(rng: &mut Rng, text: &str, tokens: &[&str]) -> String {
    let mut b: Vec<u8> = text.as_bytes().to_vec();
    let edits = 1 + rng.below(4);
    for _ in 0..edits {
        let n = b.len();
        let at = rng.below(n + 1);
        match rng.below(12) {
            // Flip one bit of one byte.
            0 if n > 0 => {
                let i = rng.below(n);
                b[i] ^= 1 << rng.below(8);
            }
            // Delete a short range.
            1 if n > 0 => {
                let len = (1 + rng.below(4)).min(n - at.min(n - 1));
                let s = at.min(n - 1);
                b.drain(s..(s + len).min(n));
            }
            // Insert a parser-relevant token.
            2 | 3 => {
                let t = pick(rng, tokens);
                b.splice(at..at, t.bytes());
            }
            // Insert a long run of digits.
            4 => {
                let run: String =
                    std::iter::repeat_n(char::from(b'0' + rng.below(10) as u8), 1 + rng.below(40)).collect();
                b.splice(at..at, run.bytes());
            }
            // Replace a number by an extreme one.
            5 => {
                if let Some((s, e)) = digit_run(rng, &b) {
                    let t = pick(rng, NUMBERS);
                    b.splice(s..e, t.bytes());
                }
            }
            // Truncate.
            6 => b.truncate(at),
            // Swap two whitespace-separated fields.
            7 => {
                let s = String::from_utf8_lossy(&b).into_owned();
                let mut fields: Vec<&str> = s.split(' ').collect();
                if fields.len() > 1 {
                    let i = rng.below(fields.len());
                    let j = rng.below(fields.len());
                    fields.swap(i, j);
                    b = fields.join(" ").into_bytes();
                }
            }
            // Duplicate a range.
            8 if n > 0 => {
                let s = rng.below(n);
                let e = (s + 1 + rng.below(12)).min(n);
                let copy = b[s..e].to_vec();
                let at = rng.below(b.len() + 1);
                b.splice(at..at, copy);
            }
            // Replace one byte by a token.
            9 if n > 0 => {
                let i = rng.below(n);
                let t = pick(rng, tokens);
                b.splice(i..i + 1, t.bytes());
            }
            // Insert a character outside ASCII.
            10 => {
                let t = pick(rng, &["é", "\u{0}", "\u{ff11}", "\u{661}", "\u{1F600}", "\t", "\r", "\n", "\u{a0}"]);
                b.splice(at..at, t.bytes());
            }
            // Random byte.
            _ => {
                b.insert(at, rng.below(256) as u8);
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// Runs `f`, turning a panic into a test failure that names the parser, seed and input.
fn guard<T>(parser: &str, seed: u64, iteration: usize, input: &str, f: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(e) => {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!(
                "{parser} panicked (seed {seed}, iteration {iteration}): {msg}\n--- input ---\n{input:?}\n\
                 (rerun: FAIRYLAB_FUZZ_SEED={seed} cargo test --release --test fuzz_parsers)"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// FEN
// ---------------------------------------------------------------------------------------

fn variant_names() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/variants");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "toml").then(|| p.file_stem()?.to_str().map(String::from))?
        })
        .collect();
    names.sort();
    assert!(names.len() >= 7, "expected the shipped variants in {}, found {names:?}", dir.display());
    names
}

/// Every option a variant offers, alone.
fn option_sets(v: &Variant) -> Vec<Vec<String>> {
    let mut sets = vec![vec![]];
    for (o, _) in v.available_options() {
        sets.push(vec![o.clone()]);
    }
    sets
}

/// Valid positions of a variant: its start (and setup choices), then random legal walks.
fn seed_positions(v: &Variant, rng: &mut Rng) -> Vec<String> {
    let mut fens = vec![v.start_fen().to_string()];
    for c in v.setup_choices().iter().take(3) {
        if let Ok(b) = v.setup_position(&format!("{c}/{c}")) {
            fens.push(b.fen());
        }
    }
    for _ in 0..6 {
        let mut b = v.start_position();
        for _ in 0..(2 + rng.below(14)) {
            let moves = b.legal_moves();
            if moves.is_empty() {
                break;
            }
            b = b.play(moves[rng.below(moves.len())]).unwrap();
            fens.push(b.fen());
        }
    }
    fens.sort();
    fens.dedup();
    fens
}

fn fen_tokens(v: &Variant) -> Vec<String> {
    let mut t: Vec<String> =
        ["/", "*", " ", "-", ",", "w", "b", "KQkq", "1", "2", "8", "9", "10", "11", "12", "0", "00"]
            .iter()
            .map(|s| s.to_string())
            .collect();
    let letters: String = v.start_fen().chars().filter(|c| c.is_ascii_alphabetic()).collect();
    for c in letters.chars().chain("kqrbnpKQRBNPzZxX".chars()) {
        t.push(c.to_string());
    }
    let (files, ranks) = v.board_size();
    for f in 0..files.min(26) {
        let file = char::from(b'a' + f as u8);
        t.push(format!("{file}{}", 1 + f % ranks));
        t.push(format!("{file}0"));
        t.push(format!("{file}{}", ranks + 1));
    }
    t.push(" 0 1".into());
    t.push(" w - - 0 1".into());
    t.push("WW/WW".into());
    t.push("/8/8".into());
    t
}

/// Replaces one FEN field by a plausible value: a piece moved, added or removed on the
/// board, another side to move, castling rights, en-passant square, clocks or setup field.
fn mutate_fen_field(rng: &mut Rng, fen: &str, v: &Variant) -> String {
    let mut fields: Vec<String> = fen.split(' ').map(String::from).collect();
    let (files, ranks) = v.board_size();
    let square = |rng: &mut Rng| format!("{}{}", char::from(b'a' + rng.below(files) as u8), 1 + rng.below(ranks));
    let letters: Vec<char> =
        v.start_fen().split(' ').next().unwrap().chars().filter(|c| c.is_ascii_alphabetic()).collect();
    let i = rng.below(fields.len().max(7));
    if i >= fields.len() {
        fields.resize(i + 1, "-".into());
    }
    fields[i] = match i {
        0 => {
            // Expand the board to one cell per square, change one cell, compress again.
            let mut rows: Vec<Vec<char>> = Vec::new();
            for row in fields[0].split('/') {
                let mut cells = Vec::new();
                let mut n = 0;
                for c in row.chars() {
                    if let Some(d) = c.to_digit(10) {
                        n = n * 10 + d as usize;
                        continue;
                    }
                    cells.extend(std::iter::repeat_n('.', n));
                    n = 0;
                    cells.push(c);
                }
                cells.extend(std::iter::repeat_n('.', n));
                rows.push(cells);
            }
            let r = rng.below(rows.len());
            if !rows[r].is_empty() {
                let c = rng.below(rows[r].len());
                rows[r][c] = match rng.below(3) {
                    0 => '.',
                    1 => letters[rng.below(letters.len())],
                    _ => letters[rng.below(letters.len())].to_ascii_lowercase(),
                };
            }
            let mut out = Vec::new();
            for row in rows {
                let mut s = String::new();
                let mut n = 0;
                for c in row {
                    if c == '.' {
                        n += 1;
                        continue;
                    }
                    if n > 0 {
                        s += &n.to_string();
                        n = 0;
                    }
                    s.push(c);
                }
                if n > 0 {
                    s += &n.to_string();
                }
                out.push(s);
            }
            out.join("/")
        }
        1 => pick(rng, &["w", "b", "W", "B", "-"]).to_string(),
        2 => pick(rng, &["-", "KQkq", "K", "q", "Kk", "KQkqKQkq", "AHah", "k", "Q"]).to_string(),
        3 => {
            if rng.below(2) == 0 {
                "-".into()
            } else {
                square(rng)
            }
        }
        4 | 5 => pick(rng, &["0", "1", "49", "99", "100", "150", "500", "65535", "4294967296"]).to_string(),
        _ => pick(rng, &["WW/WW", "NW/MW", "MM/NN", "WW", "WW/WW/WW", "", "XX/XX", "-"]).to_string(),
    };
    fields.join(" ")
}

fn check_fen(v: &Variant, fen: &str) -> bool {
    let Ok(b) = v.parse_fen(fen) else { return false };
    let again = b.fen();
    let b2 = v.parse_fen(&again).unwrap_or_else(|e| panic!("fen() of an accepted FEN is refused: {again:?}: {e}"));
    assert_eq!(b.hash(), b2.hash(), "round trip changes the position: {fen:?} -> {again:?}");
    assert_eq!(b2.fen(), again, "fen() is not stable: {fen:?} -> {again:?}");
    let moves = b.legal_moves();
    // A finished game (a king-capture game whose king is gone) has no perft children.
    if b.terminal().is_none() {
        assert_eq!(b.perft(1).unwrap(), moves.len() as u64, "perft(1) and legal_moves() disagree on {again:?}");
    } else {
        let _ = b.perft(1);
    }
    if let Some(m) = moves.first() {
        let _ = b.play(m).unwrap().fen();
    }
    let _ = b.terminal();
    true
}

#[test]
fn fen_mutations_never_panic() {
    let seed = seed();
    let total = iterations(4000);
    let start = Instant::now();
    let mut rng = Rng::derive(seed, 1);
    // (variant, seed FENs, tokens) for every variant and option.
    let mut pool: Vec<(Variant, Vec<String>, Vec<String>)> = Vec::new();
    for name in variant_names() {
        let base = Variant::load(&name, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
        for opts in option_sets(&base) {
            let o: Vec<&str> = opts.iter().map(|s| s.as_str()).collect();
            let v = Variant::load(&name, &o).unwrap();
            let fens = seed_positions(&v, &mut rng);
            for f in &fens {
                assert!(check_fen(&v, f), "{name} {opts:?}: a legal position is refused: {f}");
            }
            pool.push((v, fens, fen_tokens(&v)));
        }
    }
    let mut accepted = 0;
    for i in 0..total {
        let (v, fens, tokens) = &pool[i % pool.len()];
        let toks: Vec<&str> = tokens.iter().map(|s| s.as_str()).collect();
        let mut fen = fens[rng.below(fens.len())].clone();
        // Half the inputs change one field for a plausible value, which keeps many of them
        // valid and exercises the round trip; the rest take byte-level edits, now and then
        // several rounds of them.
        if rng.below(2) == 0 {
            fen = mutate_fen_field(&mut rng, &fen, v);
        } else {
            for _ in 0..(1 + rng.below(2) * rng.below(4)) {
                fen = mutate(&mut rng, &fen, &toks);
            }
        }
        let name = format!("FEN ({} {:?})", v.name(), v.options());
        if guard(&name, seed, i, &fen, || check_fen(v, &fen)) {
            accepted += 1;
        }
    }
    report("FEN", total, accepted, start);
}

#[test]
fn fen_hand_picked_edge_cases() {
    let chess = Variant::load("chess", &[]).unwrap();
    let grand = Variant::load("flying-bombers-grand", &[]).unwrap();
    let cases = [
        "",
        " ",
        "/",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "99999999999999999999/8/8/8/8/8/8/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 99999999999999999999 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999999999999",
        "4k3/8/8/8/8/8/8/4K3 w - - -1 -1",
        "4k3/8/8/8/8/8/8/4K3 w - e9 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - z1 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - e 0 1",
        "4k3/8/8/8/8/8/8/4K3 w KQkqKQkq - 0 1",
        "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra fields here",
        "4k3/8/8/8/8/8/8/4K3/8/8/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3é w - - 0 1",
        "4k3/8/8/8/8/8/8/4K\u{ff13} w - - 0 1",
        "kkkkkkkk/KKKKKKKK/8/8/8/8/8/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 WW/WW",
        "0000000004k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w",
        "4k3/8/8/8/8/8/8/4K3",
    ];
    for (i, fen) in cases.iter().enumerate() {
        for v in [&chess, &grand] {
            guard("FEN edge case", 0, i, fen, || check_fen(v, fen));
        }
    }
}

// ---------------------------------------------------------------------------------------
// Variant TOML
// ---------------------------------------------------------------------------------------

fn shipped_tomls() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/variants");
    variant_names()
        .into_iter()
        .map(|n| {
            let text = std::fs::read_to_string(dir.join(format!("{n}.toml"))).unwrap();
            (n, text)
        })
        .collect()
}

const TOML_TOKENS: &[&str] = &[
    "=",
    "\"",
    "[",
    "]",
    "[[",
    "]]",
    ",",
    ".",
    "\n",
    "#",
    "'",
    "{",
    "}",
    "true",
    "false",
    "\"\"",
    "K",
    "Q",
    "N",
    "P",
    "a1",
    "z99",
    "0",
    "-1",
    "999999999999",
    "1.5",
    "inf",
    "[]",
    "[pieces.X]\n",
    "[board]\n",
    "movement = \"\"\n",
    "royal = true\n",
    "pawn = true\n",
    "files = 200\n",
    "ranks = 0\n",
];

/// Line-level edits of a TOML text: delete, duplicate or swap lines, swap the values of
/// two `key = value` lines, replace a number by an extreme one.
fn mutate_toml(rng: &mut Rng, text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    if lines.is_empty() {
        return mutate(rng, text, TOML_TOKENS);
    }
    match rng.below(7) {
        0 => {
            let i = rng.below(lines.len());
            lines.remove(i);
        }
        1 => {
            let i = rng.below(lines.len());
            let l = lines[i].clone();
            let j = rng.below(lines.len() + 1);
            lines.insert(j, l);
        }
        2 => {
            let (i, j) = (rng.below(lines.len()), rng.below(lines.len()));
            lines.swap(i, j);
        }
        3 => {
            let with_value: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].contains(" = ")).collect();
            if with_value.len() > 1 {
                let i = with_value[rng.below(with_value.len())];
                let j = with_value[rng.below(with_value.len())];
                let vi = lines[i].split_once(" = ").unwrap().1.to_string();
                let vj = lines[j].split_once(" = ").unwrap().1.to_string();
                let ki = lines[i].split_once(" = ").unwrap().0.to_string();
                let kj = lines[j].split_once(" = ").unwrap().0.to_string();
                lines[i] = format!("{ki} = {vj}");
                lines[j] = format!("{kj} = {vi}");
            }
        }
        4 => {
            let numeric: Vec<usize> =
                (0..lines.len()).filter(|&i| lines[i].bytes().any(|c| c.is_ascii_digit())).collect();
            if !numeric.is_empty() {
                let i = numeric[rng.below(numeric.len())];
                let mut b = lines[i].as_bytes().to_vec();
                if let Some((s, e)) = digit_run(rng, &b) {
                    b.splice(s..e, pick(rng, NUMBERS).bytes());
                }
                lines[i] = String::from_utf8_lossy(&b).into_owned();
            }
        }
        5 => {
            let i = rng.below(lines.len());
            let l = mutate(rng, &lines[i], TOML_TOKENS);
            lines[i] = l;
        }
        _ => {
            let keep = rng.below(lines.len() + 1);
            lines.truncate(keep);
        }
    }
    lines.join("\n")
}

#[test]
fn variant_toml_mutations_never_panic() {
    let seed = seed();
    let total = iterations(2000);
    let start = Instant::now();
    let mut rng = Rng::derive(seed, 2);
    let texts = shipped_tomls();
    let mut accepted = 0;
    for i in 0..total {
        let (name, text) = &texts[i % texts.len()];
        let mut t = text.clone();
        for _ in 0..(1 + rng.below(3)) {
            t = if rng.below(4) == 0 { mutate(&mut rng, &t, TOML_TOKENS) } else { mutate_toml(&mut rng, &t) };
        }
        let opts: Vec<&str> = match rng.below(4) {
            0 => vec!["immediate-landing"],
            1 => vec!["super-jump-knights"],
            _ => vec![],
        };
        let ok = guard(&format!("variant TOML (from {name}, options {opts:?})"), seed, i, &t, || {
            match Variant::from_toml(&t, &opts) {
                Ok(v) => {
                    // A variant that loads has a start position that works.
                    let b = v.start_position();
                    let _ = b.legal_moves();
                    let _ = b.perft(1);
                    let _ = v.parse_fen(&b.fen()).unwrap();
                    true
                }
                Err(e) => {
                    let _ = e.to_string();
                    false
                }
            }
        });
        if ok {
            accepted += 1;
        }
    }
    report("variant TOML", total, accepted, start);
}

/// Pieces of movement strings: atoms, modifiers, directions, ranges and named movements.
const BETZA_TOKENS: &[&str] = &[
    "W",
    "F",
    "D",
    "N",
    "A",
    "H",
    "L",
    "C",
    "J",
    "Z",
    "G",
    "K",
    "R",
    "B",
    "Q",
    "m",
    "c",
    "p",
    "g",
    "n",
    "i",
    "f",
    "b",
    "v",
    "s",
    "l",
    "r",
    "h",
    "e",
    "x",
    "0",
    "1",
    "2",
    "9",
    "99999999999",
    "<bomber>",
    "<",
    ">",
    "<x>",
    "NN",
    "fh",
    "hl",
    "vs",
    " ",
    "a",
    "t",
    "y",
    "ca",
    "af",
    "cy",
];

/// Movement strings as Fairy-Stockfish writes them, mutated and compiled into a small
/// variant: each must load or be refused with an error, and a variant that loads must
/// generate, perft and test attacks without panicking.
#[test]
fn movement_mutations_never_panic() {
    let seed = seed();
    let total = iterations(1500);
    let start = Instant::now();
    let mut rng = Rng::derive(seed, 9);
    let seeds = [
        "mRcpR",
        "gQ",
        "nN",
        "nA",
        "ifmnDfmWfcF",
        "LJ",
        "hlCvW",
        "lfNrbNfsW",
        "fsKbR2",
        "pB",
        "nJ",
        "WiN",
        "FimR",
        "gRB",
        "RmB4",
        "NmK",
        "mRcafmRtafWmcafcW",
        "mRcyafmRtafWmcafcW",
        "cafmB",
        "masW",
        "pafcR",
        "mabW",
        "tafmD",
    ];
    let template =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/betza/betza-cannons.toml"))
            .unwrap();
    let mut accepted = 0;
    for i in 0..total {
        let mut m = seeds[rng.below(seeds.len())].to_string();
        for _ in 0..(1 + rng.below(3)) {
            m = mutate(&mut rng, &m, BETZA_TOKENS);
        }
        let toml_string = format!("{m:?}");
        let t = template.replacen("\"mRcpR\"", &toml_string, 1);
        let ok = guard("movement", seed, i, &t, || match Variant::from_toml(&t, &[]) {
            Ok(v) => {
                let b = v.start_position();
                let _ = b.perft(2);
                let mut b = b;
                for _ in 0..6 {
                    let moves = b.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    b = b.play(moves[rng_index(&m, moves.len())]).unwrap();
                }
                let _ = b.perft(1);
                true
            }
            Err(e) => {
                assert!(!e.to_string().is_empty());
                false
            }
        });
        if ok {
            accepted += 1;
        }
    }
    report("movement", total, accepted, start);
}

/// A move index that depends on the movement text only (the closure cannot borrow the
/// generator).
fn rng_index(text: &str, n: usize) -> usize {
    text.bytes().fold(7usize, |h, b| h.wrapping_mul(31).wrapping_add(b as usize)) % n
}

// ---------------------------------------------------------------------------------------
// PGN
// ---------------------------------------------------------------------------------------

/// A valid PGN of a random legal game (in the form `games::pgn::write` gives).
fn pgn_of_game(v: &Variant, rng: &mut Rng) -> String {
    let mut b = v.start_position();
    let mut moves = Vec::new();
    for _ in 0..(4 + rng.below(16)) {
        let legal = b.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        b = b.play(m).unwrap();
        moves.push(m.to_string());
    }
    let mut s = String::new();
    for (k, val) in [
        ("Event", "fuzz"),
        ("Site", "fairylab"),
        ("Round", "1"),
        ("White", "A"),
        ("Black", "B"),
        ("Result", "*"),
        ("Variant", v.name()),
        ("SetUp", "1"),
        ("FEN", v.start_fen()),
        ("PlyCount", &moves.len().to_string()),
    ] {
        s.push_str(&format!("[{k} \"{val}\"]\n"));
    }
    s.push('\n');
    for (i, m) in moves.iter().enumerate() {
        if i % 2 == 0 {
            s.push_str(&format!("{}. ", i / 2 + 1));
        }
        s.push_str(m);
        s.push(' ');
        if i % 7 == 6 {
            s.push_str("{a comment (nested)} ");
        }
    }
    s.push_str("*\n\n");
    s
}

const PGN_TOKENS: &[&str] = &[
    "[",
    "]",
    "\"",
    "{",
    "}",
    "(",
    ")",
    ";",
    "1.",
    "1...",
    "99999999999999999999.",
    "*",
    "1-0",
    "0-1",
    "1/2-1/2",
    "\n",
    "\n\n",
    " ",
    "e2e4",
    "e7e5",
    "a1a1",
    "e7e8q",
    "[FEN \"\"]\n",
    "[Variant \"capablanca\"]\n",
    "[Variant \"\"]\n",
    "[Variant \"/\"]\n",
    "[]\n",
    "[ ]\n",
    "$1",
    "!",
    "?",
    "+",
    "#",
];

#[test]
fn pgn_mutations_never_panic() {
    let seed = seed();
    let total = iterations(2000);
    let start = Instant::now();
    let mut rng = Rng::derive(seed, 3);
    let mut games: Vec<String> = Vec::new();
    for name in ["chess", "capablanca", "flying-bombers-grand", "bland-chess-46", "noble-wings"] {
        let v = Variant::load(name, &[]).unwrap();
        for _ in 0..3 {
            let pgn = pgn_of_game(&v, &mut rng);
            let read =
                fairylab::games::pgn::read(&pgn, &[]).unwrap_or_else(|e| panic!("valid PGN refused: {e}\n{pgn}"));
            assert_eq!(read.len(), 1);
            assert_eq!(read[0].variant, name);
            games.push(pgn);
        }
    }
    // Two games in one file, as --pgnout writes them.
    games.push(format!("{}{}", games[0], games[3]));
    assert_eq!(fairylab::games::pgn::read(games.last().unwrap(), &[]).unwrap().len(), 2);
    let mut accepted = 0;
    for i in 0..total {
        let mut t = games[rng.below(games.len())].clone();
        for _ in 0..(1 + rng.below(2) * rng.below(4)) {
            t = mutate(&mut rng, &t, PGN_TOKENS);
        }
        let ok = guard("PGN", seed, i, &t, || match fairylab::games::pgn::read(&t, &[]) {
            Ok(gs) => {
                // Every game read back replays.
                for g in &gs {
                    let v = Variant::load(&g.variant, &[]).unwrap();
                    let mut b = v.parse_fen(&g.start_fen).unwrap();
                    for m in &g.moves {
                        b = b.play(m).unwrap();
                    }
                }
                true
            }
            Err(e) => {
                let _ = e.to_string();
                false
            }
        });
        if ok {
            accepted += 1;
        }
    }
    report("PGN", total, accepted, start);
}

// ---------------------------------------------------------------------------------------
// Run folder CSV files on resume
// ---------------------------------------------------------------------------------------

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("fuzz-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn copy_dir(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

fn run_match(dir: &Path) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_fairylab"))
        .args(["match", "--variant", "chess", "--games", "4", "--nodes", "200", "--concurrency", "1", "--quiet"])
        .arg("--out")
        .arg(dir)
        .output()
        .unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Data lines (after the header) that end in a newline.
fn complete_rows(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut rows: Vec<String> = text.split_inclusive('\n').filter(|l| l.ends_with('\n')).map(String::from).collect();
    if !rows.is_empty() {
        rows.remove(0);
    }
    rows
}

/// The run resumes and keeps `kept` (rows of finished games before the damage), or it
/// refuses with one `error:` line naming the file.
fn assert_resumes(case: &str, dir: &Path, kept: &[String], file: &str, positions_intact: bool) {
    let (code, stderr) = run_match(dir);
    assert!(!stderr.contains("panicked"), "{case}: the resume panicked:\n{stderr}");
    if code == 0 {
        let after = complete_rows(&dir.join("games.csv"));
        for row in kept {
            assert!(after.contains(row), "{case}: a finished game was lost on resume:\n{row}\nnow:\n{after:?}");
        }
        assert_eq!(after.len(), 4, "{case}: expected 4 games after the resume, got {after:?}");
        let ids: std::collections::BTreeSet<&str> = after.iter().map(|r| r.split(',').next().unwrap()).collect();
        assert_eq!(ids.len(), 4, "{case}: duplicate game ids after the resume: {after:?}");
        // Every kept game's positions are there (unless the damage removed them), and none
        // of a game that is not.
        let pos = complete_rows(&dir.join("positions.csv"));
        if positions_intact {
            for id in &ids {
                assert!(pos.iter().any(|p| p.split(',').next() == Some(id)), "{case}: game {id} lost its positions");
            }
        }
        for p in &pos {
            assert!(ids.contains(p.split(',').next().unwrap()), "{case}: positions of an unknown game: {p}");
        }
    } else {
        assert_eq!(code, 2, "{case}: exit code {code}, stderr:\n{stderr}");
        let lines: Vec<&str> = stderr.lines().filter(|l| !l.starts_with("warning:")).collect();
        assert_eq!(lines.len(), 1, "{case}: expected one error line:\n{stderr}");
        assert!(lines[0].starts_with("error: ") && lines[0].contains(file), "{case}: {stderr}");
    }
}

#[test]
fn resume_with_damaged_csv_files() {
    let root = scratch("resume");
    let base = root.join("base");
    let (code, stderr) = run_match(&base);
    assert_eq!(code, 0, "{stderr}");
    let games = complete_rows(&base.join("games.csv"));
    assert_eq!(games.len(), 4);
    let games_text = std::fs::read_to_string(base.join("games.csv")).unwrap();
    let pos_text = std::fs::read_to_string(base.join("positions.csv")).unwrap();

    // Games: the last row cut in half (an interrupted write); the other three are kept.
    let cut_at = games_text.len() - games.last().unwrap().len() / 2;
    let cases: Vec<(&str, &str, String, Vec<String>)> = vec![
        ("games.csv last row cut in half", "games.csv", games_text[..cut_at].to_string(), games[..3].to_vec()),
        ("games.csv garbage row appended", "games.csv", format!("{games_text}not,a,game,row\n"), games.clone()),
        ("games.csv garbage without newline", "games.csv", format!("{games_text}\u{0}\u{ff}garbage"), games.clone()),
        (
            "games.csv last row cut and garbage appended",
            "games.csv",
            format!("{}\nx,y\n", &games_text[..cut_at]),
            games[..3].to_vec(),
        ),
        // The damaged row is dropped and its game replayed (the same game comes back: a
        // game depends only on the seed, the opening and the players); the rows after it
        // are kept.
        (
            "games.csv garbage row in the middle",
            "games.csv",
            {
                let header = games_text.split_inclusive('\n').next().unwrap();
                format!("{header}{}garbage,row\n{}", games[0], games[1..].concat())
            },
            games.clone(),
        ),
        ("games.csv header only", "games.csv", games_text.lines().next().unwrap().to_string() + "\n", vec![]),
        ("games.csv empty", "games.csv", String::new(), vec![]),
        (
            "games.csv wrong types in the last row",
            "games.csv",
            format!("{games_text}x,-1,A,B,1-0,checkmate,-5,,,,,,\n"),
            games.clone(),
        ),
        (
            "positions.csv last row cut in half",
            "positions.csv",
            pos_text[..pos_text.len() - 20].to_string(),
            games.clone(),
        ),
        ("positions.csv garbage row appended", "positions.csv", format!("{pos_text}1,2,3\n"), games.clone()),
        ("positions.csv garbage without newline", "positions.csv", format!("{pos_text}garbage\u{0}"), games.clone()),
        ("positions.csv empty", "positions.csv", String::new(), games.clone()),
    ];
    for (i, (case, file, text, kept)) in cases.iter().enumerate() {
        let dir = root.join(format!("case-{i}"));
        copy_dir(&base, &dir);
        std::fs::write(dir.join(file), text).unwrap();
        // Game rows whose positions were damaged may be replayed: only the games file
        // damage decides which rows must survive.
        let kept: Vec<String> = if *file == "positions.csv" { vec![] } else { kept.clone() };
        assert_resumes(case, &dir, &kept, file, *case != "positions.csv empty");
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// The CSV reader behind a resume, in process: `Writer::open` on a run folder whose
/// files are mutated copies of real ones must return Ok or Err, never panic.
#[test]
fn csv_reader_mutations_never_panic() {
    let seed = seed();
    let total = iterations(300);
    let start = Instant::now();
    let mut rng = Rng::derive(seed, 4);
    let root = scratch("csv");
    let base = root.join("base");
    let (code, stderr) = run_match(&base);
    assert_eq!(code, 0, "{stderr}");
    let games_text = std::fs::read_to_string(base.join("games.csv")).unwrap();
    let pos_text = std::fs::read_to_string(base.join("positions.csv")).unwrap();
    let tokens: &[&str] = &[",", "\n", "\"", "\r\n", "1-0", "-1", "18446744073709551616", "\"\"", ",,,,", "\n1,2\n"];
    let finished = fairylab::tournament::output::read_games(&base).unwrap();
    assert_eq!(finished.len(), 4);
    let dir = root.join("work");
    let mut accepted = 0;
    for i in 0..total {
        // Damage after the last complete row (an interrupted write, garbage appended) must
        // keep every finished game.
        let tail_only = rng.below(4) == 0;
        let (g, p) = if tail_only {
            let tail = mutate(&mut rng, "x", tokens);
            (format!("{games_text}{tail}"), pos_text.clone())
        } else {
            match rng.below(3) {
                0 => (mutate(&mut rng, &games_text, tokens), pos_text.clone()),
                1 => (games_text.clone(), mutate(&mut rng, &pos_text, tokens)),
                _ => (mutate(&mut rng, &games_text, tokens), mutate(&mut rng, &pos_text, tokens)),
            }
        };
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("games.csv"), &g).unwrap();
        std::fs::write(dir.join("positions.csv"), &p).unwrap();
        let input = format!("--- games.csv ---\n{g}\n--- positions.csv ---\n{p}");
        let ok =
            guard("run folder CSV", seed, i, &input, || match fairylab::tournament::output::Writer::open(&dir, None) {
                Ok((_, done)) => {
                    if tail_only {
                        assert!(done.len() >= 4 && done[..4] == finished[..], "finished games lost");
                    }
                    true
                }
                Err(e) => {
                    assert!(!tail_only, "damage after the last row refused the folder: {e}");
                    false
                }
            });
        if ok {
            accepted += 1;
        }
    }
    report("run folder CSV", total, accepted, start);
    let _ = std::fs::remove_dir_all(&root);
}

// ---------------------------------------------------------------------------------------
// Experiment TOML (`fairylab experiment FILE`)
// ---------------------------------------------------------------------------------------

fn shipped_experiments() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/experiments");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "toml").then(|| (p.display().to_string(), std::fs::read_to_string(&p).unwrap()))
        })
        .collect();
    out.sort();
    assert!(out.len() >= 3, "expected the shipped experiments in {}", dir.display());
    out
}

const EXPERIMENT_TOKENS: &[&str] = &[
    "=",
    "\"",
    "[",
    "]",
    "[[]]",
    "[[], []]",
    "[[\"immediate-landing\"]]",
    "[[\"no-such-option\"]]",
    ",",
    "\n",
    "#",
    "{",
    "}",
    "{ \"value.F\" = 480 }",
    "{ \"nosuch\" = 1 }",
    "true",
    "false",
    "0",
    "-1",
    "nan",
    "inf",
    "-inf",
    "1e400",
    "0.0",
    "\"F=R\"",
    "\"Q=Q\"",
    "\"X=P\"",
    "\"F=R+\"",
    "\"=\"",
    "\"f2=f7\"",
    "\"z9\"",
    "\"ef\"",
    "\"logistic\"",
    "\"probit\"",
    "[imbalance]\n",
    "[regress]\n",
    "[engine]\n",
    "variant = \"chess\"\n",
    "variant = \"flying-bombers-grand\"\n",
    "variant = \"bland-chess-46\"\n",
    "variant = \"\"\n",
    "variant = \"/\"\n",
    "nodes = 0\n",
    "unknown_key = 1\n",
    "compare = []\n",
    "models = []\n",
    "bootstrap = 0\n",
    "max_games = 1\n",
    "calibration = \"a1=a8\"\n",
];

/// `Experiment::parse` (what `fairylab experiment FILE` runs before anything else) on
/// mutated copies of the shipped experiment files: `Ok` or an `Err` naming the file,
/// never a panic.
#[test]
fn experiment_toml_mutations_never_panic() {
    use fairylab::values::experiment::Experiment;
    let seed = seed();
    let total = iterations(1500);
    let start = Instant::now();
    let mut rng = Rng::derive(seed, 5);
    let texts = shipped_experiments();
    for (path, text) in &texts {
        Experiment::parse(text, path).unwrap_or_else(|e| panic!("a shipped experiment is refused: {e}"));
    }
    let mut accepted = 0;
    for i in 0..total {
        let (_, text) = &texts[i % texts.len()];
        let mut t = text.clone();
        for _ in 0..(1 + rng.below(3)) {
            t = if rng.below(3) == 0 { mutate(&mut rng, &t, EXPERIMENT_TOKENS) } else { mutate_toml(&mut rng, &t) };
        }
        let ok = guard("experiment TOML", seed, i, &t, || match Experiment::parse(&t, "fuzz.toml") {
            Ok(e) => {
                let _ = e.engine_settings();
                true
            }
            Err(e) => {
                let e = e.to_string();
                assert!(e.starts_with("fuzz.toml"), "the error does not name the file: {e}");
                assert!(!e.trim().is_empty());
                false
            }
        });
        if ok {
            accepted += 1;
        }
    }
    report("experiment TOML", total, accepted, start);
}

/// The CLI on refused experiment files: one `error:` line, exit code 2. (Only files the
/// parser refuses are run: an accepted one would start playing games.)
#[test]
fn experiment_cli_refusals_are_one_error_line() {
    use fairylab::values::experiment::Experiment;
    let mut rng = Rng::derive(seed(), 6);
    let texts = shipped_experiments();
    let dir = scratch("experiment-cli");
    let mut tried = 0;
    let mut cases: Vec<String> = vec![String::new(), "name = ".into(), "\u{0}\u{ff}".into(), "[imbalance\n".into()];
    while cases.len() < 16 {
        let t = mutate_toml(&mut rng, &texts[cases.len() % texts.len()].1);
        if Experiment::parse(&t, "x").is_err() {
            cases.push(t);
        }
    }
    for (i, t) in cases.iter().enumerate() {
        let file = dir.join(format!("case-{i}.toml"));
        std::fs::write(&file, t).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_fairylab")).arg("experiment").arg(&file).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "case {i}: {stderr}\n--- input ---\n{t}");
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(lines.len(), 1, "case {i}: expected one error line:\n{stderr}");
        assert!(lines[0].starts_with("error: "), "case {i}: {stderr}");
        tried += 1;
    }
    assert_eq!(tried, 16);
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------
// UCI commands sent to `fairylab uci`
// ---------------------------------------------------------------------------------------

/// A valid conversation with `fairylab uci` covering every command.
fn uci_script(rng: &mut Rng) -> Vec<String> {
    let variants = ["chess", "flying-bombers-grand", "bland-chess-46", "noble-wings", "flying-bombers-hangars"];
    let v = variants[rng.below(variants.len())];
    let variant = Variant::load(v, &[]).unwrap();
    let mut b = variant.start_position();
    let mut moves = Vec::new();
    for _ in 0..rng.below(8) {
        let legal = b.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        b = b.play(m).unwrap();
        moves.push(m.to_string());
    }
    let position = if rng.below(2) == 0 {
        format!("position startpos moves {}", moves.join(" "))
    } else {
        format!("position fen {} moves {}", variant.start_fen(), moves.join(" "))
    };
    let go = [
        "go depth 2",
        "go nodes 300",
        "go movetime 5",
        "go wtime 1000 btime 900 winc 10 binc 10 movestogo 20",
        "go infinite",
        "go",
    ];
    vec![
        "uci".into(),
        format!("setoption name UCI_Variant value {v}"),
        "setoption name Hash value 1".into(),
        "setoption name value.P value 110".into(),
        "isready".into(),
        "ucinewgame".into(),
        position,
        format!("position fen {}", b.fen()),
        go[rng.below(go.len())].into(),
        "stop".into(),
        "d".into(),
        "quit".into(),
    ]
}

const UCI_TOKENS: &[&str] = &[
    " ",
    "name",
    "value",
    "moves",
    "fen",
    "startpos",
    "go",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "binc",
    "movestogo",
    "infinite",
    "ponder",
    "searchmoves",
    "stop",
    "quit",
    "uci",
    "isready",
    "setoption",
    "position",
    "UCI_Variant",
    "Hash",
    "value.F",
    "pst.N.center.eg",
    "e2e4",
    "0000",
    "a1a1",
    "e7e8q",
    "f1i1",
    "/",
    "*",
    "capablanca",
    "nosuch",
    "configs/variants/chess.toml",
    "/dev/null",
    "-",
];

/// Word-level edits of a UCI line: a word replaced by a keyword or an extreme number,
/// deleted, duplicated, or a word inserted.
fn mutate_words(rng: &mut Rng, line: &str) -> String {
    let mut words: Vec<String> = line.split(' ').map(String::from).collect();
    for _ in 0..(1 + rng.below(2)) {
        let i = rng.below(words.len());
        let new = if rng.below(2) == 0 { pick(rng, UCI_TOKENS) } else { pick(rng, NUMBERS) }.trim().to_string();
        match rng.below(4) {
            0 => words[i] = new,
            1 if words.len() > 1 => {
                words.remove(i);
            }
            2 => {
                let w = words[i].clone();
                words.insert(i, w);
            }
            _ => words.insert(i, new),
        }
    }
    words.join(" ")
}

/// Lines sent to a `fairylab uci` session in process (the `UciSession` the command runs):
/// each input is one mutated line of a valid conversation. Every line is answered (an
/// `Err` is a one-line message), every accepted `go` gives exactly one `bestmove`, and
/// the session stays usable. Hash tables are capped at 1 MB so `setoption name Hash`
/// with any number stays cheap; each search is stopped right after its `go`.
#[test]
fn uci_command_mutations_never_panic() {
    use fairylab::cli::uci::{Output, UciSession};
    use std::sync::{Arc, Mutex};
    let seed = seed();
    let total = iterations(3000);
    let start = Instant::now();
    let mut rng = Rng::derive(seed, 7);
    let lines: Arc<Mutex<Vec<String>>> = Arc::new(Mutex::new(Vec::new()));
    let sink = lines.clone();
    let out: Output = Arc::new(move |l: &str| sink.lock().unwrap().push(l.to_string()));
    let mut session = UciSession::new("chess", &[], out).unwrap().with_max_hash(1);
    let mut scripts: Vec<Vec<String>> = (0..24).map(|_| uci_script(&mut rng)).collect();
    // The valid conversations run as they are first.
    for s in &scripts {
        for l in s {
            assert!(session.handle(l).is_ok(), "valid UCI line refused: {l:?}");
            session.stop();
        }
    }
    let bestmoves =
        |lines: &Mutex<Vec<String>>| lines.lock().unwrap().iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(bestmoves(&lines), 24, "one bestmove per go");
    let mut accepted = 0;
    for i in 0..total {
        if i % 1000 == 999 {
            // New random positions now and then.
            let k = rng.below(scripts.len());
            scripts[k] = uci_script(&mut rng);
        }
        let script = &scripts[rng.below(scripts.len())];
        let mut line = script[rng.below(script.len())].clone();
        // A fifth of the inputs are valid lines (searching whatever position the mutated
        // ones before left), two fifths change whole words, two fifths bytes.
        match rng.below(5) {
            0 => {}
            1 | 2 => line = mutate_words(&mut rng, &line),
            _ => {
                for _ in 0..(1 + rng.below(2) * rng.below(3)) {
                    line = mutate(&mut rng, &line, UCI_TOKENS);
                }
            }
        }
        lines.lock().unwrap().clear();
        let is_go = line.split_whitespace().next() == Some("go");
        let ok = guard("UCI command", seed, i, &line, || {
            // `fairylab uci` trims each line and reads lines, so no line break inside one.
            let l = line.replace(['\n', '\r'], " ");
            let r = session.handle(l.trim());
            session.stop();
            match r {
                Ok(_) => {
                    let n = bestmoves(&lines);
                    assert_eq!(n, usize::from(is_go), "accepted line {l:?} gave {n} bestmove lines");
                    true
                }
                Err(e) => {
                    assert!(!e.is_empty() && !e.contains('\n'), "error is not one line: {e:?}");
                    assert_eq!(bestmoves(&lines), 0, "a refused go searched");
                    false
                }
            }
        });
        if ok {
            accepted += 1;
        }
    }
    // Still answers.
    lines.lock().unwrap().clear();
    assert!(session.handle("isready").is_ok());
    assert_eq!(lines.lock().unwrap().last().map(|s| s.as_str()), Some("readyok"));
    report("UCI commands", total, accepted, start);
}

/// The `fairylab uci` process on mutated conversations: it never panics, answers
/// `isready`, and ends with exit code 0 when stdin closes.
#[test]
fn uci_process_survives_mutated_conversations() {
    use std::io::Write;
    let mut rng = Rng::derive(seed(), 8);
    for case in 0..6 {
        let mut script = uci_script(&mut rng);
        script.retain(|l| l != "quit");
        let mut text = String::new();
        for l in &script {
            let line = if rng.below(2) == 0 { mutate(&mut rng, l, UCI_TOKENS) } else { l.clone() };
            text += &line;
            text.push('\n');
            // A search must end before the next command that needs the engine.
            if line.split_whitespace().next() == Some("go") || line.lines().any(|x| x.trim_start().starts_with("go")) {
                text += "stop\n";
            }
        }
        text += "stop\nisready\n";
        let mut child = Command::new(env!("CARGO_BIN_EXE_fairylab"))
            .args(["uci", "--variant", "chess"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "case {case}: {stderr}\n--- input ---\n{text}");
        assert_eq!(out.status.code(), Some(0), "case {case}: {stderr}\n--- input ---\n{text}");
        assert!(stdout.lines().any(|l| l == "readyok"), "case {case}: no readyok\n{stdout}");
    }
}

// ---------------------------------------------------------------------------------------
// UCI output read from an external engine
// ---------------------------------------------------------------------------------------

/// What an engine might print between `go` and `bestmove` for a position.
fn engine_reply(rng: &mut Rng, b: &fairylab::Board) -> String {
    let legal = b.legal_moves();
    let mv = if legal.is_empty() { "0000".to_string() } else { legal[rng.below(legal.len())].to_string() };
    let mut s = String::new();
    if rng.below(3) == 0 {
        s += "info string NNUE evaluation using nn-xyz.nnue enabled\n";
    }
    for d in 1..(2 + rng.below(6)) {
        let score = if rng.below(5) == 0 {
            format!("mate {}", rng.below(20) as i64 - 10)
        } else {
            format!("cp {}", rng.below(2000) as i64 - 1000)
        };
        s += &format!(
            "info depth {d} seldepth {} multipv 1 score {score}{} nodes {} nps 1000000 hashfull 3 tbhits 0 time {} pv {mv}\n",
            d + rng.below(5),
            ["", " lowerbound", " upperbound"][rng.below(3)],
            100 * d * d,
            d * 3
        );
    }
    s += &format!("bestmove {mv}{}\n", if rng.below(2) == 0 { " ponder e7e5" } else { "" });
    s
}

const ENGINE_TOKENS: &[&str] = &[
    "info ",
    "bestmove ",
    "bestmove",
    "bestmove (none)",
    " score ",
    " cp ",
    " mate ",
    " depth ",
    " nodes ",
    " string ",
    " pv ",
    "-",
    "\n",
    "\r\n",
    "\r",
    "0000",
    "e2e4",
    "a1a1",
    "e7e8q",
    "readyok\n",
    "uciok\n",
    "\u{0}",
    "\u{ff}",
];

/// The reader of an external engine's answer to `go` (`uci_player::read_line` and
/// `reply_line`, as `UciPlayer` uses them) on mutated engine output, delivered in small
/// chunks; the move it yields goes to the arbiter (`Board::play`). The reader returns a
/// move, a failure or the end of output, never panics, cuts lines at `MAX_LINE` and keeps
/// scores within the mate range.
#[test]
fn uci_engine_output_mutations_never_panic() {
    use fairylab::games::uci_player::{read_line, reply_line, SearchInfo, MATE_CP, MAX_LINE};
    use std::io::BufReader;
    let seed = seed();
    let total = iterations(4000);
    let start = Instant::now();
    let mut rng = Rng::derive(seed, 9);
    let mut positions = Vec::new();
    for name in ["chess", "flying-bombers-grand", "bland-chess-46", "noble-wings"] {
        let v = Variant::load(name, &[]).unwrap();
        for f in seed_positions(&v, &mut rng) {
            positions.push(v.parse_fen(&f).unwrap());
        }
    }
    let mut accepted = 0;
    for i in 0..total {
        let b = &positions[rng.below(positions.len())];
        let mut text = engine_reply(&mut rng, b);
        for _ in 0..(1 + rng.below(2) * rng.below(4)) {
            text = mutate(&mut rng, &text, ENGINE_TOKENS);
        }
        if rng.below(500) == 0 {
            // An engine that floods one line.
            let at = rng.below(text.len() + 1);
            let at = (0..=at).rev().find(|&k| text.is_char_boundary(k)).unwrap_or(0);
            text.insert_str(at, &"9".repeat(MAX_LINE + rng.below(1000)));
        }
        let capacity = 1 + rng.below(64);
        let ok = guard("UCI engine output", seed, i, &text, || {
            let mut reader = BufReader::with_capacity(capacity, text.as_bytes());
            let mut info = SearchInfo::default();
            loop {
                let Some(line) = read_line(&mut reader) else { return false };
                assert!(
                    line.chars().count() <= MAX_LINE,
                    "a line of {} characters passed the cut",
                    line.chars().count()
                );
                match reply_line(&line, &mut info) {
                    Ok(Some(mv)) => {
                        if let Some(s) = info.score_cp {
                            assert!((-MATE_CP..=MATE_CP).contains(&s), "score {s} out of range");
                        }
                        // The arbiter: an illegal move loses the game, it never panics.
                        return b.play(&mv).is_ok();
                    }
                    Ok(None) => {}
                    Err(_) => return false,
                }
            }
        });
        if ok {
            accepted += 1;
        }
    }
    report("UCI engine output", total, accepted, start);
}

/// Fairy-Stockfish variant files (`FILE.ini:NAME`), the shipped excerpts mutated: each
/// section loads or is refused with an error, and one that loads perfts without panicking.
#[test]
fn fairy_stockfish_ini_mutations_never_panic() {
    let seed = seed();
    let total = iterations(1500);
    let start = Instant::now();
    let mut rng = Rng::derive(seed, 41);
    let original =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fs-ini/variants.ini")).unwrap();
    let tokens = [
        "=",
        ":",
        "[",
        "]",
        "\n",
        "-",
        "maxRank = ",
        "maxFile = ",
        "99",
        "0",
        "z",
        "customPiece2 = x:",
        "cafmR",
        "nN",
        "gQ",
        "pawnTypes = ",
        "castling = false",
        "startFen = ",
        "pieceDrops = true",
        "king = ",
        "*8",
        " w ",
        "KQkq",
    ];
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("fuzz-ini-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("v.ini");
    let mut accepted = 0;
    for i in 0..total {
        let text = mutate(&mut rng, &original, &tokens);
        std::fs::write(&path, &text).unwrap();
        let name = ["caught-in-a-snag", "weak", "peasant"][rng.below(3)];
        let spec = format!("{}:{name}", path.display());
        let ok = guard("Fairy-Stockfish ini", seed, i, &text, || match Variant::load(&spec, &[]) {
            Ok(v) => {
                let _ = v.start_position().perft(2);
                true
            }
            Err(e) => {
                assert!(!e.to_string().is_empty());
                false
            }
        });
        accepted += ok as usize;
    }
    report("Fairy-Stockfish ini", total, accepted, start);
}
