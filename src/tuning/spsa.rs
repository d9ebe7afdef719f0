//! SPSA over chosen evaluation weights, measured by games: each iteration plays game pairs
//! between `theta + c_k * flip` and `theta - c_k * flip` (flip a random ±1 per parameter)
//! and moves theta along `flip` by the result.
//!
//! Schedule as in fishtest's classic SPSA, parametrised by the values wanted at the end of
//! the run: with N iterations, `A = a_ratio * N`, per parameter
//! `c = c_end * N^gamma`, `a = r_end * c_end^2 * (A + N)^alpha`, and at iteration k (from 1)
//! `c_k = c / k^gamma`, `a_k = a / (A + k)^alpha`, `theta += a_k / c_k * (wins - losses) * flip`,
//! clamped to the parameter's range. So `c_end` is the final perturbation and `r_end` the
//! final step per unit result and per unit perturbation squared.
//!
//! With an opponent, theta+ and theta- instead each play it from the same openings, and
//! half the difference of their wins minus losses stands for `wins - losses`: gains
//! measured against one's own perturbed copy need not hold against another engine.
//!
//! The trajectory (`spsa.csv`) is written as iterations finish; with `out` set, a rerun with
//! the same settings continues after the last complete row. Iteration k's flips and
//! openings derive from the seed and k alone, so a resumed run equals an uninterrupted one.

use super::positions::mix;
use super::run;
use crate::eval::{config, EngineConfig};
use crate::rng::Rng;
use crate::search::Limits;
use crate::stats::Wdl;
use crate::tournament::progress::{Event, Status, Unit};
use crate::tournament::{self, engines::EngineSpec, openings::OpeningConfig, Mode, Progress, Settings};
use crate::{Error, Variant};
use std::io::Write;
use std::path::PathBuf;

/// A tuned parameter: a weight name (`value.F` sets both halves) and its range.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub lo: f64,
    pub hi: f64,
    /// Starting value (None: the engine config's value, clamped to the range).
    pub start: Option<f64>,
}

/// Parses `NAME=LO..HI` or `NAME=LO..HI@START`.
pub fn parse_param(text: &str) -> Result<Param, Error> {
    let bad = |why: &str| Error::Tuning(format!("--param '{text}': {why} (expected NAME=LO..HI or NAME=LO..HI@START)"));
    let (name, rest) = text.split_once('=').ok_or_else(|| bad("missing '='"))?;
    let (range, start) = match rest.split_once('@') {
        Some((r, s)) => (r, Some(s)),
        None => (rest, None),
    };
    let (lo, hi) = range.split_once("..").ok_or_else(|| bad("missing '..' in the range"))?;
    let num = |s: &str| -> Result<f64, Error> {
        s.trim().parse::<f64>().ok().filter(|v| v.is_finite()).ok_or_else(|| bad(&format!("'{s}' is not a number")))
    };
    let (lo, hi) = (num(lo)?, num(hi)?);
    if lo >= hi {
        return Err(bad("the range is empty (LO must be below HI)"));
    }
    let start = start.map(num).transpose()?;
    if let Some(s) = start {
        if !(lo..=hi).contains(&s) {
            return Err(bad("START lies outside the range"));
        }
    }
    let name = name.trim();
    if name.is_empty() {
        return Err(bad("empty name"));
    }
    Ok(Param { name: name.to_string(), lo, hi, start })
}

#[derive(Clone, Debug)]
pub struct SpsaSettings {
    pub variant: Variant,
    /// Engine config the parameters are applied to (None: the variant's default engine).
    pub base: Option<String>,
    /// With an opponent (`--opponent`, e.g. Fairy-Stockfish over UCI) theta+ and theta-
    /// each play it from the same openings, and the difference of their scores steers the
    /// update: tuning for strength against that engine instead of against a perturbed copy.
    pub opponent: Option<EngineSpec>,
    pub params: Vec<Param>,
    /// Total games (rounded up to whole iterations).
    pub games: u64,
    pub pairs_per_iteration: u64,
    pub nodes: u64,
    pub seed: u64,
    /// c_end as a fraction of each parameter's range.
    pub c_end: f64,
    pub r_end: f64,
    pub alpha: f64,
    pub gamma: f64,
    /// A as a fraction of the number of iterations.
    pub a_ratio: f64,
    pub random_plies: u32,
    pub concurrency: usize,
    pub out: Option<PathBuf>,
    pub progress: Progress,
}

