//! Self-play tournaments: game pairs with colours swapped, played in parallel by the
//! [`runner`]. A game depends only on the seed, its opening and its players, never on
//! scheduling, so runs are reproducible at any concurrency and can be resumed or split
//! into shards that merge.

pub mod book;
pub mod engines;
pub mod error;
pub mod legacy;
pub mod manifest;
pub mod openings;
pub mod output;
pub mod progress;
pub mod quiet;
pub mod runner;
pub mod schedule;

pub use error::RunError;
pub use progress::Progress;
pub use runner::concurrency;

use crate::games::{Adjudication, Player};
use crate::search::Limits;
use crate::stats::{GameResult, Pentanomial, Sprt, SprtResult, SprtStatus, Wdl};
use crate::Variant;
use engines::EngineSpec;
use manifest::{EngineEntry, Manifest};
use openings::OpeningConfig;
use output::GameRow;
use runner::Roster;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

/// Pairs before an SPRT may stop a run.
pub const MIN_SPRT_PAIRS: u64 = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every pair of engines plays (a match when there are two).
    RoundRobin,
    /// The first engine plays each of the others.
    Gauntlet,
}

#[derive(Clone, Debug)]
pub struct Settings {
    pub variant: Variant,
    pub engines: Vec<EngineSpec>,
    pub mode: Mode,
    /// Game pairs per encounter.
    pub rounds: u64,
    pub concurrency: usize,
    pub openings: OpeningConfig,
    pub limits: Limits,
    pub clock: Option<(Duration, Duration)>,
    pub adjudication: Adjudication,
    pub sprt: Option<Sprt>,
    pub out: Option<PathBuf>,
    pub pgn: Option<PathBuf>,
    /// (index from 1, count): play only pairs with `pair_id % count == index - 1`.
    pub shard: Option<(u64, u64)>,
    pub progress: Progress,
}

/// Results of one encounter, from engine `a`'s point of view.
#[derive(Clone, Debug, Default)]
pub struct Encounter {
    pub a: String,
    pub b: String,
    pub wdl: Wdl,
    pub penta: Pentanomial,
}

#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub encounters: Vec<Encounter>,
    pub games: usize,
    pub sprt: Option<SprtResult>,
    /// The pairs the SPRT judged: the longest run of finished pairs in schedule order,
    /// so that pairs finishing early on other threads cannot bias it. The encounter
    /// figures count every finished game.
    pub sprt_pairs: u64,
    pub terminations: BTreeMap<String, u64>,
}

impl Settings {
    pub fn encounters(&self) -> Vec<(usize, usize)> {
        let n = self.engines.len();
        match self.mode {
            Mode::RoundRobin => (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).collect(),
            Mode::Gauntlet => (1..n).map(|j| (0, j)).collect(),
        }
    }

