//! `fairylab tune` (Texel tuning on run directories), `fairylab train` (generate, tune,
//! verify, repeat) and `fairylab spsa` (match-based tuning of chosen weights).

use super::common::{VariantFlags, Workers};
use super::progress::progress;
use crate::eval::EngineConfig;
use crate::tournament::{engines::EngineSpec, Progress};
use crate::tuning::matrix::{Dataset, Extractor};
use crate::tuning::positions::{self, Filter};
use crate::tuning::run as pipeline;
use crate::tuning::spsa::{self, SpsaSettings};
use crate::tuning::texel::{self, TuneOptions};
use crate::tuning::train::{self, TrainSettings};
use crate::{Error, Variant};
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;

/// Optimiser settings shared by `tune` and `train`.
#[derive(Args, Clone, Debug)]
pub struct FitArgs {
    /// Passes over the training positions (fewer when validation stops improving).
    #[arg(long, default_value_t = 200)]
    pub epochs: usize,
    /// Adam step size in centipawns (decays linearly to a tenth).
    #[arg(long, default_value_t = 1.0)]
    pub lr: f64,
    /// Positions per mini-batch.
    #[arg(long, default_value_t = 4096)]
    pub batch: usize,
    /// L2 pull toward the starting weights: adds l2 * sum(((w - w0) / 100)^2) to the loss.
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
    /// Fraction of game pairs held out for validation and early stopping.
    #[arg(long, default_value_t = 0.1)]
    pub validation: f64,
    /// Epochs without a better validation loss before stopping (0: never stop early).
    #[arg(long, default_value_t = 10)]
    pub patience: usize,
    /// Weights held at their starting values (repeatable; `value.F` means both halves).
    /// Default: the pawn's endgame value, which keeps the units centipawns.
    #[arg(long = "fix")]
    pub fix: Vec<String>,
    /// Tune only weights whose names start with one of these prefixes (repeatable, e.g.
    /// `value.`); all others are held. Fewer free weights overfit less on small data.
    #[arg(long = "only")]
    pub only: Vec<String>,
    /// Keep positions next to a capture: the move played from them or the one that
    /// reached them captured (dropped by default: not quiet).
    #[arg(long)]
    pub keep_captures: bool,
    /// Keep positions with the side to move in check (dropped by default).
    #[arg(long)]
    pub keep_checks: bool,
    /// Drop positions before this ply of their game.
    #[arg(long, default_value_t = 0)]
    pub min_ply: u32,
    /// Share of each position's target taken from the recorded search score of the engine
    /// that played there (as a win expectation), the rest from the game result: 0 (default)
    /// fits results only, 1 the scores only. Useful with games of a stronger engine.
    #[arg(long, default_value_t = 0.0)]
    pub score_weight: f32,
    /// Keep only positions where this engine (as named in games.csv) is to move
    /// (repeatable: any of them): with --score-weight, a match's stronger engine then
    /// labels the positions the other engine's moves led to.
    #[arg(long, value_name = "ENGINE")]
    pub labels_from: Vec<String>,
}

impl FitArgs {
    fn filter(&self) -> Result<Filter, Error> {
        if !(0.0..=1.0).contains(&self.score_weight) {
            return Err(Error::Usage(format!("--score-weight {} must lie between 0 and 1", self.score_weight)));
        }
        Ok(Filter {
            skip_captures: !self.keep_captures,
            skip_checks: !self.keep_checks,
            min_ply: self.min_ply,
            score_weight: self.score_weight,
            movers: self.labels_from.clone(),
        })
    }

    fn options(&self, seed: u64, k: Option<f64>, progress: Progress) -> Result<TuneOptions, Error> {
        if self.epochs == 0 || self.batch == 0 {
            return Err(Error::Usage("--epochs and --batch must be positive".into()));
        }
        if !(self.lr.is_finite() && self.lr > 0.0) {
            return Err(Error::Usage(format!("--lr {} must be a positive number", self.lr)));
        }
        if !(self.l2.is_finite() && self.l2 >= 0.0) {
            return Err(Error::Usage(format!("--l2 {} must be a non-negative number", self.l2)));
        }
        if !(0.0..1.0).contains(&self.validation) {
            return Err(Error::Usage(format!("--validation {} must be in [0, 1)", self.validation)));
        }
        Ok(TuneOptions {
            epochs: self.epochs,
            lr: self.lr,
            batch: self.batch,
            l2: self.l2,
            seed,
            patience: self.patience,
            fixed: vec![],
            k,
            progress,
        })
    }

