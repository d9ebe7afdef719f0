//! Criterion benchmarks of the three hot paths, so a change's effect on speed is measured
//! in one place: move generation (perft), evaluation and search, over every game.
//!
//! `cargo bench --bench engine` runs them all; `cargo bench --bench engine -- search`
//! one group. Node counts are fixed, so only the time per run varies between builds.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use fairylab::engine::Engine;
use fairylab::search::Limits;
use fairylab::Variant;

/// (variant, position after these moves from the start) for every game.
const GAMES: &[(&str, &[&str])] = &[
    ("chess", &["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"]),
    ("capablanca", &[]),
    ("noble-wings", &[]),
    ("bland-chess-46", &[]),
    ("flying-bombers-hangars", &[]),
    ("flying-bombers-grand", &[]),
];

fn boards() -> Vec<(&'static str, fairylab::Board)> {
    GAMES
        .iter()
        .map(|&(name, moves)| {
            let v = Variant::load(name, &[]).expect("built-in variant");
            let mut b = v.start_position();
            for m in moves {
                b = b.play(m).expect("legal bench move");
            }
            (name, b)
        })
        .collect()
}

fn perft(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    for (name, b) in boards() {
        let depth = if name == "bland-chess-46" { 5 } else { 3 };
        g.throughput(Throughput::Elements(b.perft_full(depth).unwrap()));
        g.bench_with_input(BenchmarkId::new("make-unmake", name), &b, |bench, b| {
            bench.iter(|| b.perft_full(depth).unwrap())
        });
    }
    g.finish();
}

fn evaluation(c: &mut Criterion) {
    let mut g = c.benchmark_group("evaluation");
    for (name, b) in boards() {
        let mut e = Engine::default_for(b.variant()).expect("default engine");
        e.set_board(&b, &[], &[]).expect("position");
        g.throughput(Throughput::Elements(1));
        g.bench_function(name, |bench| bench.iter(|| e.static_eval()));
    }
    g.finish();
}

fn search(c: &mut Criterion) {
    const NODES: u64 = 50_000;
    let mut g = c.benchmark_group("search");
    g.sample_size(10);
    for (name, b) in boards() {
        let mut e = Engine::default_for(b.variant()).expect("default engine");
        g.throughput(Throughput::Elements(NODES));
        g.bench_function(name, |bench| {
            bench.iter(|| {
                e.new_game();
                e.set_board(&b, &[], &[]).expect("position");
                e.go(&Limits::nodes(NODES), &mut |_| {}).nodes
            })
        });
    }
    g.finish();
}

criterion_group!(benches, perft, evaluation, search);
criterion_main!(benches);
