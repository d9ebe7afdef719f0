//! Result files of a run directory, written as games finish and read back for resume,
//! merging and the statistics tools.
//!
//! `games.csv`: one row per finished game (see [`GameRow`]).
//! `positions.csv`: every position of every game (see [`PositionRow`]): extended FEN, ply,
//! the mover's score from White's view (empty for players without scores), whether the
//! move played from it captured, and the game's result for White (1, 0.5, 0).
//! A game's positions are written before its `games.csv` row, so on resume positions of
//! games without a row are dropped and those games are played again.

use crate::games::GameRecord;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GameRow {
    pub game_id: u64,
    pub pair_id: u64,
    pub white: String,
    pub black: String,
    /// `1-0`, `1/2-1/2` or `0-1`.
    pub result: String,
    pub termination: String,
    pub plies: u32,
    pub white_material: String,
    pub black_material: String,
    pub seed: u64,
    pub opening: String,
    /// Moves in machine notation, space separated.
    pub moves: String,
    pub final_fen: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PositionRow {
    pub game_id: u64,
    pub ply: u32,
    pub fen: String,
    pub score_white: Option<i32>,
    pub capture: bool,
    pub result: f64,
}

impl GameRow {
    pub fn new(game_id: u64, pair_id: u64, seed: u64, white: &str, black: &str, r: &GameRecord) -> GameRow {
        GameRow {
            game_id,
            pair_id,
            white: white.into(),
            black: black.into(),
            result: r.outcome.pgn().into(),
            termination: r.termination.name().into(),
            plies: r.moves.len() as u32,
            white_material: r.final_material[0].clone(),
            black_material: r.final_material[1].clone(),
            seed,
            opening: r.start_fen.clone(),
            moves: r.moves.join(" "),
            final_fen: r.final_fen.clone(),
        }
    }

    /// White's score: 1, 0.5 or 0.
    pub fn white_score(&self) -> Option<f64> {
        crate::games::Outcome::parse(&self.result).map(|o| o.white_score())
    }
}

pub fn position_rows(game_id: u64, r: &GameRecord) -> Vec<PositionRow> {
    let result = r.outcome.white_score();
    r.samples
        .iter()
        .map(|s| PositionRow {
            game_id,
            ply: s.ply,
            fen: s.fen.clone(),
            score_white: s.score_white,
            capture: s.capture,
            result,
        })
        .collect()
}

/// The columns of `games.csv` and `positions.csv`, in order: the header line each file
/// starts with.
const GAME_COLUMNS: &str =
    "game_id,pair_id,white,black,result,termination,plies,white_material,black_material,seed,opening,moves,final_fen";
const POSITION_COLUMNS: &str = "game_id,ply,fen,score_white,capture,result";

/// A complete line of a CSV file that is not a row.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Damage {
    /// Line number from 1 (the header is line 1).
    line: usize,
    /// Rows read before it.
    after: usize,
    /// The game id the line starts with, when it starts with one.
    game_id: Option<u64>,
    reason: String,
}

/// What a CSV file of a run folder holds.
struct Rows<T> {
    rows: Vec<T>,
    /// Complete lines (ending in a newline) that are not rows.
    damaged: Vec<Damage>,
    /// Bytes up to the last newline: anything after it is a row interrupted mid-write.
    complete: u64,
    /// The interrupted row after `complete` (empty when the file ends in a newline).
    tail: Vec<u8>,
}

impl<T> Rows<T> {
    fn empty() -> Rows<T> {
        Rows { rows: vec![], damaged: vec![], complete: 0, tail: vec![] }
    }
}

/// The game id a (possibly damaged) line starts with.
fn leading_id(line: &[u8]) -> Option<u64> {
    let end = line.iter().position(|&b| b == b',')?;
    std::str::from_utf8(&line[..end]).ok()?.parse().ok()
}

/// One line as a CSV record. Lines are parsed one by one, not as one CSV stream, so a
/// stray quote damages its own line only instead of swallowing the rows after it.
fn record(line: &[u8]) -> Result<csv::ByteRecord, String> {
    if !line.contains(&b'"') {
        return Ok(line.split(|&b| b == b',').collect());
    }
    let mut rdr = csv::ReaderBuilder::new().has_headers(false).from_reader(line);
    let (mut rec, mut extra) = (csv::ByteRecord::new(), csv::ByteRecord::new());
    match (rdr.read_byte_record(&mut rec), rdr.read_byte_record(&mut extra)) {
        (Ok(true), Ok(false)) => Ok(rec),
        (Err(e), _) | (_, Err(e)) => Err(e.to_string()),
        _ => Err("not one CSV record".into()),
    }
}

