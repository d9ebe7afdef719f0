//! The one game runner behind tournaments and the value estimators' self-play: it checks
//! the run folder against the run (`run.toml`), resumes it (finished games are read back
//! and not played again), plays the scheduled games on worker threads, writes each
//! finished game as it arrives and reports progress through [`Progress`].
//!
//! A game depends only on its schedule entry (opening, players) and the run's settings,
//! never on which worker plays it or when, so results do not depend on the concurrency
//! and an interrupted run resumes to the same games.

use super::error::RunError;
use super::manifest::{self, Manifest, Opened};
use super::openings::{self, opening, OpeningConfig};
use super::output::{position_rows, GameRow, Writer};
use super::progress::{Event, Progress, Status, Unit};
use super::Encounter;
use crate::games::{pgn, play_game, Adjudication, GameRecord, Player};
use crate::{Board, Variant};
use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// One game of a schedule.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    pub game_id: u64,
    pub pair_id: u64,
    /// White's and Black's player: indices into the run's [`Roster`].
    pub white: usize,
    pub black: usize,
    /// The opening's index (see [`opening`]).
    pub opening: u64,
    /// Pieces White and Black lack at the start.
    pub imbalance: Option<(String, String)>,
    /// White's and Black's names as `games.csv` and the PGN record them.
    pub names: (String, String),
}

/// The players a schedule refers to by index.
pub trait Roster: Sync {
    /// A fresh player for index `i` (a worker keeps it for later games).
    fn player(&self, i: usize) -> Result<Box<dyn Player>, RunError>;

    /// Checked once before any worker starts, so a bad engine fails cleanly.
    fn check(&self, first: &Game) -> Result<(), RunError> {
        self.player(first.white)?;
        self.player(first.black).map(|_| ())
    }
}

/// Keeps the score of a run as games finish (those found in the folder first).
pub trait Referee {
    fn record(&mut self, row: &GameRow);

    /// Whether the run can stop before its schedule is played (an SPRT decided).
    fn decided(&mut self) -> bool {
        false
    }

    /// The result the progress shows.
    fn standing(&self) -> Option<&Encounter> {
        None
    }
}

/// The run folder: where games go and the manifest they must match.
pub struct Folder<'a> {
    pub dir: &'a Path,
    pub manifest: Manifest,
    /// What a folder written before the manifest holds for this run.
    pub legacy: String,
    /// A two-engine match may be extended to more rounds.
    pub extendable: bool,
}

/// What every game of a run shares.
pub struct Run<'a> {
    pub variant: Variant,
    /// Start positions and random plies; each game brings its own imbalance.
    pub openings: &'a OpeningConfig,
    pub adjudication: &'a Adjudication,
    pub concurrency: usize,
    pub folder: Option<Folder<'a>>,
    /// PGN of every game, appended.
    pub pgn: Option<&'a Path>,
    pub progress: &'a Progress,
}

