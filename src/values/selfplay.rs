//! Self-play for the value estimators: single games (not pairs) between copies of the
//! in-process engine, each from its own seeded opening, played in parallel and written as
//! a run directory (`games.csv`, `positions.csv`, `run.toml`) that `values regress --data`
//! and the tournament tools read.
//!
//! Why not the tournament's schedule: it plays every opening twice with the *engines*
//! swapping colours. With two identical engines at a fixed node count the second game is
//! a replay of the first, so half the CPU would buy nothing. Here a job fixes the opening
//! (including which side lacks which pieces) and each side's evaluation settings, and
//! whoever schedules the jobs decides how games pair up.
//!
//! A game depends only on its job and the plan (seed, nodes, ...), never on scheduling, so
//! a directory can be resumed: finished games are read back and only missing ones played.
//! The games are played by the tournaments' runner (`tournament::runner`), fed single
//! games instead of pairs.

use crate::engine::Engine;
use crate::eval::EngineConfig;
use crate::games::{Adjudication, EnginePlayer, Player};
use crate::search::Limits;
use crate::tournament::engines::{EngineKind, EngineSpec};
use crate::tournament::manifest::{self, Manifest};
use crate::tournament::openings::OpeningConfig;
use crate::tournament::output::GameRow;
use crate::tournament::runner::{self, Folder, Game, Referee, Roster, Run};
use crate::tournament::{in_shard, legacy, Progress, RunError};
use crate::values::ValuesError;
use crate::Variant;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

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
    pub progress: Progress,
    /// Start positions the jobs' opening indices pick from (index mod count); empty: the
    /// variant's start position.
    pub fens: Vec<String>,
    /// Play only the games of shard `i` of `n` (games `2k` and `2k + 1` form pair `k`).
    /// Not part of the fingerprint: a game is the same whichever machine plays it.
    pub shard: Option<(u64, u64)>,
    /// An external UCI engine (an `--engine` spec with `cmd=`) that plays every game
    /// instead of fairylab's, so an estimator's bias can be told from the engine's. Weight
    /// settings are fairylab's own: with a player, every job's must be empty.
    pub player: Option<EngineSpec>,
}

impl Plan {
    /// The run's manifest, given the engine's signature (`None`: an external player,
    /// whose spec is then part of the recorded jobs, so its games are never resumed by
    /// another engine).
    fn manifest(&self, signature: Option<u64>) -> Manifest {
        let jobs = match &self.player {
            Some(p) => format!("{}; player {} {:?}", self.description, p.name, p.kind),
            None => self.description.clone(),
        };
        Manifest {
            version: manifest::VERSION,
            kind: "selfplay".into(),
            variant: self.variant.name().into(),
            options: self.variant.options().to_vec(),
            jobs: Some(jobs),
            openings: self.fens.len(),
            openings_digest: manifest::digest(&self.fens),
            random_plies: self.random_plies,
            max_drift: self.max_drift,
            seed: self.seed,
            nodes: Some(self.nodes),
            shard: self.shard.map(|(i, n)| format!("{i}/{n}")),
            signature: signature.map(|s| format!("{s:016x}")),
            adjudication: (&self.adjudication).into(),
            ..Default::default()
        }
    }