/// Reads a run folder's CSV file: every row of every complete line, each damaged line
/// noted (not only the first: the rows after it are kept).
fn read_rows<T: for<'de> Deserialize<'de>>(path: &Path, columns: &str) -> Result<Rows<T>, String> {
    let text = match std::fs::read(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Rows::empty()),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let complete = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let width = columns.split(',').count();
    let mut out = Rows { complete: complete as u64, tail: text[complete..].to_vec(), ..Rows::empty() };
    for (i, line) in text[..complete].split(|&b| b == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() || (i == 0 && line == columns.as_bytes()) {
            continue;
        }
        let parsed = record(line).and_then(|r| {
            if r.len() != width {
                return Err(format!("{} fields, not {width}", r.len()));
            }
            r.deserialize::<T>(None).map_err(|e| e.to_string())
        });
        match parsed {
            Ok(row) => out.rows.push(row),
            Err(reason) => {
                let reason = if i == 0 { format!("not the header ({reason})") } else { reason };
                out.damaged.push(Damage { line: i + 1, after: out.rows.len(), game_id: leading_id(line), reason })
            }
        }
    }
    Ok(out)
}

/// The rows of a file that must be whole: a damaged line is an error naming it (an
/// interrupted last row is not: the run writing it may still be going).
fn read_whole<T: for<'de> Deserialize<'de>>(path: &Path, columns: &str) -> Result<Vec<T>, String> {
    let rows = read_rows::<T>(path, columns)?;
    match rows.damaged.first() {
        None => Ok(rows.rows),
        Some(d) => Err(format!(
            "{}: line {} is damaged ({}){}; resuming the run (its command again) drops damaged rows and replays \
             their games",
            path.display(),
            d.line,
            d.reason,
            match rows.damaged.len() {
                1 => String::new(),
                n => format!(", and {} more lines", n - 1),
            }
        )),
    }
}

pub fn read_games(dir: &Path) -> Result<Vec<GameRow>, String> {
    read_whole(&dir.join("games.csv"), GAME_COLUMNS)
}

pub fn read_positions(dir: &Path) -> Result<Vec<PositionRow>, String> {
    read_whole(&dir.join("positions.csv"), POSITION_COLUMNS)
}

/// Appends rows to the run directory's files, flushing after every game.
pub struct Writer {
    games: csv::Writer<File>,
    positions: csv::Writer<File>,
    pgn: Option<File>,
}

/// A run folder opened to go on: its writer, its finished games and what was repaired.
pub struct Resumed {
    pub writer: Writer,
    /// Finished games (each with all of its positions).
    pub done: Vec<GameRow>,
    /// What was wrong with the files and what was done about it, one line each.
    pub repairs: Vec<String>,
}

fn open_append(path: &Path) -> Result<(File, bool), String> {
    let exists = path.exists() && std::fs::metadata(path).map(|m| m.len() > 0).unwrap_or(false);
    let f = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    Ok((f, exists))
}

