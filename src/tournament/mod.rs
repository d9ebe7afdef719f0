//! Self-play tournaments: game pairs with colours swapped, played in parallel on a rayon
//! pool. A game depends only on the seed, its opening and its players, never on
//! scheduling, so runs are reproducible at any concurrency and can be resumed or split
//! into shards that merge.

pub mod engines;
pub mod legacy;
pub mod manifest;
pub mod openings;
pub mod output;

use crate::games::{pgn, play_game, Adjudication, GameRecord, Player};
use crate::search::Limits;
use crate::stats::{GameResult, Pentanomial, Sprt, SprtResult, SprtStatus, Wdl};
use crate::{Error, Variant};
use engines::EngineSpec;
use manifest::{EngineEntry, Manifest};
use openings::OpeningConfig;
use output::{GameRow, Writer};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
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
    pub progress: bool,
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
fn signatures(s: &Settings) -> Result<Vec<(String, u64)>, Error> {
    let mut out = vec![];
    for e in &s.engines {
        if let Some(sig) = e.signature(s.variant)? {
            out.push((e.name.clone(), sig));
        }
    }
    Ok(out)
}

/// Parses a shard `i/n` (1 <= i <= n).
pub fn parse_shard(text: &str) -> Result<(u64, u64), Error> {
    let bad = || Error(format!("--shard '{text}' must look like i/n with 1 <= i <= n, e.g. 2/4"));
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

/// Parallel games: the number asked for (at least 1), or one per core.
pub fn concurrency(requested: Option<usize>) -> Result<usize, Error> {
    match requested {
        Some(0) => Err(Error("--concurrency must be at least 1".into())),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
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

/// The first encounter's results as the progress bar shows them.
fn progress_line(t: &Tally) -> String {
    let e0 = &t.encounters[0];
    let elo = e0.penta.elo().map(|e| format!("{:+.1} ± {:.1}", e.value, e.margin())).unwrap_or_else(|| "-".into());
    format!("{} vs {}: {}-{}-{}  Elo {elo}", e0.a, e0.b, e0.wdl.wins, e0.wdl.draws, e0.wdl.losses)
}

/// A bar over every game of the run (or shard), the games finished before this start
/// already counted, so the results it shows are those of the games it counts from the
/// first frame on (and none before the first game).
fn progress_bar(visible: bool, tally: &Tally, todo: usize) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new((tally.games + todo) as u64);
    if visible {
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  eta {eta}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
    } else {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    if tally.games > 0 {
        bar.set_position(tally.games as u64);
        // The resumed games took no time now: they must not speed up the estimate.
        bar.reset_eta();
        bar.set_message(progress_line(tally));
    }
    bar
}

struct Job {
    game_id: u64,
    pair_id: u64,
    white: usize,
    black: usize,
    round: u64,
}

/// Runs (or resumes) a tournament.
pub fn run(s: &Settings) -> Result<Summary, Error> {
    if s.engines.len() < 2 {
        return Err(Error("a tournament needs at least two engines".into()));
    }
    for e in &s.engines {
        e.validate(s.variant)?;
    }
    let encounters = s.encounters();
    let mut jobs = Vec::new();
    for (ei, &(a, b)) in encounters.iter().enumerate() {
        for r in 0..s.rounds {
            let pair_id = ei as u64 * s.rounds + r;
            if !in_shard(pair_id, s.shard) {
                continue;
            }
            jobs.push(Job { game_id: 2 * pair_id, pair_id, white: a, black: b, round: r });
            jobs.push(Job { game_id: 2 * pair_id + 1, pair_id, white: b, black: a, round: r });
        }
    }
    let mut tally = Tally {
        encounters: encounters
            .iter()
            .map(|&(a, b)| Encounter {
                a: s.engines[a].name.clone(),
                b: s.engines[b].name.clone(),
                ..Default::default()
            })
            .collect(),
        pairs: BTreeMap::new(),
        terminations: BTreeMap::new(),
        rounds: s.rounds.max(1),
        games: 0,
    };

    let mut writer = None;
    if let Some(dir) = &s.out {
        std::fs::create_dir_all(dir).map_err(|e| Error(format!("cannot create {}: {e}", dir.display())))?;
        let sigs = signatures(s)?;
        let opened =
            manifest::open(dir, &s.manifest(&sigs), &legacy::tournament_text(s, &sigs), encounters.len() == 1)?;
        if let (manifest::Opened::Extended { from_rounds }, true) = (opened, s.progress) {
            eprintln!("extending {} from {from_rounds} to {} rounds", dir.display(), s.rounds);
        }
        let (w, done) = Writer::open(dir, s.pgn.clone())?;
        let done_ids: std::collections::HashSet<u64> = done.iter().map(|g| g.game_id).collect();
        for g in &done {
            tally.add(g);
        }
        if !done.is_empty() && s.progress {
            eprintln!("resuming: {} games already finished in {}", done.len(), dir.display());
        }
        jobs.retain(|j| !done_ids.contains(&j.game_id));
        writer = Some(w);
    }
    let mut pgn_only = match (&s.out, &s.pgn) {
        (None, Some(p)) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| Error(format!("cannot open {}: {e}", p.display())))?,
        ),
        _ => None,
    };

    let bar = progress_bar(s.progress, &tally, jobs.len());
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Result<(usize, GameRecord), String>>();
    let workers = s.concurrency.max(1).min(jobs.len().max(1));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .build()
        .map_err(|e| Error(format!("cannot start {workers} threads: {e}")))?;
    let mut sprt_result = None;
    let mut failure: Option<String> = None;
    pool.in_place_scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, stop, jobs) = (&next, &stop, &jobs);
            scope.spawn(move |_| {
                let mut players: HashMap<usize, Box<dyn Player>> = HashMap::new();
                let mut openings_cache: HashMap<u64, crate::Board> = HashMap::new();
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = jobs.get(i) else { break };
                    let result = (|| -> Result<GameRecord, String> {
                        let start = match openings_cache.get(&job.round) {
                            Some(b) => *b,
                            None => {
                                let b = openings::opening(s.variant, &s.openings, job.round).map_err(|e| e.0)?;
                                openings_cache.insert(job.round, b);
                                b
                            }
                        };
                        for idx in [job.white, job.black] {
                            if let std::collections::hash_map::Entry::Vacant(v) = players.entry(idx) {
                                v.insert(s.engines[idx].player(s.variant, &s.limits, s.clock)?);
                            }
                        }
                        let mut w = players.remove(&job.white).unwrap();
                        let mut b = players.remove(&job.black).unwrap();
                        let rec = play_game(&start, w.as_mut(), b.as_mut(), &s.adjudication);
                        players.insert(job.white, w);
                        players.insert(job.black, b);
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
            let (i, rec) = match msg {
                Ok(x) => x,
                Err(e) => {
                    failure.get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                    continue;
                }
            };
            let job = &jobs[i];
            let (wn, bn) = (&s.engines[job.white].name, &s.engines[job.black].name);
            let row = GameRow::new(job.game_id, job.pair_id, s.openings.seed, wn, bn, &rec);
            if let Some(w) = writer.as_mut() {
                let positions = output::position_rows(job.game_id, &rec);
                let text =
                    s.pgn.as_ref().map(|_| pgn::write(&rec, s.variant.name(), wn, bn, &(job.pair_id + 1).to_string()));
                if let Err(e) = w.write(&row, &positions, text.as_deref()) {
                    failure.get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                }
            } else if let Some(f) = pgn_only.as_mut() {
                use std::io::Write;
                let text = pgn::write(&rec, s.variant.name(), wn, bn, &(job.pair_id + 1).to_string());
                if let Err(e) = f.write_all(text.as_bytes()) {
                    failure.get_or_insert(e.to_string());
                }
            }
            tally.add(&row);
            // Counted before its result is shown: no frame shows a result it does not count.
            bar.inc(1);
            bar.set_message(progress_line(&tally));
            // The approximate LLR misjudges tiny one-sided samples, so the test only acts
            // once a few pairs are in.
            if let Some(sprt) = s.sprt.as_ref().filter(|_| tally.prefix_penta().pairs() >= MIN_SPRT_PAIRS) {
                let r = sprt.test_pentanomial(&tally.prefix_penta());
                if r.status != SprtStatus::Continue && sprt_result.is_none() {
                    sprt_result = Some(r);
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    });
    bar.finish_and_clear();
    if let Some(e) = failure {
        return Err(Error(e));
    }
    let sprt = sprt_result.or_else(|| s.sprt.as_ref().map(|sp| sp.test_pentanomial(&tally.prefix_penta())));
    Ok(Summary { encounters: tally.encounters, games: tally.games, sprt, terminations: tally.terminations })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally() -> Tally {
        Tally {
            encounters: vec![Encounter { a: "A".into(), b: "B".into(), ..Default::default() }],
            pairs: BTreeMap::new(),
            terminations: BTreeMap::new(),
            rounds: 4,
            games: 0,
        }
    }

    fn row(game_id: u64, result: &str) -> GameRow {
        GameRow {
            game_id,
            pair_id: game_id / 2,
            white: "A".into(),
            black: "B".into(),
            result: result.into(),
            termination: "checkmate".into(),
            plies: 1,
            white_material: String::new(),
            black_material: String::new(),
            seed: 1,
            opening: String::new(),
            moves: String::new(),
            final_fen: String::new(),
        }
    }

    /// Wins, draws and losses shown in a progress message.
    fn shown(msg: &str) -> u64 {
        let wdl = msg.split(": ").nth(1).and_then(|r| r.split_whitespace().next()).unwrap_or("0-0-0");
        wdl.split('-').map(|n| n.parse::<u64>().unwrap()).sum()
    }

    #[test]
    fn the_progress_bar_shows_only_counted_results() {
        let mut t = tally();
        let bar = progress_bar(false, &t, 4);
        assert_eq!((bar.position(), bar.message().as_str()), (0, ""), "no result before the first game");
        t.add(&row(0, "1-0"));
        bar.inc(1);
        bar.set_message(progress_line(&t));
        assert_eq!((bar.position(), shown(&bar.message())), (1, 1));
        // A resumed run counts its finished games from the first frame.
        t.add(&row(1, "1/2-1/2"));
        t.add(&row(2, "0-1"));
        let bar = progress_bar(false, &t, 5);
        assert_eq!((bar.position(), bar.length(), shown(&bar.message())), (3, Some(8), 3));
    }
}