    /// The openings every job shares (each job brings its own imbalance).
    fn openings(&self) -> OpeningConfig {
        OpeningConfig {
            fens: self.fens.clone(),
            random_plies: self.random_plies,
            imbalance: None,
            max_drift: self.max_drift,
            margin: None,
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

fn player(variant: Variant, settings: &[(String, f32)], nodes: u64, name: &str) -> Result<EnginePlayer, RunError> {
    let cfg = EngineConfig::for_variant(variant.name()).map_err(RunError::Player)?;
    let engine = Engine::new(variant, &cfg, settings, 8).map_err(|e| RunError::Player(e.to_string()))?;
    Ok(EnginePlayer::new(name, engine, Limits::nodes(nodes), None))
}

fn side_name(lacks: Option<&String>) -> String {
    match lacks {
        Some(s) if !s.is_empty() => format!("without {s}"),
        _ => "full".into(),
    }
}

/// The distinct weight settings of a plan's jobs: players are made and kept per entry.
struct Settings<'a> {
    plan: &'a Plan,
    entries: Vec<&'a [(String, f32)]>,
}

impl Roster for Settings<'_> {
    fn player(&self, i: usize) -> Result<Box<dyn Player>, RunError> {
        match &self.plan.player {
            Some(spec) => {
                spec.player(self.plan.variant, &Limits::nodes(self.plan.nodes), None).map_err(RunError::Player)
            }
            None => Ok(Box::new(player(self.plan.variant, self.entries[i], self.plan.nodes, "engine")?)),
        }
    }
}

/// An external player for the value studies: a `--engine` spec with `cmd=`. fairylab's own
/// engine is the studies' default player and takes its weights from `--engine-set`.
pub fn external_player(text: &str) -> Result<EngineSpec, ValuesError> {
    let spec = EngineSpec::parse(text).map_err(ValuesError::Engine)?;
    match spec.kind {
        EngineKind::External { .. } => Ok(spec),
        EngineKind::Internal { .. } => Err(ValuesError::Engine(format!(
            "--engine {}: the value studies take an external UCI engine here (cmd=...); fairylab's own \
             engine is the default player, with weights from --engine-set",
            spec.name
        ))),
    }
}

/// Single games, one per job of the plan's shard (games `2k` and `2k + 1` form pair `k`),
/// and the settings they refer to.
fn schedule<'a>(plan: &'a Plan, jobs: &'a [Job]) -> (Vec<Game>, Settings<'a>) {
    let mut settings = Settings { plan, entries: vec![] };
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut entry = |s: &'a [(String, f32)]| {
        *index.entry(format!("{s:?}")).or_insert_with(|| {
            settings.entries.push(s);
            settings.entries.len() - 1
        })
    };
    let games = jobs
        .iter()
        .filter(|j| in_shard(j.id / 2, plan.shard))
        .map(|j| {
            let lacks = j.imbalance.as_ref();
            Game {
                game_id: j.id,
                // Single games: each is its own pair.
                pair_id: j.id,
                white: entry(&j.white),
                black: entry(&j.black),
                opening: j.opening,
                imbalance: j.imbalance.clone(),
                names: (side_name(lacks.map(|x| &x.0)), side_name(lacks.map(|x| &x.1))),
            }
        })
        .collect();
    (games, settings)
}

/// White's score of every game found or played, by id.
struct Scores(BTreeMap<u64, f64>);

impl Referee for Scores {
    fn record(&mut self, row: &GameRow) {
        if let Some(s) = row.white_score() {
            self.0.insert(row.game_id, s);
        }
    }
}

/// Plays the jobs not yet in `dir` and returns White's score of every job's game, by id.
pub fn play(plan: &Plan, dir: &Path, jobs: &[Job]) -> Result<BTreeMap<u64, f64>, RunError> {
    let signature = match &plan.player {
        Some(p) => {
            if jobs.iter().any(|j| !j.white.is_empty() || !j.black.is_empty()) {
                return Err(RunError::Invalid(format!(
                    "{}: weight settings (neutral weights, jitter, --engine-set) change fairylab's own engine, \
                     not an external one",
                    p.name
                )));
            }
            None
        }
        None => {
            let cfg = EngineConfig::for_variant(plan.variant.name()).map_err(RunError::Player)?;
            let mut engine = Engine::new(plan.variant, &cfg, &[], 1).map_err(|e| RunError::Player(e.to_string()))?;
            Some(engine.signature().map_err(|e| RunError::Player(e.to_string()))?)
        }
    };
    let openings = plan.openings();
    let run = Run {
        variant: plan.variant,
        openings: &openings,
        adjudication: &plan.adjudication,
        concurrency: plan.concurrency,
        folder: Some(Folder {
            dir,
            manifest: plan.manifest(signature),
            legacy: legacy::selfplay_text(plan, signature.unwrap_or(0)),
            extendable: false,
        }),
        pgn: None,
        progress: &plan.progress,
    };
    let (games, settings) = schedule(plan, jobs);
    let mut scores = Scores(BTreeMap::new());
    runner::play(&run, games, &settings, &mut scores)?;
    Ok(scores.0)
}
