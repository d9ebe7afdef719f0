//! Self-play for the value estimators: single games (not pairs) between copies of the
//! in-process engine, each from its own seeded opening, played in parallel and written as
//! a run directory (`games.csv`, `positions.csv`, `run.toml`) that `values regress --data`
//! and the tournament tools read.
//!
//! Why not the tournament runner: it plays every opening twice with the *engines*
//! swapping colours. With two identical engines at a fixed node count the second game is
//! a replay of the first, so half the CPU would buy nothing. Here a job fixes the opening
//! (including which side lacks which pieces) and each side's evaluation settings, and
//! whoever schedules the jobs decides how games pair up.
//!
//! A game depends only on its job and the plan (seed, nodes, ...), never on scheduling, so
//! a directory can be resumed: finished games are read back and only missing ones played.

use crate::engine::Engine;
use crate::eval::EngineConfig;
use crate::games::{play_game, Adjudication, EnginePlayer, GameRecord, Player};
use crate::search::Limits;
use crate::tournament::in_shard;
use crate::tournament::legacy;
use crate::tournament::manifest::{self, Manifest};
use crate::tournament::openings::{opening, OpeningConfig};
use crate::tournament::output::{position_rows, GameRow, Writer};
use crate::Variant;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// The opening index to pass for game (or pair) number `n`. The tournament's openings seed
/// their generator with `seed ^ index * golden-ratio constant`, and with a small seed (the
/// default 1) consecutive indices give the *same* random stream shifted by a few draws: an
/// opening whose first random line is rejected can then repeat a later index's opening.
/// Scrambling the index first gives unrelated streams.
pub fn opening_index(n: u64) -> u64 {
    crate::rng::Rng::new(n ^ 0x5851_F42D_4C95_7F2D).next_u64()
}

/// One game to play.
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    pub id: u64,
    /// Seeds the opening's random plies (`tournament::openings::opening`'s index; see
    /// [`opening_index`]).
    pub opening: u64,
    /// Pieces White and Black lack at the start (`Board::without` specs).
    pub imbalance: Option<(String, String)>,
    /// Evaluation weight settings of White's and of Black's engine.
    pub white: Vec<(String, f32)>,
    pub black: Vec<(String, f32)>,
}

/// What every game of a directory shares.
#[derive(Clone, Debug)]
pub struct Plan {
    pub variant: Variant,
    pub nodes: u64,
    pub random_plies: u32,
    pub max_drift: i32,
    pub seed: u64,
    pub adjudication: Adjudication,
    /// How the caller builds its jobs (comparison, weights, ...): recorded in `run.toml`
    /// so a directory is never resumed with different jobs.
    pub description: String,
    pub concurrency: usize,
    pub progress: bool,
    /// Start positions the jobs' opening indices pick from (index mod count); empty: the
    /// variant's start position.
    pub fens: Vec<String>,
    /// Play only the games of shard `i` of `n` (games `2k` and `2k + 1` form pair `k`).
    /// Not part of the fingerprint: a game is the same whichever machine plays it.
    pub shard: Option<(u64, u64)>,
}

impl Plan {
    /// The run's manifest, given the engine's signature.
    fn manifest(&self, signature: u64) -> Manifest {
        Manifest {
            version: manifest::VERSION,
            kind: "selfplay".into(),
            variant: self.variant.name().into(),
            options: self.variant.options().to_vec(),
            jobs: Some(self.description.clone()),
            openings: self.fens.len(),
            openings_digest: manifest::digest(&self.fens),
            random_plies: self.random_plies,
            max_drift: self.max_drift,
            seed: self.seed,
            nodes: Some(self.nodes),
            shard: self.shard.map(|(i, n)| format!("{i}/{n}")),
            signature: Some(format!("{signature:016x}")),
            adjudication: (&self.adjudication).into(),
            ..Default::default()
        }
    }

    fn openings(&self, imbalance: &Option<(String, String)>) -> OpeningConfig {
        OpeningConfig {
            fens: self.fens.clone(),
            random_plies: self.random_plies,
            imbalance: imbalance.clone(),
            max_drift: self.max_drift,
            seed: self.seed,
        }
    }
}

/// Default resign adjudication for value matches: a side whose own search sees it 10 pawns
/// down for 4 moves in a row loses. Weak engines at small node counts can take a hundred
/// moves to mate, or miss it; ending such games early saves time and scores them as what
/// the material says they are.
pub fn default_adjudication() -> Adjudication {
    Adjudication { resign_moves: 4, resign_score: 1000, ..Default::default() }
}