/// One iteration: results of theta+ against theta- (or, with an opponent, of theta+ and
/// theta- together against it), the update's signal and the parameters after the update.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub iteration: usize,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Wins minus losses of theta+ against theta-; with an opponent, half the difference
    /// of their wins minus losses against it (the same scale: one opening that theta+
    /// wins and theta- loses counts 1).
    pub result: f64,
    pub theta: Vec<f64>,
}

#[derive(Clone, Debug)]
pub struct SpsaResult {
    pub names: Vec<String>,
    pub start: Vec<f64>,
    pub trajectory: Vec<Step>,
    pub iterations: usize,
}

impl SpsaResult {
    pub fn final_theta(&self) -> &[f64] {
        self.trajectory.last().map_or(&self.start, |s| &s.theta)
    }

    /// Mean and standard deviation of each parameter over the last `fraction` of the
    /// iterations: with game noise the final point wanders, the tail average less so.
    pub fn tail_mean(&self, fraction: f64) -> Vec<(f64, f64)> {
        let n = self.trajectory.len();
        let take = ((n as f64 * fraction).ceil() as usize).clamp(1.min(n), n);
        let tail = &self.trajectory[n - take..];
        (0..self.names.len())
            .map(|j| {
                if tail.is_empty() {
                    return (self.start[j], 0.0);
                }
                let m = tail.iter().map(|s| s.theta[j]).sum::<f64>() / tail.len() as f64;
                let v = tail.iter().map(|s| (s.theta[j] - m).powi(2)).sum::<f64>() / tail.len() as f64;
                (m, v.sqrt())
            })
            .collect()
    }
}

/// The gain schedule of one parameter.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    pub a: f64,
    pub c: f64,
    pub big_a: f64,
    pub alpha: f64,
    pub gamma: f64,
}

impl Schedule {
    pub fn new(iterations: usize, c_end: f64, r_end: f64, alpha: f64, gamma: f64, a_ratio: f64) -> Schedule {
        let n = iterations as f64;
        let big_a = a_ratio * n;
        Schedule { a: r_end * c_end * c_end * (big_a + n).powf(alpha), c: c_end * n.powf(gamma), big_a, alpha, gamma }
    }

    /// (a_k, c_k) at iteration k (from 1).
    pub fn at(&self, k: usize) -> (f64, f64) {
        let k = k as f64;
        (self.a / (self.big_a + k).powf(self.alpha), self.c / k.powf(self.gamma))
    }
}

/// The ±1 perturbation of iteration k.
pub fn flips(seed: u64, k: usize, n: usize) -> Vec<f64> {
    let mut rng = Rng::new(mix(seed ^ ((k as u64) << 24) ^ 0x666C_6970));
    (0..n).map(|_| if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 }).collect()
}

fn fingerprint(s: &SpsaSettings, start: &[f64], iterations: usize) -> String {
    format!(
        "variant = {:?}\noptions = {:?}\nbase = {:?}\nopponent = {:?}\nparams = {:?}\nstart = {:?}\niterations = {iterations}\npairs_per_iteration = {}\nnodes = {}\nseed = {}\nc_end = {}\nr_end = {}\nalpha = {}\ngamma = {}\na_ratio = {}\nrandom_plies = {}\n",
        s.variant.name(),
        s.variant.options(),
        s.base,
        s.opponent.as_ref().map(|o| format!("{o:?}")),
        s.params,
        start,
        s.pairs_per_iteration,
        s.nodes,
        s.seed,
        s.c_end,
        s.r_end,
        s.alpha,
        s.gamma,
        s.a_ratio,
        s.random_plies
    )
}

fn engine(name: &str, base: &Option<String>, params: &[Param], theta: &[f64]) -> Result<EngineSpec, Error> {
    let mut text = format!("name={name}");
    if let Some(b) = base {
        text += &format!(" config={b}");
    }
    for (p, v) in params.iter().zip(theta) {
        text += &format!(" set.{}={v:.4}", p.name);
    }
    EngineSpec::parse(&text).map_err(Error::Tuning)
}

/// Reads the complete rows of an earlier trajectory (iteration, wins, draws, losses, result,
/// one column per parameter).
fn read_trajectory(path: &std::path::Path, n: usize) -> Vec<Step> {
    let Ok(mut rdr) = csv::Reader::from_path(path) else { return vec![] };
    let mut steps = Vec::new();
    for rec in rdr.records() {
        let Ok(rec) = rec else { break };
        let nums: Option<Vec<f64>> = rec.iter().map(|f| f.parse::<f64>().ok()).collect();
        let Some(nums) = nums.filter(|v| v.len() == 5 + n) else { break };
        if nums[0] as usize != steps.len() + 1 {
            break;
        }
        steps.push(Step {
            iteration: nums[0] as usize,
            wins: nums[1] as u64,
            draws: nums[2] as u64,
            losses: nums[3] as u64,
            result: nums[4],
            theta: nums[5..].to_vec(),
        });
    }
    steps
}