/// Parallel games: the number asked for (at least 1), or one per core.
pub fn concurrency(requested: Option<usize>) -> Result<usize, RunError> {
    match requested {
        Some(0) => Err(RunError::Invalid("--concurrency must be at least 1".into())),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// Workers drop the players they keep beyond this many: an in-process engine holds its
/// hash table, and a jittered corpus gives every game players of its own.
const KEPT_PLAYERS: usize = 16;

/// Start positions a worker keeps (a pair's two games share one).
const KEPT_OPENINGS: usize = 256;

/// Opens the folder (refusing another run's) and returns its finished games.
fn open_folder(run: &Run, f: &Folder) -> Result<(Writer, Vec<GameRow>), RunError> {
    let io = |reason: String| RunError::Io { path: f.dir.to_path_buf(), reason };
    std::fs::create_dir_all(f.dir).map_err(|e| io(format!("cannot create: {e}")))?;
    if let Opened::Extended { from_rounds } = manifest::open(f.dir, &f.manifest, &f.legacy, f.extendable)? {
        let rounds = f.manifest.rounds.unwrap_or(from_rounds);
        run.progress.emit(Event::Extending { dir: f.dir, from_rounds, rounds });
    }
    let resumed = Writer::resume(f.dir, run.pgn.map(Path::to_path_buf)).map_err(io)?;
    for r in &resumed.repairs {
        run.progress.warn(r);
    }
    if !resumed.done.is_empty() {
        run.progress.emit(Event::Resuming { dir: f.dir, games: resumed.done.len() });
    }
    Ok((resumed.writer, resumed.done))
}

/// Where finished games are written.
enum Sink {
    Folder(Box<Writer>),
    Pgn(File),
    Nowhere,
}

impl Sink {
    fn write(&mut self, run: &Run, game: &Game, row: &GameRow, rec: &GameRecord) -> Result<(), RunError> {
        let pgn_text =
            || pgn::write(rec, run.variant.name(), &game.names.0, &game.names.1, &(game.pair_id + 1).to_string());
        match self {
            Sink::Folder(w) => {
                let dir = run.folder.as_ref().map_or(Path::new("."), |f| f.dir);
                let text = run.pgn.map(|_| pgn_text());
                w.write(row, &position_rows(game.game_id, rec), text.as_deref())
                    .map_err(|reason| RunError::Io { path: dir.to_path_buf(), reason })
            }
            Sink::Pgn(f) => f.write_all(pgn_text().as_bytes()).map_err(|e| RunError::Io {
                path: run.pgn.unwrap_or(Path::new("")).to_path_buf(),
                reason: format!("cannot write: {e}"),
            }),
            Sink::Nowhere => Ok(()),
        }
    }
}

/// Plays the games of `schedule` that the folder does not hold yet, counting every
/// finished game (found or played) with `referee`.
pub fn play(run: &Run, schedule: Vec<Game>, roster: &dyn Roster, referee: &mut dyn Referee) -> Result<(), RunError> {
    if run.concurrency == 0 {
        return Err(RunError::Invalid("--concurrency must be at least 1".into()));
    }
    let (mut sink, done) = match (&run.folder, run.pgn) {
        (Some(f), _) => {
            let (w, done) = open_folder(run, f)?;
            (Sink::Folder(Box::new(w)), done)
        }
        (None, Some(p)) => {
            let f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| RunError::Io { path: p.to_path_buf(), reason: format!("cannot open: {e}") })?;
            (Sink::Pgn(f), vec![])
        }
        (None, None) => (Sink::Nowhere, vec![]),
    };
    let done_ids: HashSet<u64> = done.iter().map(|g| g.game_id).collect();
    for g in &done {
        referee.record(g);
    }
    let todo: Vec<Game> = schedule.into_iter().filter(|g| !done_ids.contains(&g.game_id)).collect();
    let Some(first) = todo.first() else { return Ok(()) };
    roster.check(first)?;
    let books = books(run, &todo)?;

    let label = run.folder.as_ref().map(|f| f.dir.display().to_string());
    let total = (done.len() + todo.len()) as u64;
    let mut finished = done.len() as u64;
    run.progress.emit(Event::Started {
        unit: Unit::Games,
        label: label.as_deref(),
        done: finished,
        total,
        standing: referee.standing(),
    });
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Result<(usize, GameRecord), RunError>>();
    let workers = run.concurrency.min(todo.len());
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, stop, todo) = (&next, &stop, &todo);
            let books = &books;
            scope.spawn(move || worker(run, roster, todo, books, next, stop, tx));
        }
        drop(tx);
        for msg in rx.iter() {
            let outcome = msg.and_then(|(i, rec)| {
                let game = &todo[i];
                let row =
                    GameRow::new(game.game_id, game.pair_id, run.openings.seed, &game.names.0, &game.names.1, &rec);
                sink.write(run, game, &row, &rec)?;
                referee.record(&row);
                Ok(())
            });
            match outcome {
                Ok(()) => {
                    finished += 1;
                    // Counted before its result is shown: no frame shows a result it does not count.
                    let status = referee.standing().map_or(Status::None, Status::Standing);
                    run.progress.emit(Event::Advanced { done: finished, status });
                    if referee.decided() {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                Err(e) => {
                    failure.get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    });
    run.progress.emit(Event::Finished);
    match failure {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The openings of a run whose openings come from books (see [`openings::book`]), by
/// imbalance: built once, before the games, since each opening depends on those before it.
type Books = HashMap<Option<(String, String)>, Vec<Board>>;

fn books(run: &Run, todo: &[Game]) -> Result<Books, RunError> {
    let mut counts: HashMap<Option<(String, String)>, u64> = HashMap::new();
    for g in todo {
        let c = counts.entry(g.imbalance.clone()).or_default();
        *c = (*c).max(g.opening + 1);
    }
    let mut books = Books::new();
    let mut config = run.openings.clone();
    for (imbalance, count) in counts {
        config.imbalance = imbalance.clone();
        if config.margin.is_some() && config.random_plies > 0 {
            run.progress.emit(Event::Note(&format!("drawing {count} distinct openings near the best moves")));
        }
        if let Some(book) = openings::book(run.variant, &config, count).map_err(|e| RunError::Opening(e.to_string()))? {
            books.insert(imbalance, book);
        }
    }
    Ok(books)
}

/// One worker: takes the next game until none is left or the run stops, keeping its
/// players (a player's `new_game` resets it) and openings for later games.
fn worker(
    run: &Run,
    roster: &dyn Roster,
    todo: &[Game],
    books: &Books,
    next: &AtomicUsize,
    stop: &AtomicBool,
    tx: mpsc::Sender<Result<(usize, GameRecord), RunError>>,
) {
    let mut players: HashMap<(usize, usize), Box<dyn Player>> = HashMap::new();
    let mut openings: HashMap<(u64, Option<(String, String)>), Board> = HashMap::new();
    let mut config = run.openings.clone();
    while !stop.load(Ordering::Relaxed) {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(game) = todo.get(i) else { break };
        let result = (|| -> Result<GameRecord, RunError> {
            let key = (game.opening, game.imbalance.clone());
            let booked = books.get(&game.imbalance).and_then(|b| b.get(game.opening as usize));
            let start = match booked.or_else(|| openings.get(&key)) {
                Some(b) => *b,
                None => {
                    config.imbalance = game.imbalance.clone();
                    let b =
                        opening(run.variant, &config, game.opening).map_err(|e| RunError::Opening(e.to_string()))?;
                    openings.insert(key, b);
                    b
                }
            };
            if players.len() > KEPT_PLAYERS {
                players.clear();
            }
            if openings.len() > KEPT_OPENINGS {
                openings.clear();
            }
            // A player against itself needs a second instance.
            let keys = [(game.white, 0), (game.black, usize::from(game.white == game.black))];
            for key in keys {
                if let std::collections::hash_map::Entry::Vacant(v) = players.entry(key) {
                    v.insert(roster.player(key.0)?);
                }
            }
            let mut w = players.remove(&keys[0]).expect("made above");
            let b = players.get_mut(&keys[1]).expect("made above");
            let rec = play_game(&start, w.as_mut(), b.as_mut(), run.adjudication);
            players.insert(keys[0], w);
            Ok(rec)
        })();
        if tx.send(result.map(|r| (i, r))).is_err() {
            break;
        }
    }
}