fn player(variant: Variant, settings: &[(String, f32)], nodes: u64, name: &str) -> Result<EnginePlayer, String> {
    let cfg = EngineConfig::for_variant(variant.name())?;
    let engine = Engine::new(variant, &cfg, settings, 8).map_err(|e| e.0)?;
    Ok(EnginePlayer::new(name, engine, Limits::nodes(nodes), None))
}

fn side_name(lacks: Option<&String>) -> String {
    match lacks {
        Some(s) if !s.is_empty() => format!("without {s}"),
        _ => "full".into(),
    }
}

/// Plays the jobs not yet in `dir` and returns White's score of every job's game, by id.
pub fn play(plan: &Plan, dir: &Path, jobs: &[Job]) -> Result<BTreeMap<u64, f64>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut engine =
        Engine::new(plan.variant, &EngineConfig::for_variant(plan.variant.name())?, &[], 1).map_err(|e| e.0)?;
    let signature = engine.signature().map_err(|e| e.0)?;
    manifest::open(dir, &plan.manifest(signature), &legacy::selfplay_text(plan, signature), false)
        .map_err(|e| e.to_string())?;
    let (mut writer, done) = Writer::open(dir, None)?;
    let mut scores: BTreeMap<u64, f64> = BTreeMap::new();
    for g in &done {
        if let Some(s) = g.white_score() {
            scores.insert(g.game_id, s);
        }
    }
    let todo: Vec<&Job> =
        jobs.iter().filter(|j| !scores.contains_key(&j.id) && in_shard(j.id / 2, plan.shard)).collect();
    if todo.is_empty() {
        return Ok(scores);
    }
    // Players are checked before any thread starts, so bad weight names fail cleanly.
    for j in todo.iter().take(1) {
        player(plan.variant, &j.white, plan.nodes, "check")?;
        player(plan.variant, &j.black, plan.nodes, "check")?;
    }
    let bar = indicatif::ProgressBar::new(todo.len() as u64);
    if plan.progress {
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  eta {eta}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_message(dir.display().to_string());
    } else {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let workers = plan.concurrency.max(1).min(todo.len());
    let (tx, rx) = mpsc::channel::<Result<(usize, GameRecord), String>>();
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, stop, todo) = (&next, &stop, &todo);
            scope.spawn(move || {
                // Engines are reused for jobs with the same settings (new_game resets them).
                let mut cache: HashMap<String, EnginePlayer> = HashMap::new();
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = todo.get(i) else { break };
                    let result = (|| -> Result<GameRecord, String> {
                        let start =
                            opening(plan.variant, &plan.openings(&job.imbalance), job.opening).map_err(|e| e.0)?;
                        if cache.len() > 16 {
                            cache.clear();
                        }
                        let mut get = |settings: &[(String, f32)], name: &str| -> Result<EnginePlayer, String> {
                            match cache.remove(&format!("{settings:?}")) {
                                Some(p) => Ok(p),
                                None => player(plan.variant, settings, plan.nodes, name),
                            }
                        };
                        let mut w = get(&job.white, "white")?;
                        let mut b = get(&job.black, "black")?;
                        let rec =
                            play_game(&start, &mut w as &mut dyn Player, &mut b as &mut dyn Player, &plan.adjudication);
                        cache.insert(format!("{:?}", job.white), w);
                        cache.insert(format!("{:?}", job.black), b);
                        Ok(rec)
                    })();
                    if tx.send(result.map(|r| (i, r))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for msg in rx.iter() {
            match msg {
                Ok((i, rec)) => {
                    let job = todo[i];
                    let lacks = job.imbalance.as_ref();
                    let (wn, bn) = (side_name(lacks.map(|x| &x.0)), side_name(lacks.map(|x| &x.1)));
                    let row = GameRow::new(job.id, job.id, plan.seed, &wn, &bn, &rec);
                    if let Err(e) = writer.write(&row, &position_rows(job.id, &rec), None) {
                        failure.get_or_insert(e);
                        stop.store(true, Ordering::Relaxed);
                    }
                    scores.insert(job.id, rec.outcome.white_score());
                    bar.inc(1);
                }
                Err(e) => {
                    failure.get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    });
    bar.finish_and_clear();
    match failure {
        Some(e) => Err(e),
        None => Ok(scores),
    }
}
