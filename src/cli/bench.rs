//! `fairylab bench perft`: single-thread perft speed, bulk-counted and with make/unmake at
//! every node, over fixed positions of every game; `bench search`: nodes per second of a
//! fixed-depth search; `bench tactics`: positions of EPD suites solved at a node budget.

use crate::Error;
use clap::{Args, ValueEnum};
use std::time::Instant;

#[derive(Clone, Copy, ValueEnum)]
pub enum BenchKind {
    /// Perft speed (bulk-counted and with make/unmake at every node).
    Perft,
    /// Search to a fixed depth over fixed positions of every game: the node total is a
    /// signature that changes whenever search behaviour changes.
    Search,
    /// Positions of EPD test suites (`--epd`, `bm`/`am` in SAN) whose best move the
    /// engine (`--engine`, in-process or UCI) finds in `--nodes` nodes.
    Tactics,
}

#[derive(Args)]
pub struct BenchArgs {
    #[arg(value_enum, default_value = "perft")]
    pub kind: BenchKind,
    /// Only this variant.
    #[arg(long)]
    pub variant: Option<String>,
    /// Subtract this from each default depth (quick runs).
    #[arg(long, default_value_t = 0)]
    pub shallower: u32,
    /// Runs per case; the fastest is reported (shared machines are noisy).
    #[arg(long, default_value_t = 3)]
    pub repeat: u32,
    /// Search depth for `bench search`.
    #[arg(long, default_value_t = 8)]
    pub depth: u32,
    /// EPD suite for `bench tactics` (repeatable).
    #[arg(long)]
    pub epd: Vec<String>,
    /// Nodes per position for `bench tactics`.
    #[arg(long, default_value_t = 2000)]
    pub nodes: u64,
    /// The engine for `bench tactics`, as in `match --engine` (`name=fs cmd=PATH ...`).
    #[arg(long, default_value = "name=fairylab")]
    pub engine: String,
    /// Print every position's result (`bench tactics`).
    #[arg(long)]
    pub verbose: bool,
}

/// Positions for `bench search`: the start and one position after a few moves per game.
const SEARCH_CASES: &[(&str, &[&str])] = &[
    ("chess", &["", "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"]),
    ("capablanca", &[""]),
    ("noble-wings", &[""]),
    ("bland-chess-46", &[""]),
    ("flying-bombers-hangars", &[""]),
    ("flying-bombers-grand", &["", "frnbqkbnrf/ppp1pppppp/10/3p6/10/10/4P5/10/PPPP1PPPPP/FRNBQKBNRF w KQkq - 0 2"]),
];

fn bench_search(a: &BenchArgs) -> Result<(), Error> {
    use crate::engine::Engine;
    use crate::search::Limits;
    println!("{:<24} {:>6} {:>12} {:>10}", "variant", "depth", "nodes", "k nodes/s");
    let (mut total, mut secs) = (0u64, 0f64);
    for &(name, fens) in SEARCH_CASES {
        if a.variant.as_deref().is_some_and(|v| v != name) {
            continue;
        }
        let v = crate::Variant::load(name, &[])?;
        let (mut nodes, mut t) = (0u64, 0f64);
        for fen in fens {
            let mut e = Engine::default_for(v)?;
            let b = if fen.is_empty() { v.start_position() } else { v.parse_fen(fen)? };
            e.set_board(&b, &[], &[])?;
            let start = Instant::now();
            let d = e.go(&Limits::depth(a.depth), &mut |_| {});
            t += start.elapsed().as_secs_f64();
            nodes += d.nodes;
        }
        println!("{name:<24} {:>6} {nodes:>12} {:>10.0}", a.depth, nodes as f64 / t / 1e3);
        total += nodes;
        secs += t;
    }
    println!("total nodes {total}  {:.0} k nodes/s", total as f64 / secs.max(1e-9) / 1e3);
    Ok(())
}

/// Nodes and best speed in M nodes/s over `repeat` runs.
fn best(repeat: u32, f: impl Fn() -> Result<u64, crate::PerftError>) -> Result<(u64, f64), Error> {
    let mut speed: f64 = 0.0;
    let mut nodes = 0;
    for _ in 0..repeat.max(1) {
        let t = Instant::now();
        nodes = f()?;
        speed = speed.max(nodes as f64 / t.elapsed().as_secs_f64() / 1e6);
    }
    Ok((nodes, speed))
}

/// (variant, options, fen or "" for start, depth)
const CASES: &[(&str, &[&str], &str, u32)] = &[
    ("chess", &[], "", 6),
    ("chess", &[], "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5),
    ("noble-wings", &[], "", 6),
    ("capablanca", &[], "", 6),
    ("flying-bombers-grand", &[], "", 5),
    ("flying-bombers-grand", &["immediate-landing"], "", 5),
    ("flying-bombers-grand", &["super-jump-knights"], "", 5),
    ("flying-bombers-hangars", &[], "", 6),
    ("bland-chess-46", &[], "", 8),
];

pub fn run(a: &BenchArgs) -> Result<(), Error> {
    match a.kind {
        BenchKind::Search => return bench_search(a),
        BenchKind::Tactics => {
            let v = crate::Variant::load(a.variant.as_deref().unwrap_or("chess"), &[])?;
            return super::tactics::run(v, &a.epd, a.nodes, &a.engine, a.verbose);
        }
        BenchKind::Perft => {}
    }
    println!(
        "{:<24} {:<20} {:>5} {:>14} {:>10} {:>12}",
        "variant", "options", "depth", "nodes", "bulk M/s", "make M/s"
    );
    for &(name, opts, fen, depth) in CASES {
        if a.variant.as_deref().is_some_and(|v| v != name) {
            continue;
        }
        let v = crate::Variant::load(name, opts)?;
        let b = if fen.is_empty() { v.start_position() } else { v.parse_fen(fen)? };
        let depth = depth.saturating_sub(a.shallower).max(1);
        let (nodes, bulk) = best(a.repeat, || b.perft(depth))?;
        let (_, full) = best(a.repeat, || b.perft_full(depth - 1))?;
        let label = if fen.is_empty() { opts.join(",") } else { format!("{} kiwipete", opts.join(",")) };
        println!("{name:<24} {label:<20} {depth:>5} {nodes:>14} {bulk:>10.1} {full:>12.1}");
    }
    Ok(())
}
