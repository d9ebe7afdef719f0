//! The training loop: self-play with the current weights, Texel tuning on all positions so
//! far, an SPRT match of the tuned weights against the current ones, adoption only on H1.
//!
//! Everything lives in the output directory, one subdirectory per iteration:
//!
//! ```text
//! DIR/train.toml            the settings (a rerun with other settings is refused)
//! DIR/summary.csv           one line per finished iteration
//! DIR/current.toml          the weights in force after the last finished iteration
//! DIR/iter-001/start.toml   the weights the iteration started from
//! DIR/iter-001/games/       self-play run directory (games.csv, positions.csv)
//! DIR/iter-001/candidate.toml, tune.json   the tuned weights and the fit's report
//! DIR/iter-001/verify/      the SPRT match candidate vs start
//! DIR/iter-001/weights.toml the weights in force after the iteration
//! DIR/iter-001/result.json  written last: its presence marks the iteration finished
//! ```
//!
//! Tuning in iteration i uses the positions of iterations 1..=i plus any earlier run
//! directories given as extra data, split into training and validation game pairs the same
//! way in every iteration. A rerun skips finished iterations; an interrupted one
//! resumes inside its match directories (the tournament runner's own resume) and reuses a
//! finished fit. (A verification that its SPRT had already stopped may play a few more games
//! on resume before the test stops it again.)

use super::positions::{mix, Filter};
use super::run::{self, RunReport};
use super::texel::TuneOptions;
use crate::eval::{config, EngineConfig};
use crate::search::Limits;
use crate::stats::{Sprt, SprtStatus};
use crate::tournament::{self, engines::EngineSpec, openings::OpeningConfig, Mode, Progress, Settings};
use crate::{Error, Variant};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

#[derive(Clone, Debug)]
pub struct TrainSettings {
    pub variant: Variant,
    /// Engine config to start from (None: the variant's default engine).
    pub start: Option<String>,
    /// Earlier run directories whose positions join every tuning step.
    pub extra_data: Vec<PathBuf>,
    pub iterations: usize,
    /// Self-play games per iteration.
    pub games: u64,
    pub nodes: u64,
    /// Most games of a verification match (the SPRT usually stops earlier).
    pub verify_games: u64,
    pub sprt: Sprt,
    pub random_plies: u32,
    pub seed: u64,
    pub concurrency: usize,
    pub filter: Filter,
    pub validation: f64,
    /// Weights held fixed while tuning.
    pub fixed: Vec<String>,
    pub tune: TuneOptions,
    pub out: PathBuf,
    pub progress: Progress,
}

/// What one iteration produced (`result.json`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct IterationResult {
    pub iteration: usize,
    pub selfplay_games: usize,
    pub train_positions: usize,
    pub validation_positions: usize,
    pub k: f64,
    pub start_train_loss: f64,
    pub final_train_loss: f64,
    pub start_val_loss: Option<f64>,
    pub final_val_loss: Option<f64>,
    pub verify_games: usize,
    /// Candidate's Elo against the current weights (pentanomial), 95 % interval.
    pub elo: Option<f64>,
    pub elo_lower: Option<f64>,
    pub elo_upper: Option<f64>,
    pub llr: f64,
    pub llr_lower: f64,
    pub llr_upper: f64,
    /// `H1`, `H0` or `inconclusive`.
    pub sprt: String,
    pub accepted: bool,
}

fn io(path: &Path, e: std::io::Error) -> Error {
    Error::Tuning(format!("{}: {e}", path.display()))
}

fn write(path: &Path, text: &str) -> Result<(), Error> {
    // Write then rename, so an interrupted run never leaves a half-written marker file.
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).map_err(|e| io(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| io(path, e))
}

fn fingerprint(s: &TrainSettings) -> String {
    let t = &s.tune;
    format!(
        "variant = {:?}\noptions = {:?}\nstart = {:?}\nextra_data = {:?}\ngames = {}\nnodes = {}\nverify_games = {}\nsprt = \"elo0={} elo1={} alpha={} beta={} model={:?}\"\nrandom_plies = {}\nseed = {}\nfilter = {:?}\nvalidation = {}\nfixed = {:?}\nepochs = {}\nlr = {}\nbatch = {}\nl2 = {}\npatience = {}\n",
        s.variant.name(),
        s.variant.options(),
        s.start,
        s.extra_data,
        s.games,
        s.nodes,
        s.verify_games,
        s.sprt.elo0(),
        s.sprt.elo1(),
        s.sprt.alpha(),
        s.sprt.beta(),
        s.sprt.model(),
        s.random_plies,
        s.seed,
        s.filter,
        s.validation,
        s.fixed,
        t.epochs,
        t.lr,
        t.batch,
        t.l2,
        t.patience
    )
}