/// Rewrites a CSV file with these rows (header first).
fn rewrite<T: Serialize>(path: &Path, rows: &[T]) -> Result<(), String> {
    let fail = |e: csv::Error| format!("cannot write {}: {e}", path.display());
    let mut w = csv::Writer::from_path(path).map_err(fail)?;
    for r in rows {
        w.serialize(r).map_err(fail)?;
    }
    w.flush().map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// `path: dropped N damaged rows (lines ...)`.
fn dropped(path: &Path, damaged: &[Damage]) -> String {
    let mut l: Vec<String> = damaged.iter().take(5).map(|d| d.line.to_string()).collect();
    if damaged.len() > 5 {
        l.push("...".into());
    }
    format!("{}: dropped {} damaged rows (lines {})", path.display(), damaged.len(), l.join(", "))
}

/// The games whose positions are damaged. A damaged line belongs to the game it names,
/// else to the games of the rows around it (a game's positions are written together);
/// an interrupted last row to the game it names.
fn damaged_games(positions: &Rows<PositionRow>) -> BTreeSet<u64> {
    let mut games = BTreeSet::new();
    for d in &positions.damaged {
        match d.game_id {
            Some(id) => {
                games.insert(id);
            }
            None => {
                let around = [d.after.checked_sub(1), Some(d.after)];
                games.extend(around.into_iter().flatten().filter_map(|i| positions.rows.get(i)).map(|p| p.game_id));
            }
        }
    }
    games.extend(leading_id(&positions.tail));
    games
}

fn ids(ids: &BTreeSet<u64>) -> String {
    let mut l: Vec<String> = ids.iter().take(8).map(|i| i.to_string()).collect();
    if ids.len() > 8 {
        l.push("...".into());
    }
    l.join(", ")
}

impl Writer {
    /// Opens (or resumes) a run directory; returns the writer and the finished games.
    pub fn open(dir: &Path, pgn: Option<PathBuf>) -> Result<(Writer, Vec<GameRow>), String> {
        Writer::resume(dir, pgn).map(|r| (r.writer, r.done))
    }

    /// Opens (or resumes) a run directory, repairing its files: a row interrupted
    /// mid-write is cut; a damaged games row is dropped (its game is played again) and
    /// the rows after it kept; a game whose positions are damaged is played again, so
    /// every finished game keeps all of its positions.
    pub fn resume(dir: &Path, pgn: Option<PathBuf>) -> Result<Resumed, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let mut repairs = vec![];
        let games_path = dir.join("games.csv");
        let games = read_rows::<GameRow>(&games_path, GAME_COLUMNS)?;
        if !games.damaged.is_empty() {
            repairs.push(dropped(&games_path, &games.damaged) + "; their games are played again");
        }
        let pos_path = dir.join("positions.csv");
        let positions = read_rows::<PositionRow>(&pos_path, POSITION_COLUMNS)?;
        let finished: BTreeSet<u64> = games.rows.iter().map(|g| g.game_id).collect();
        let replay: BTreeSet<u64> = damaged_games(&positions).intersection(&finished).copied().collect();
        if !positions.damaged.is_empty() {
            repairs.push(dropped(&pos_path, &positions.damaged));
        }
        if !replay.is_empty() {
            repairs.push(format!(
                "{}: positions of finished games {} are damaged: those games are played again",
                pos_path.display(),
                ids(&replay)
            ));
        }
        let done: Vec<GameRow> = games.rows.into_iter().filter(|g| !replay.contains(&g.game_id)).collect();
        if !games.damaged.is_empty() || !replay.is_empty() {
            rewrite(&games_path, &done)?;
        } else if !games.tail.is_empty() {
            truncate(&games_path, games.complete)?;
        }
        // Keep only positions of finished games.
        let ids_done: BTreeSet<u64> = done.iter().map(|g| g.game_id).collect();
        let kept: Vec<&PositionRow> = positions.rows.iter().filter(|p| ids_done.contains(&p.game_id)).collect();
        let with_positions: BTreeSet<u64> = kept.iter().map(|p| p.game_id).collect();
        let bare = done.iter().filter(|g| g.plies > 0 && !with_positions.contains(&g.game_id)).count();
        if bare > 0 {
            repairs.push(format!(
                "{}: {bare} finished games have no positions (their games stay counted)",
                pos_path.display()
            ));
        }
        if pos_path.exists() {
            rewrite(&pos_path, &kept)?;
        }
        let (gf, g_exists) = open_append(&games_path)?;
        let (pf, p_exists) = open_append(&pos_path)?;
        let p_exists = p_exists && !kept.is_empty();
        let games = csv::WriterBuilder::new().has_headers(!g_exists).from_writer(gf);
        let positions = csv::WriterBuilder::new().has_headers(!p_exists).from_writer(pf);
        let pgn = match pgn {
            Some(p) => Some(open_append(&p)?.0),
            None => None,
        };
        Ok(Resumed { writer: Writer { games, positions, pgn }, done, repairs })
    }

    pub fn write(&mut self, row: &GameRow, positions: &[PositionRow], pgn: Option<&str>) -> Result<(), String> {
        for p in positions {
            self.positions.serialize(p).map_err(|e| e.to_string())?;
        }
        self.positions.flush().map_err(|e| e.to_string())?;
        self.games.serialize(row).map_err(|e| e.to_string())?;
        self.games.flush().map_err(|e| e.to_string())?;
        if let (Some(f), Some(text)) = (&mut self.pgn, pgn) {
            f.write_all(text.as_bytes()).and_then(|_| f.flush()).map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}

fn truncate(path: &Path, len: u64) -> Result<(), String> {
    let f = OpenOptions::new().write(true).open(path).map_err(|e| e.to_string())?;
    f.set_len(len).map_err(|e| format!("cannot truncate {}: {e}", path.display()))
}

/// Combines shard directories into one: games are keyed by id; the same id with different
/// contents is an error (the shards were not from one run).
pub fn merge(inputs: &[PathBuf], out: &Path) -> Result<(usize, usize), String> {
    let mut games: std::collections::BTreeMap<u64, GameRow> = Default::default();
    let mut positions: std::collections::BTreeMap<(u64, u32), PositionRow> = Default::default();
    let settings = super::manifest::merged(inputs).map_err(|e| e.to_string())?;
    for dir in inputs {
        for g in read_games(dir)? {
            if let Some(old) = games.get(&g.game_id) {
                if *old != g {
                    return Err(format!("game {} differs between shards ({})", g.game_id, dir.display()));
                }
            }
            games.insert(g.game_id, g);
        }
        for p in read_positions(dir)? {
            positions.insert((p.game_id, p.ply), p);
        }
    }
    std::fs::create_dir_all(out).map_err(|e| e.to_string())?;
    // Shards of one run merge into the folder an unsharded run writes, so the merged
    // folder resumes as that run.
    match settings {
        Some(super::manifest::Recorded::Manifest(m)) => m.write(out).map_err(|e| e.to_string())?,
        Some(super::manifest::Recorded::Legacy(text)) => {
            std::fs::write(out.join(super::manifest::FILE), text).map_err(|e| e.to_string())?
        }
        None => {}
    }
    let mut w = csv::Writer::from_path(out.join("games.csv")).map_err(|e| e.to_string())?;
    for g in games.values() {
        w.serialize(g).map_err(|e| e.to_string())?;
    }
    w.flush().map_err(|e| e.to_string())?;
    let mut w = csv::Writer::from_path(out.join("positions.csv")).map_err(|e| e.to_string())?;
    for p in positions.values().filter(|p| games.contains_key(&p.game_id)) {
        w.serialize(p).map_err(|e| e.to_string())?;
    }
    w.flush().map_err(|e| e.to_string())?;
    Ok((games.len(), positions.len()))
}

/// Merges whole trees of run directories (a report's or an imbalance study's folder, or
/// one tournament's): every folder holding `games.csv` in any input is merged with the
/// same folder of the other inputs into the same place under `out`. Inputs may overlap
/// (a folder merged before and copied to every machine): a game present twice must be
/// the same game. Returns (run folders, games, positions).
pub fn merge_tree(inputs: &[PathBuf], out: &Path) -> Result<(usize, usize, usize), String> {
    let mut runs: std::collections::BTreeSet<PathBuf> = Default::default();
    for dir in inputs {
        if !dir.is_dir() {
            return Err(format!("{} is not a directory", dir.display()));
        }
        collect_runs(dir, Path::new(""), &mut runs)?;
    }
    if runs.is_empty() {
        return Err("no run folders (with games.csv) in the inputs".into());
    }
    let (mut games, mut positions) = (0, 0);
    for rel in &runs {
        let parts: Vec<PathBuf> =
            inputs.iter().map(|d| d.join(rel)).filter(|d| d.join("games.csv").is_file()).collect();
        let (g, p) = merge(&parts, &out.join(rel)).map_err(|e| format!("{}: {e}", rel.display()))?;
        games += g;
        positions += p;
    }
    Ok((runs.len(), games, positions))
}

fn collect_runs(root: &Path, rel: &Path, runs: &mut std::collections::BTreeSet<PathBuf>) -> Result<(), String> {
    let dir = root.join(rel);
    if dir.join("games.csv").is_file() {
        runs.insert(rel.to_path_buf());
    }
    let entries = std::fs::read_dir(&dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for e in entries.flatten() {
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            collect_runs(root, &rel.join(e.file_name()), runs)?;
        }
    }
    Ok(())
}