    fn fixed(&self, variant: Variant) -> Result<Vec<String>, Error> {
        let mut fixed: Vec<String> =
            if self.fix.is_empty() { pipeline::scale_weight(variant).into_iter().collect() } else { self.fix.clone() };
        if !self.only.is_empty() {
            let (layout, _) = pipeline::config_weights(variant, &EngineConfig::default())?;
            let mut matched = false;
            for name in &layout.names {
                if self.only.iter().any(|p| name.starts_with(p.as_str())) {
                    matched = true;
                } else if !fixed.contains(name) {
                    fixed.push(name.clone());
                }
            }
            if !matched {
                return Err(Error::Usage(format!(
                    "--only {}: no evaluation weight has such a prefix",
                    self.only.join(", ")
                )));
            }
        }
        Ok(fixed)
    }
}

#[derive(Args, Clone, Debug)]
pub struct TuneArgs {
    #[command(flatten)]
    pub game: VariantFlags,
    /// Run directories (match/tournament/train `--out`) whose positions.csv is used.
    #[arg(long, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Engine config to start from (default: the variant's engine config).
    #[arg(long)]
    pub engine: Option<String>,
    /// Where to write the tuned engine config (TOML).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Also write the fit's report (losses per epoch, K, data counts) as JSON.
    #[arg(long)]
    pub report: Option<PathBuf>,
    #[command(flatten)]
    pub fit: FitArgs,
    /// Use this sigmoid scale K instead of fitting it.
    #[arg(long)]
    pub k: Option<f64>,
    /// Seed of the validation split, the shuffle and the mini-batch order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Measure tuning speed instead: positions x epochs per second of the gradient passes
    /// (the --data positions, or random-playout positions without --data).
    #[arg(long)]
    pub bench: bool,
    /// Benchmark data size: the positions are repeated up to at least this many.
    #[arg(long, default_value_t = 2_000_000)]
    pub bench_positions: usize,
    #[arg(long)]
    pub quiet: bool,
}

fn start_config(variant: Variant, engine: &Option<String>) -> Result<EngineConfig, Error> {
    match engine {
        Some(p) => EngineConfig::load(p).map_err(Error::Engine),
        None => EngineConfig::for_variant(variant.name()).map_err(Error::Engine),
    }
}