fn csv_row(s: &Step) -> String {
    let mut row = format!("{},{},{},{},{}", s.iteration, s.wins, s.draws, s.losses, s.result);
    for v in &s.theta {
        row += &format!(",{v:.4}");
    }
    row + "\n"
}

/// Runs (or resumes) SPSA.
pub fn run(s: &SpsaSettings) -> Result<SpsaResult, Error> {
    if s.params.is_empty() {
        return Err(Error::Tuning("no --param to tune".into()));
    }
    if s.games == 0 || s.pairs_per_iteration == 0 || s.nodes == 0 {
        return Err(Error::Tuning("--games, --pairs-per-iteration and --nodes must be positive".into()));
    }
    let positive = [s.c_end, s.r_end, s.alpha, s.gamma];
    if positive.iter().any(|x| !(x.is_finite() && *x > 0.0)) || !(s.a_ratio.is_finite() && s.a_ratio >= 0.0) {
        return Err(Error::Tuning(
            "--c-end, --r-end, --alpha, --gamma must be positive and --a-ratio non-negative".into(),
        ));
    }
    let cfg = match &s.base {
        Some(p) => EngineConfig::load(p).map_err(Error::Tuning)?,
        None => EngineConfig::for_variant(s.variant.name()).map_err(Error::Tuning)?,
    };
    let (layout, weights) = run::config_weights(s.variant, &cfg)?;
    let mut start = Vec::new();
    for (i, p) in s.params.iter().enumerate() {
        if s.params[..i].iter().any(|q| q.name == p.name) {
            return Err(Error::Tuning(format!("--param {} given twice", p.name)));
        }
        let current = match p.name.strip_prefix("search.") {
            Some(param) => cfg.search.get(param).ok_or_else(|| {
                Error::Tuning(format!(
                    "unknown search parameter '{param}' (known: {})",
                    config::SearchConfig::NUMERIC.join(", ")
                ))
            })?,
            None => weights[run::weight_indices(&layout, std::slice::from_ref(&p.name))?[0]] as f64,
        };
        start.push(p.start.unwrap_or(current).clamp(p.lo, p.hi));
    }
    // A pair per engine and iteration: two engines against each other, or both against the opponent.
    let games_per_iteration = 2 * s.pairs_per_iteration * if s.opponent.is_some() { 2 } else { 1 };
    let iterations = s.games.div_ceil(games_per_iteration) as usize;
    let schedules: Vec<Schedule> = s
        .params
        .iter()
        .map(|p| Schedule::new(iterations, s.c_end * (p.hi - p.lo), s.r_end, s.alpha, s.gamma, s.a_ratio))
        .collect();

    let mut trajectory = Vec::new();
    let mut file = None;
    if let Some(dir) = &s.out {
        std::fs::create_dir_all(dir).map_err(|e| Error::Tuning(format!("cannot create {}: {e}", dir.display())))?;
        let fp = fingerprint(s, &start, iterations);
        let fp_file = dir.join("spsa.toml");
        let csv_path = dir.join("spsa.csv");
        match std::fs::read_to_string(&fp_file) {
            Ok(old) if old != fp => {
                return Err(Error::Tuning(format!(
                    "{} holds an SPSA run with other settings (see its spsa.toml); use the same settings to resume, or another --out",
                    dir.display()
                )))
            }
            Ok(_) => trajectory = read_trajectory(&csv_path, s.params.len()),
            Err(_) => std::fs::write(&fp_file, &fp).map_err(|e| Error::Tuning(format!("{}: {e}", fp_file.display())))?,
        }
        trajectory.truncate(iterations);
        // Rewrite the complete rows, dropping a row cut short by an interruption.
        let mut text = String::from("iteration,wins,draws,losses,result");
        for p in &s.params {
            text += &format!(",{}", p.name);
        }
        text += "\n";
        for st in &trajectory {
            text += &csv_row(st);
        }
        std::fs::write(&csv_path, text).map_err(|e| Error::Tuning(format!("{}: {e}", csv_path.display())))?;
        file = Some(
            std::fs::OpenOptions::new()
                .append(true)
                .open(&csv_path)
                .map_err(|e| Error::Tuning(format!("{}: {e}", csv_path.display())))?,
        );
        if !trajectory.is_empty() {
            s.progress.note(&format!("resuming SPSA after iteration {}", trajectory.len()));
        }
    }

    {
        let (a1, c1) = schedules[0].at(1);
        let (an, cn) = schedules[0].at(iterations);
        s.progress.note(&format!(
            "SPSA: {iterations} iterations of {} game pairs at {} nodes, seed {}; {}: c {c1:.2} -> {cn:.2}, a decisive game moves it {:.3} -> {:.3}",
            s.pairs_per_iteration,
            s.nodes,
            s.seed,
            s.params[0].name,
            a1 / c1,
            an / cn
        ));
    }
    s.progress.emit(Event::Started {
        unit: Unit::Iterations,
        label: None,
        done: trajectory.len() as u64,
        total: iterations as u64,
        standing: None,
    });
    let mut theta = trajectory.last().map_or(start.clone(), |st: &Step| st.theta.clone());
    for k in trajectory.len() + 1..=iterations {
        let flip = flips(s.seed, k, s.params.len());
        let mut plus = theta.clone();
        let mut minus = theta.clone();
        let mut ck = vec![0.0; s.params.len()];
        for (j, p) in s.params.iter().enumerate() {
            ck[j] = schedules[j].at(k).1;
            plus[j] = (theta[j] + ck[j] * flip[j]).clamp(p.lo, p.hi);
            minus[j] = (theta[j] - ck[j] * flip[j]).clamp(p.lo, p.hi);
        }
        let mut engines =
            vec![engine("plus", &s.base, &s.params, &plus)?, engine("minus", &s.base, &s.params, &minus)?];
        if let Some(o) = &s.opponent {
            engines.insert(0, o.clone());
        }
        let settings = Settings {
            variant: s.variant,
            engines,
            mode: if s.opponent.is_some() { Mode::Gauntlet } else { Mode::RoundRobin },
            rounds: s.pairs_per_iteration,
            concurrency: s.concurrency,
            openings: OpeningConfig {
                random_plies: s.random_plies,
                seed: mix(s.seed ^ ((k as u64) << 8) ^ 0x7370_7361),
                ..Default::default()
            },
            limits: Limits::nodes(s.nodes),
            clock: None,
            adjudication: Default::default(),
            sprt: None,
            out: None,
            pgn: None,
            shard: None,
            progress: Progress::silent(),
        };
        let summary = tournament::run(&settings)?;
        let (wdl, result) = match s.opponent {
            None => {
                let w = summary.encounters[0].wdl;
                (w, w.wins as f64 - w.losses as f64)
            }
            Some(_) => {
                // Encounters are (opponent, plus) and (opponent, minus), from the opponent's side.
                let (p, m) = (summary.encounters[0].wdl, summary.encounters[1].wdl);
                let net = |w: Wdl| w.losses as f64 - w.wins as f64;
                let both = Wdl { wins: p.losses + m.losses, draws: p.draws + m.draws, losses: p.wins + m.wins };
                (both, (net(p) - net(m)) / 2.0)
            }
        };
        for (j, p) in s.params.iter().enumerate() {
            let (ak, _) = schedules[j].at(k);
            theta[j] = (theta[j] + ak / ck[j] * result * flip[j]).clamp(p.lo, p.hi);
        }
        let step =
            Step { iteration: k, wins: wdl.wins, draws: wdl.draws, losses: wdl.losses, result, theta: theta.clone() };
        if let Some(f) = file.as_mut() {
            f.write_all(csv_row(&step).as_bytes()).map_err(|e| Error::Tuning(format!("spsa.csv: {e}")))?;
        }
        let shown: Vec<String> = s.params.iter().zip(&theta).map(|(p, v)| format!("{} {v:.1}", p.name)).collect();
        trajectory.push(step);
        s.progress.emit(Event::Advanced { done: trajectory.len() as u64, status: Status::Text(&shown.join("  ")) });
    }
    s.progress.emit(Event::Finished);
    if let Some(dir) = &s.out {
        let mut w = weights.clone();
        let mut search = cfg.search;
        for (p, v) in s.params.iter().zip(&theta) {
            match p.name.strip_prefix("search.") {
                Some(param) => search.set(param, *v).map_err(Error::Tuning)?,
                None => {
                    for i in run::weight_indices(&layout, std::slice::from_ref(&p.name))? {
                        w[i] = *v as f32;
                    }
                }
            }
        }
        let desc = format!("SPSA over {} iterations (seed {})", iterations, s.seed);
        let path = dir.join("final.toml");
        let text = config::to_toml(s.variant.name(), &desc, &layout, &w) + "\n" + &search.to_toml();
        std::fs::write(&path, text).map_err(|e| Error::Tuning(format!("{}: {e}", path.display())))?;
    }
    Ok(SpsaResult { names: s.params.iter().map(|p| p.name.clone()).collect(), start, trajectory, iterations })
}
