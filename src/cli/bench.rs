//! `fairylab bench perft`: single-thread perft speed, bulk-counted and with make/unmake at
//! every node, over fixed positions of every game.

use crate::Error;
use clap::{Args, ValueEnum};
use std::time::Instant;

#[derive(Clone, Copy, ValueEnum)]
pub enum BenchKind {
    Perft,
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
}

/// Nodes and best speed in M nodes/s over `repeat` runs.
fn best(repeat: u32, f: impl Fn() -> u64) -> (u64, f64) {
    let mut speed: f64 = 0.0;
    let mut nodes = 0;
    for _ in 0..repeat.max(1) {
        let t = Instant::now();
        nodes = f();
        speed = speed.max(nodes as f64 / t.elapsed().as_secs_f64() / 1e6);
    }
    (nodes, speed)
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
    let BenchKind::Perft = a.kind;
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
        let (nodes, bulk) = best(a.repeat, || b.perft(depth));
        let (_, full) = best(a.repeat, || b.perft_full(depth - 1));
        let label = if fen.is_empty() { opts.join(",") } else { format!("{} kiwipete", opts.join(",")) };
        println!("{name:<24} {label:<20} {depth:>5} {nodes:>14} {bulk:>10.1} {full:>12.1}");
    }
    Ok(())
}