/// `fairylab tune`.
pub fn run_tune(a: &TuneArgs) -> Result<(), Error> {
    let variant = a.game.load()?;
    let verbose = !a.quiet;
    // A bench times the tuner: it reports nothing while it runs.
    let opts = a.fit.options(a.seed, a.k, if a.bench { Progress::silent() } else { progress(a.quiet) })?;
    let cfg = start_config(variant, &a.engine)?;
    let (layout, start) = pipeline::config_weights(variant, &cfg)?;
    let fixed = a.fit.fixed(variant)?;
    pipeline::weight_indices(&layout, &fixed)?;
    if a.bench {
        return bench(a, variant, &start, &opts);
    }
    if a.data.is_empty() {
        return Err(Error::Usage("tune needs --data DIR (a run directory with positions.csv)".into()));
    }
    let out = a.out.as_ref().ok_or_else(|| Error::Usage("tune needs --out FILE for the tuned engine config".into()))?;
    if verbose {
        eprintln!(
            "seed {} (split, shuffle and batch order derive from it); {} of {} weights held",
            a.seed,
            fixed.len(),
            layout.len()
        );
    }
    let t0 = Instant::now();
    let report = pipeline::tune_runs(variant, &a.data, &start, &fixed, &a.fit.filter()?, a.fit.validation, &opts)?;
    pipeline::write_config(variant, &layout, &report, &cfg.search, out)?;
    if let Some(p) = &a.report {
        let json = serde_json::to_string_pretty(&report).map_err(|e| Error::Usage(e.to_string()))?;
        std::fs::write(p, json).map_err(|e| Error::Usage(format!("cannot write {}: {e}", p.display())))?;
    }
    let t = &report.tune;
    let val = |v: Option<f64>| v.map_or("-".to_string(), |x| format!("{x:.6}"));
    println!("positions {} train, {} validation", t.train_positions, t.val_positions);
    println!("K {:.4}", t.k);
    println!("train loss {:.6} -> {:.6}", t.start_train_loss, t.final_train_loss);
    println!("validation loss {} -> {}", val(t.start_val_loss), val(t.final_val_loss));
    println!(
        "epochs {} (best {}{}), {:.1} M positions x epochs/s, {:.1} s total",
        t.epochs.len(),
        t.best_epoch,
        if t.stopped_early { ", stopped early" } else { "" },
        t.speed() / 1e6,
        t0.elapsed().as_secs_f64()
    );
    // The largest moves, so a run can be judged at a glance.
    let mut moved: Vec<(f32, &str, f32, f32)> = layout
        .names
        .iter()
        .enumerate()
        .map(|(i, n)| ((t.weights[i] - start[i]).abs(), n.as_str(), start[i], t.weights[i]))
        .collect();
    moved.sort_by(|x, y| y.0.total_cmp(&x.0));
    for (_, name, from, to) in moved.iter().take(12) {
        println!("  {name:24} {from:8.1} -> {to:8.1}");
    }
    println!("wrote {}", out.display());
    Ok(())
}

/// Gradient-pass speed on at least `bench_positions` positions (best of three runs).
fn bench(a: &TuneArgs, variant: Variant, start: &[f32], opts: &TuneOptions) -> Result<(), Error> {
    let ex = Extractor::new(variant);
    let base = if a.data.is_empty() {
        let boards = positions::random_positions(variant, 50_000, 300, a.seed);
        let mut d = Dataset::from_boards(&ex, &boards, &vec![0.5; boards.len()])?;
        // Labels from the starting evaluation, so the gradient is not trivially zero.
        let evals = d.evals(ex.terms(), start);
        let labels: Vec<f32> = evals.iter().map(|e| 1.0 / (1.0 + 10f32.powf(-e / 400.0))).collect();
        d.set_results(&labels)?;
        eprintln!("bench on {} random-playout positions", d.len());
        d
    } else {
        let (train, _, rep) = pipeline::prepare(variant, &ex, &a.data, &a.fit.filter()?, 0.0, a.seed)?;
        eprintln!("bench on {} positions from {}", rep.train, rep.dirs.join(", "));
        train
    };
    let times = a.bench_positions.div_ceil(base.len()).max(1);
    let big = base.repeated(times);
    let epochs = 3;
    let o =
        TuneOptions { epochs, patience: 0, k: Some(a.k.unwrap_or(1.0)), progress: Progress::silent(), ..opts.clone() };
    let mut best = 0.0f64;
    for _ in 0..3 {
        let r = texel::tune(&big, &Dataset::default(), ex.terms(), start, &o)?;
        best = best.max(r.speed());
    }
    println!(
        "positions {}  terms/position {:.1}  weights {}  threads {}",
        big.len(),
        big.entries() as f64 / big.len() as f64,
        ex.terms().n,
        rayon::current_num_threads()
    );
    println!("tuning speed {:.2} M positions x epochs / s (best of 3 runs of {epochs} epochs)", best / 1e6);
    Ok(())
}