    /// Everything that determines the games (not concurrency, output paths or progress),
    /// given the in-process engines' signatures by name.
    pub fn manifest(&self, signatures: &[(String, u64)]) -> Manifest {
        let o = &self.openings;
        let engines = self
            .engines
            .iter()
            .map(|e| {
                let mut entry = EngineEntry {
                    name: e.name.clone(),
                    nodes: e.limits.as_ref().and_then(|l| l.nodes),
                    depth: e.limits.as_ref().and_then(|l| l.depth),
                    signature: signatures.iter().find(|(n, _)| *n == e.name).map(|(_, s)| format!("{s:016x}")),
                    ..Default::default()
                };
                match &e.kind {
                    engines::EngineKind::Internal { config, settings, hash } => {
                        entry.config = config.clone();
                        entry.set = settings.iter().map(|(k, v)| format!("{k}={v}")).collect();
                        entry.hash = Some(*hash as u64);
                    }
                    engines::EngineKind::External { cmd, args, options } => {
                        entry.cmd = Some(cmd.clone());
                        entry.args = args.clone();
                        entry.uci_options = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
                    }
                }
                entry
            })
            .collect();
        Manifest {
            version: manifest::VERSION,
            kind: "tournament".into(),
            variant: self.variant.name().into(),
            options: self.variant.options().to_vec(),
            mode: Some(match self.mode {
                Mode::RoundRobin => "round-robin".into(),
                Mode::Gauntlet => "gauntlet".into(),
            }),
            rounds: Some(self.rounds),
            openings: o.fens.len(),
            openings_digest: manifest::digest(&o.fens),
            random_plies: o.random_plies,
            imbalance: o.imbalance.as_ref().map(|(w, b)| format!("{w}={b}")),
            max_drift: o.max_drift,
            opening_margin: o.margin,
            opening_draw: o.margin.filter(|_| o.random_plies > 0).map(|_| "distinct".into()),
            seed: o.seed,
            nodes: self.limits.nodes,
            depth: self.limits.depth,
            movetime_ms: self.limits.movetime.map(|t| t.as_millis() as u64),
            clock: self.clock.map(|(base, inc)| format!("{}+{}", base.as_secs_f64(), inc.as_secs_f64())),
            shard: self.shard.map(|(i, n)| format!("{i}/{n}")),
            adjudication: (&self.adjudication).into(),
            engines,
            ..Default::default()
        }
    }
}

/// Every in-process engine's signature (external ones have none), by engine name.
fn signatures(s: &Settings) -> Result<Vec<(String, u64)>, RunError> {
    let mut out = vec![];
    for e in &s.engines {
        if let Some(sig) = e.signature(s.variant).map_err(RunError::Player)? {
            out.push((e.name.clone(), sig));
        }
    }
    Ok(out)
}

/// Parses a shard `i/n` (1 <= i <= n).
pub fn parse_shard(text: &str) -> Result<(u64, u64), RunError> {
    let bad = || RunError::Invalid(format!("--shard '{text}' must look like i/n with 1 <= i <= n, e.g. 2/4"));
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (u64, u64) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if n == 0 || i == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// Whether pair `pair` belongs to `shard` (every pair, without one). Pairs go round-robin
/// so each shard gets an even share of every run, whatever its length.
pub fn in_shard(pair: u64, shard: Option<(u64, u64)>) -> bool {
    shard.is_none_or(|(i, n)| pair % n == i - 1)
}

/// A game score (1, 0.5, 0) as a result.
pub fn game_result(score: f64) -> GameResult {
    if score > 0.75 {
        GameResult::Win
    } else if score < 0.25 {
        GameResult::Loss
    } else {
        GameResult::Draw
    }
}

/// Accumulates results as games arrive, in any order.
struct Tally {
    encounters: Vec<Encounter>,
    /// Per pair: engine a's score in its two games (a white first).
    pairs: BTreeMap<u64, [Option<f64>; 2]>,
    terminations: BTreeMap<String, u64>,
    rounds: u64,
    games: usize,
}

impl Tally {
    fn add(&mut self, row: &GameRow) {
        let Some(white) = row.white_score() else { return };
        let e = (row.pair_id / self.rounds) as usize;
        let a_white = row.game_id.is_multiple_of(2);
        let a_score = if a_white { white } else { 1.0 - white };
        let enc = &mut self.encounters[e];
        enc.wdl.record(game_result(a_score));
        let slot = self.pairs.entry(row.pair_id).or_default();
        slot[(row.game_id % 2) as usize] = Some(a_score);
        if let [Some(x), Some(y)] = *slot {
            enc.penta.record(game_result(x), game_result(y));
        }
        *self.terminations.entry(row.termination.clone()).or_default() += 1;
        self.games += 1;
    }

    /// Pentanomial of encounter 0 over the unbroken prefix of finished pairs: the SPRT
    /// decides on it, so its decision does not depend on which games finished first.
    fn prefix_penta(&self) -> Pentanomial {
        let mut p = Pentanomial::default();
        for pair in 0..self.rounds {
            match self.pairs.get(&pair) {
                Some([Some(x), Some(y)]) => p.record(game_result(*x), game_result(*y)),
                _ => break,
            }
        }
        p
    }
}

/// The engines of a tournament as the runner's roster.
struct Engines<'a>(&'a Settings);

