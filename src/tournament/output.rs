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

/// Reads the complete rows of a CSV file. Returns the rows, the length of the valid
/// prefix, and whether anything after it must be cut (a row interrupted mid-write).
fn read_rows<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<(Vec<T>, u64, bool), String> {
    let text = match std::fs::read(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((vec![], 0, false)),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    // Only rows ending in a newline are complete.
    let complete = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut rdr = csv::ReaderBuilder::new().has_headers(true).from_reader(&text[..complete]);
    let mut rows = Vec::new();
    let mut iter = rdr.deserialize::<T>();
    loop {
        let before = iter.reader().position().byte();
        match iter.next() {
            None => break,
            Some(Ok(r)) => rows.push(r),
            Some(Err(e)) => {
                eprintln!("warning: {}: dropping unreadable rows from byte {before}: {e}", path.display());
                return Ok((rows, before, true));
            }
        }
    }
    Ok((rows, complete as u64, complete < text.len()))
}

pub fn read_games(dir: &Path) -> Result<Vec<GameRow>, String> {
    Ok(read_rows::<GameRow>(&dir.join("games.csv"))?.0)
}

pub fn read_positions(dir: &Path) -> Result<Vec<PositionRow>, String> {
    Ok(read_rows::<PositionRow>(&dir.join("positions.csv"))?.0)
}

/// Appends rows to the run directory's files, flushing after every game.
pub struct Writer {
    games: csv::Writer<File>,
    positions: csv::Writer<File>,
    pgn: Option<File>,
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

impl Writer {
    /// Opens (or resumes) a run directory; returns the writer and the finished games.
    pub fn open(dir: &Path, pgn: Option<PathBuf>) -> Result<(Writer, Vec<GameRow>), String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let games_path = dir.join("games.csv");
        let (done, valid, cut) = read_rows::<GameRow>(&games_path)?;
        if cut {
            truncate(&games_path, valid)?;
        }
        // Keep only positions of finished games.
        let pos_path = dir.join("positions.csv");
        let (positions, _, _) = read_rows::<PositionRow>(&pos_path)?;
        let ids: BTreeSet<u64> = done.iter().map(|g| g.game_id).collect();
        let kept: Vec<&PositionRow> = positions.iter().filter(|p| ids.contains(&p.game_id)).collect();
        if kept.len() != positions.len() || pos_path.exists() {
            let mut w =
                csv::Writer::from_path(&pos_path).map_err(|e| format!("cannot write {}: {e}", pos_path.display()))?;
            for p in &kept {
                w.serialize(p).map_err(|e| e.to_string())?;
            }
            w.flush().map_err(|e| e.to_string())?;
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
        Ok((Writer { games, positions, pgn }, done))
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