#[derive(Args, Clone, Debug)]
pub struct TrainArgs {
    #[command(flatten)]
    pub game: VariantFlags,
    #[arg(long)]
    pub iterations: usize,
    /// Self-play games per iteration.
    #[arg(long, default_value_t = 200)]
    pub games_per_iteration: u64,
    /// Nodes per move in self-play and verification.
    #[arg(long, default_value_t = 2000)]
    pub nodes: u64,
    /// Most games of each verification match (the SPRT usually decides earlier).
    #[arg(long, default_value_t = 400)]
    pub verify_games: u64,
    /// SPRT of the verification: `elo0=0 elo1=10 alpha=0.05 beta=0.05 model=normalized|logistic`.
    #[arg(long, default_value = "elo0=0 elo1=10 alpha=0.05 beta=0.05 model=normalized")]
    pub sprt: String,
    /// Engine config to start from (default: the variant's engine config).
    #[arg(long)]
    pub engine: Option<String>,
    /// Earlier run directories whose positions join every tuning step.
    #[arg(long, num_args = 1..)]
    pub data: Vec<PathBuf>,
    #[arg(long, default_value_t = 8)]
    pub random_plies: u32,
    /// Output directory; rerunning with the same settings resumes.
    #[arg(long)]
    pub out: PathBuf,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub workers: Workers,
    #[command(flatten)]
    pub fit: FitArgs,
}

/// `fairylab train`.
pub fn run_train(a: &TrainArgs) -> Result<(), Error> {
    if a.nodes == 0 {
        return Err(Error::Usage("--nodes must be at least 1".into()));
    }
    let variant = a.game.load()?;
    let sprt = super::tournament::parse_sprt(&a.sprt)?;
    let settings = TrainSettings {
        variant,
        start: a.engine.clone(),
        extra_data: a.data.clone(),
        iterations: a.iterations,
        games: a.games_per_iteration,
        nodes: a.nodes,
        verify_games: a.verify_games,
        sprt,
        random_plies: a.random_plies,
        seed: a.seed,
        concurrency: a.workers.threads()?,
        filter: a.fit.filter()?,
        validation: a.fit.validation,
        fixed: a.fit.fixed(variant)?,
        tune: a.fit.options(a.seed, None, progress(a.workers.quiet))?,
        out: a.out.clone(),
        progress: progress(a.workers.quiet),
    };
    if !a.workers.quiet {
        eprintln!("seed {} (openings, splits and batch orders derive from it)", a.seed);
    }
    let results = train::run(&settings)?;
    let opt = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:.5}"));
    println!(
        "iter  positions  K      val loss start -> tuned   Elo (95 %)                 LLR     SPRT          adopted"
    );
    for r in &results {
        let elo = match (r.elo, r.elo_lower, r.elo_upper) {
            (Some(e), Some(l), Some(u)) => format!("{e:+7.1} [{l:+7.1}, {u:+7.1}]"),
            _ => "-".into(),
        };
        println!(
            "{:4}  {:9}  {:.3}  {} -> {}   {:26} {:+6.2}  {:12}  {}",
            r.iteration,
            r.train_positions + r.validation_positions,
            r.k,
            opt(r.start_val_loss),
            opt(r.final_val_loss),
            elo,
            r.llr,
            format!("{} ({}g)", r.sprt, r.verify_games),
            if r.accepted { "yes" } else { "no" }
        );
    }
    println!("weights in force: {}", a.out.join("current.toml").display());
    Ok(())
}