fn match_settings(s: &TrainSettings, engines: Vec<EngineSpec>, rounds: u64, seed: u64, out: PathBuf) -> Settings {
    Settings {
        variant: s.variant,
        engines,
        mode: Mode::RoundRobin,
        rounds,
        concurrency: s.concurrency,
        openings: OpeningConfig { random_plies: s.random_plies, seed, ..Default::default() },
        limits: Limits::nodes(s.nodes),
        clock: None,
        adjudication: Default::default(),
        sprt: None,
        out: Some(out),
        pgn: None,
        shard: None,
        progress: s.progress.clone(),
    }
}

fn spec(text: String) -> Result<EngineSpec, Error> {
    EngineSpec::parse(&text).map_err(Error::Tuning)
}

/// Runs (or resumes) the loop; returns the results of all iterations.
pub fn run(s: &TrainSettings) -> Result<Vec<IterationResult>, Error> {
    if s.iterations == 0 || s.games < 2 || s.verify_games < 2 || s.nodes == 0 {
        return Err(Error::Tuning("--iterations, --nodes must be positive and game counts at least 2".into()));
    }
    for d in &s.extra_data {
        super::positions::check_run_dir(d)?;
    }
    let start_cfg = match &s.start {
        Some(p) => EngineConfig::load(p).map_err(Error::Tuning)?,
        None => EngineConfig::for_variant(s.variant.name()).map_err(Error::Tuning)?,
    };
    let (layout, start_weights) = run::config_weights(s.variant, &start_cfg)?;
    // Fail on bad names before anything is written.
    run::weight_indices(&layout, &s.fixed)?;
    std::fs::create_dir_all(&s.out).map_err(|e| io(&s.out, e))?;
    // Engine specs name config files; an absolute directory keeps them valid from anywhere.
    let out = s.out.canonicalize().map_err(|e| io(&s.out, e))?;
    let fp = fingerprint(s);
    let fp_file = out.join("train.toml");
    match std::fs::read_to_string(&fp_file) {
        Ok(old) if old != fp => {
            return Err(Error::Tuning(format!(
                "{} holds a training run with other settings (see its train.toml); use the same settings to resume, or another --out",
                out.display()
            )))
        }
        Ok(_) => {}
        Err(_) => write(&fp_file, &fp)?,
    }
    let mut current = config::to_toml(s.variant.name(), "training start", &layout, &start_weights)
        + "\n"
        + &start_cfg.search.to_toml();
    let mut results = Vec::new();

    for it in 1..=s.iterations {
        let dir = out.join(format!("iter-{it:03}"));
        let result_file = dir.join("result.json");
        if let Ok(text) = std::fs::read_to_string(&result_file) {
            let r: IterationResult =
                serde_json::from_str(&text).map_err(|e| Error::Tuning(format!("{}: {e}", result_file.display())))?;
            current = std::fs::read_to_string(dir.join("weights.toml")).map_err(|e| io(&dir, e))?;
            s.progress.note(&format!(
                "iteration {it}: finished earlier ({})",
                if r.accepted { "adopted" } else { "rejected" }
            ));
            results.push(r);
            continue;
        }
        std::fs::create_dir_all(&dir).map_err(|e| io(&dir, e))?;
        let start_path = dir.join("start.toml");
        write(&start_path, &current)?;
        let start_str = start_path.display().to_string();

        // 1. Self-play. Two copies of one engine would repeat each game of a pair with
        // colours swapped move for move; a slightly larger node budget for the second copy
        // makes the pair's games differ.
        s.progress.note(&format!("iteration {it}: self-play, {} games at {} nodes", s.games, s.nodes));
        let engines = vec![
            spec(format!("name=A config={start_str}"))?,
            spec(format!("name=B config={start_str} nodes={}", crate::tournament::engines::twin_nodes(s.nodes)))?,
        ];
        let games_dir = dir.join("games");
        let selfplay = tournament::run(&match_settings(
            s,
            engines,
            s.games.div_ceil(2),
            mix(s.seed ^ (it as u64)),
            games_dir.clone(),
        ))?;

        // 2. Tune on all positions so far, from the current weights.
        let cand_path = dir.join("candidate.toml");
        let tune_path = dir.join("tune.json");
        let report: RunReport = match (std::fs::read_to_string(&tune_path), cand_path.exists()) {
            (Ok(text), true) => serde_json::from_str(&text)
                .map_err(|e| Error::Tuning(format!("{}: {e}; delete it to tune again", tune_path.display())))?,
            _ => {
                let mut dirs = s.extra_data.clone();
                dirs.extend((1..=it).map(|i| out.join(format!("iter-{i:03}")).join("games")));
                let cfg = EngineConfig::parse(&current, &start_str).map_err(Error::Tuning)?;
                let (_, weights) = run::config_weights(s.variant, &cfg)?;
                // One seed for every iteration: the train/validation split is drawn from it,
                // so a game pair held out once stays held out, and the validation loss never
                // scores positions an earlier iteration trained on. (Pairs keep their split
                // keys across iterations: their directories keep their places in `dirs`.)
                let opts = TuneOptions { seed: s.tune.seed, ..s.tune.clone() };
                let r = run::tune_runs(s.variant, &dirs, &weights, &s.fixed, &s.filter, s.validation, &opts)?;
                run::write_config(s.variant, &layout, &r, &start_cfg.search, &cand_path)?;
                let json = serde_json::to_string_pretty(&r).map_err(|e| Error::Tuning(e.to_string()))?;
                write(&tune_path, &json)?;
                r
            }
        };
        let t = &report.tune;
        s.progress.note(&format!(
            "iteration {it}: tuned on {} positions, K {:.3}, train loss {:.6} -> {:.6}, validation {} -> {}",
            t.train_positions,
            t.k,
            t.start_train_loss,
            t.final_train_loss,
            t.start_val_loss.map_or("-".into(), |v| format!("{v:.6}")),
            t.final_val_loss.map_or("-".into(), |v| format!("{v:.6}"))
        ));

        // 3. Verify: candidate against the current weights, SPRT.
        let engines = vec![
            spec(format!("name=candidate config={}", cand_path.display()))?,
            spec(format!("name=current config={start_str}"))?,
        ];
        let mut vs = match_settings(
            s,
            engines,
            s.verify_games.div_ceil(2),
            mix(s.seed ^ 0x7665_7269 ^ (it as u64)),
            dir.join("verify"),
        );
        vs.sprt = Some(s.sprt);
        let summary = tournament::run(&vs)?;
        let enc = &summary.encounters[0];
        let elo = enc.penta.elo();
        let sprt = summary.sprt.unwrap_or_else(|| s.sprt.test_pentanomial(&enc.penta));
        let accepted = sprt.status == SprtStatus::AcceptH1;
        let result = IterationResult {
            iteration: it,
            selfplay_games: selfplay.games,
            train_positions: t.train_positions,
            validation_positions: t.val_positions,
            k: t.k,
            start_train_loss: t.start_train_loss,
            final_train_loss: t.final_train_loss,
            start_val_loss: t.start_val_loss,
            final_val_loss: t.final_val_loss,
            verify_games: summary.games,
            elo: elo.map(|e| e.value),
            // An unbounded interval end is stored as absent: JSON cannot hold infinity.
            elo_lower: elo.map(|e| e.lower).filter(|x| x.is_finite()),
            elo_upper: elo.map(|e| e.upper).filter(|x| x.is_finite()),
            llr: sprt.llr,
            llr_lower: sprt.lower_bound,
            llr_upper: sprt.upper_bound,
            sprt: match sprt.status {
                SprtStatus::AcceptH1 => "H1",
                SprtStatus::AcceptH0 => "H0",
                SprtStatus::Continue => "inconclusive",
            }
            .into(),
            accepted,
        };
        s.progress.note(&format!(
            "iteration {it}: candidate vs current {} games, Elo {}, LLR {:.2} [{:.2}, {:.2}] -> {}",
            result.verify_games,
            elo.map_or("-".into(), |e| format!("{:+.1} [{:+.1}, {:+.1}]", e.value, e.lower, e.upper)),
            sprt.llr,
            sprt.lower_bound,
            sprt.upper_bound,
            if accepted { "adopted" } else { "rejected" }
        ));
        if accepted {
            current = std::fs::read_to_string(&cand_path).map_err(|e| io(&cand_path, e))?;
        }
        write(&dir.join("weights.toml"), &current)?;
        let json = serde_json::to_string_pretty(&result).map_err(|e| Error::Tuning(e.to_string()))?;
        write(&result_file, &json)?;
        results.push(result);
        write_summary(&out, &results)?;
    }
    write_summary(&out, &results)?;
    write(&out.join("current.toml"), &current)?;
    Ok(results)
}