impl Roster for Engines<'_> {
    fn player(&self, i: usize) -> Result<Box<dyn Player>, RunError> {
        let s = self.0;
        s.engines[i].player(s.variant, &s.limits, s.clock).map_err(RunError::Player)
    }

    /// Every engine was validated before the run.
    fn check(&self, _: &runner::Game) -> Result<(), RunError> {
        Ok(())
    }
}

/// Results so far, and the SPRT's decision once it has one.
struct Referee<'a> {
    tally: Tally,
    sprt: Option<&'a Sprt>,
    decision: Option<(SprtResult, u64)>,
}

impl runner::Referee for Referee<'_> {
    fn record(&mut self, row: &GameRow) {
        self.tally.add(row);
    }

    fn decided(&mut self) -> bool {
        // The approximate LLR misjudges tiny one-sided samples, so the test only acts
        // once a few pairs are in.
        if let (None, Some(sprt)) = (&self.decision, self.sprt) {
            let penta = self.tally.prefix_penta();
            if penta.pairs() >= MIN_SPRT_PAIRS {
                let r = sprt.test_pentanomial(&penta);
                if r.status != SprtStatus::Continue {
                    self.decision = Some((r, penta.pairs()));
                }
            }
        }
        self.decision.is_some()
    }

    fn standing(&self) -> Option<&Encounter> {
        self.tally.encounters.first()
    }
}

/// Runs (or resumes) a tournament.
pub fn run(s: &Settings) -> Result<Summary, RunError> {
    if s.engines.len() < 2 {
        return Err(RunError::Invalid("a tournament needs at least two engines".into()));
    }
    for e in &s.engines {
        e.validate(s.variant).map_err(RunError::Player)?;
    }
    let encounters = s.encounters();
    let names: Vec<String> = s.engines.iter().map(|e| e.name.clone()).collect();
    let schedule = schedule::colour_swapped_pairs(&encounters, &names, s.rounds, &s.openings.imbalance, s.shard);
    let tally = Tally {
        encounters: encounters
            .iter()
            .map(|&(a, b)| Encounter { a: names[a].clone(), b: names[b].clone(), ..Default::default() })
            .collect(),
        pairs: BTreeMap::new(),
        terminations: BTreeMap::new(),
        rounds: s.rounds.max(1),
        games: 0,
    };
    let folder = match &s.out {
        Some(dir) => {
            let sigs = signatures(s)?;
            Some(runner::Folder {
                dir,
                manifest: s.manifest(&sigs),
                legacy: legacy::tournament_text(s, &sigs),
                extendable: encounters.len() == 1,
            })
        }
        None => None,
    };
    let run = runner::Run {
        variant: s.variant,
        openings: &s.openings,
        adjudication: &s.adjudication,
        concurrency: s.concurrency,
        folder,
        pgn: s.pgn.as_deref(),
        progress: &s.progress,
    };
    let mut referee = Referee { tally, sprt: s.sprt.as_ref(), decision: None };
    runner::play(&run, schedule, &Engines(s), &mut referee)?;
    let Referee { tally, decision, .. } = referee;
    let judged = decision.or_else(|| {
        let penta = tally.prefix_penta();
        s.sprt.as_ref().map(|sp| (sp.test_pentanomial(&penta), penta.pairs()))
    });
    Ok(Summary {
        encounters: tally.encounters,
        games: tally.games,
        sprt: judged.map(|j| j.0),
        sprt_pairs: judged.map_or(0, |j| j.1),
        terminations: tally.terminations,
    })
}