#[derive(Args, Clone, Debug)]
pub struct SpsaArgs {
    #[command(flatten)]
    pub game: VariantFlags,
    /// Weight to tune with its range: `value.F=300..800` (optionally `@START`); repeatable.
    #[arg(long = "param", required = true)]
    pub params: Vec<String>,
    /// Total games (two per game pair).
    #[arg(long)]
    pub games: u64,
    #[arg(long, default_value_t = 2000)]
    pub nodes: u64,
    /// Game pairs per SPSA iteration (played in parallel, summed into one update).
    #[arg(long, default_value_t = 2)]
    pub pairs_per_iteration: u64,
    /// Engine config the parameters are applied to (default: the variant's engine config).
    #[arg(long)]
    pub engine: Option<String>,
    /// An engine both perturbed engines play instead of each other, as for `match
    /// --engine` (`"name=fs cmd=PATH option.UCI_Variant=chess"`): tunes for strength
    /// against it.
    #[arg(long)]
    pub opponent: Option<String>,
    /// Final perturbation c_end, as a fraction of each parameter's range.
    #[arg(long, default_value_t = 0.05)]
    pub c_end: f64,
    /// Final learning rate r_end (fishtest's default; raise it for short runs).
    #[arg(long, default_value_t = 0.002)]
    pub r_end: f64,
    #[arg(long, default_value_t = 0.602)]
    pub alpha: f64,
    #[arg(long, default_value_t = 0.101)]
    pub gamma: f64,
    /// A as a fraction of the number of iterations.
    #[arg(long, default_value_t = 0.1)]
    pub a_ratio: f64,
    #[arg(long, default_value_t = 8)]
    pub random_plies: u32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub workers: Workers,
    /// Directory for spsa.csv (trajectory), spsa.toml (settings) and final.toml; resumable.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// `fairylab spsa`.
pub fn run_spsa(a: &SpsaArgs) -> Result<(), Error> {
    if a.nodes == 0 {
        return Err(Error::Usage("--nodes must be at least 1".into()));
    }
    let variant = a.game.load()?;
    let params = a.params.iter().map(|p| spsa::parse_param(p)).collect::<Result<Vec<_>, _>>()?;
    let settings = SpsaSettings {
        variant,
        base: a.engine.clone(),
        opponent: a
            .opponent
            .as_deref()
            .map(|o| EngineSpec::parse(o).map_err(|e| Error::Usage(format!("--opponent: {e}"))))
            .transpose()?,
        params,
        games: a.games,
        pairs_per_iteration: a.pairs_per_iteration,
        nodes: a.nodes,
        seed: a.seed,
        c_end: a.c_end,
        r_end: a.r_end,
        alpha: a.alpha,
        gamma: a.gamma,
        a_ratio: a.a_ratio,
        random_plies: a.random_plies,
        concurrency: a.workers.threads()?,
        out: a.out.clone(),
        progress: progress(a.workers.quiet),
    };
    if !a.workers.quiet {
        eprintln!("seed {} (flips and openings derive from it)", a.seed);
    }
    let r = spsa::run(&settings)?;
    println!("iteration,{}", r.names.join(","));
    let fmt = |t: &[f64]| t.iter().map(|v| format!("{v:.1}")).collect::<Vec<_>>().join(",");
    println!("0,{}", fmt(&r.start));
    // About twenty lines of trajectory on the terminal; the CSV has every iteration.
    let every = r.trajectory.len().div_ceil(20).max(1);
    for st in &r.trajectory {
        if st.iteration % every == 0 || st.iteration == r.iterations {
            println!("{},{}", st.iteration, fmt(&st.theta));
        }
    }
    let games: u64 = r.trajectory.iter().map(|s| s.wins + s.draws + s.losses).sum();
    println!("final after {} iterations ({games} games):", r.iterations);
    for (n, v) in r.names.iter().zip(r.final_theta()) {
        println!("  {n} = {v:.1}");
    }
    println!("mean over the last quarter of the iterations (± standard deviation):");
    for (n, (m, sd)) in r.names.iter().zip(r.tail_mean(0.25)) {
        println!("  {n} = {m:.1} ± {sd:.1}");
    }
    if let Some(d) = &a.out {
        let mut charts = vec![];
        for (j, n) in r.names.iter().enumerate() {
            let mut pts = vec![(0.0, r.start[j])];
            pts.extend(r.trajectory.iter().map(|s| (s.iteration as f64, s.theta[j])));
            let title = format!("SPSA {n} ({}, seed {}, {} nodes)", a.game.variant, a.seed, a.nodes);
            let chart = d.join(format!("trajectory-{n}.svg"));
            std::fs::write(&chart, crate::report::svg::lines(&title, &[(n.clone(), pts)], "iteration", n))
                .map_err(|e| Error::Usage(format!("{}: {e}", chart.display())))?;
            charts.push(chart.display().to_string());
        }
        println!(
            "trajectory {} (charts {}), config {}",
            d.join("spsa.csv").display(),
            charts.join(", "),
            d.join("final.toml").display()
        );
    }
    Ok(())
}