fn write_summary(out: &Path, results: &[IterationResult]) -> Result<(), Error> {
    let opt = |x: Option<f64>| x.map_or(String::new(), |v| format!("{v:.6}"));
    let mut text = String::from(
        "iteration,selfplay_games,train_positions,validation_positions,k,start_train_loss,final_train_loss,start_val_loss,final_val_loss,verify_games,elo,elo_lower,elo_upper,llr,llr_lower,llr_upper,sprt,accepted\n",
    );
    for r in results {
        text += &format!(
            "{},{},{},{},{:.4},{:.6},{:.6},{},{},{},{},{},{},{:.3},{:.3},{:.3},{},{}\n",
            r.iteration,
            r.selfplay_games,
            r.train_positions,
            r.validation_positions,
            r.k,
            r.start_train_loss,
            r.final_train_loss,
            opt(r.start_val_loss),
            opt(r.final_val_loss),
            r.verify_games,
            r.elo.map_or(String::new(), |v| format!("{v:.2}")),
            r.elo_lower.map_or(String::new(), |v| format!("{v:.2}")),
            r.elo_upper.map_or(String::new(), |v| format!("{v:.2}")),
            r.llr,
            r.llr_lower,
            r.llr_upper,
            r.sprt,
            r.accepted
        );
    }
    write(&out.join("summary.csv"), &text)
}
