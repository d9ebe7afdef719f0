//! Training positions: read from tournament run directories (`positions.csv`), filtered to
//! quiet ones, split into training and validation sets by game pair, shuffled by a seed.
//! Also random-playout positions for tests and benchmarks that need no games.

use crate::rng::Rng;
use crate::tournament::{output, quiet};
use crate::{Board, Error, Variant};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A position with the result of the game it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelledPosition {
    pub fen: String,
    /// White's score in the game: 1, 0.5, 0.
    pub result: f32,
    /// The split key: positions with the same key (one game pair of one run directory)
    /// land on the same side of the train/validation split.
    pub group: u64,
}

/// Which recorded positions are used.
///
/// Texel tuning compares the static evaluation with the game result, so it wants positions
/// the static evaluation can judge: quiet ones (`tournament::quiet`, the piece-value
/// regression's definition too). Positions next to a capture are dropped here, positions
/// with the side to move in check at feature extraction.
#[derive(Clone, Debug)]
pub struct Filter {
    /// Drop positions whose material is not settled (a capture just made or played next).
    pub skip_captures: bool,
    pub skip_checks: bool,
    /// Positions before this ply of the recorded game are dropped (0 keeps all).
    pub min_ply: u32,
    /// Share of the target taken from the recorded search score of the engine that played
    /// the move, as a win expectation (`1 / (1 + 10^(-score / 400))`); the rest is the game
    /// result. A strong engine's score is a far less noisy label than one game's result, so
    /// its games teach more per position (rows without a score keep the result).
    pub score_weight: f32,
    /// When not empty, only positions where one of these engines (names in `games.csv`)
    /// is to move. With `score_weight` their scores label them, and they are the positions
    /// their opponents' moves led to: a match between a player and a stronger engine
    /// becomes the stronger engine's judgement of the positions the player chooses.
    pub movers: Vec<String>,
}

impl Default for Filter {
    fn default() -> Self {
        Filter { skip_captures: true, skip_checks: true, min_ply: 0, score_weight: 0.0, movers: vec![] }
    }
}

/// Counts from loading, for the report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LoadStats {
    pub dirs: usize,
    pub rows: usize,
    /// Positions next to a capture.
    pub dropped_captures: usize,
    pub dropped_early: usize,
    /// Positions with an engine not in `Filter::movers` to move.
    pub dropped_mover: usize,
}

/// splitmix64's finaliser: spreads keys so split decisions look independent.
pub(crate) fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Reads the positions of one or more run directories. Errors name the directory: missing,
/// not a run directory, unreadable, or (together) without any usable position.
pub fn load_runs(dirs: &[PathBuf], filter: &Filter) -> Result<(Vec<LabelledPosition>, LoadStats), Error> {
    if dirs.is_empty() {
        return Err(Error::Tuning("no data directory given (--data DIR)".into()));
    }
    let mut all = Vec::new();
    let mut stats = LoadStats { dirs: dirs.len(), ..Default::default() };
    for (d, dir) in dirs.iter().enumerate() {
        check_run_dir(dir)?;
        let rows = output::read_positions(dir).map_err(Error::Tuning)?;
        stats.rows += rows.len();
        let movers = if filter.movers.is_empty() { None } else { Some(mover_sides(dir, &filter.movers)?) };
        for (i, row) in rows.iter().enumerate() {
            if filter.skip_captures && !quiet::settled(i.checked_sub(1).map(|p| &rows[p]), row) {
                stats.dropped_captures += 1;
                continue;
            }
            if row.ply < filter.min_ply {
                stats.dropped_early += 1;
                continue;
            }
            if let Some(movers) = &movers {
                let to_move = match row.fen.split_whitespace().nth(1) {
                    Some("w") => 0,
                    Some("b") => 1,
                    _ => {
                        return Err(Error::Tuning(format!(
                            "{}: game {} ply {}: the position has no side to move",
                            dir.display(),
                            row.game_id,
                            row.ply
                        )))
                    }
                };
                if !movers.get(&row.game_id).is_some_and(|sides| sides[to_move]) {
                    stats.dropped_mover += 1;
                    continue;
                }
            }
            if !(row.result == 0.0 || row.result == 0.5 || row.result == 1.0) {
                return Err(Error::Tuning(format!(
                    "{}: game {} has result {} (expected 1, 0.5 or 0)",
                    dir.display(),
                    row.game_id,
                    row.result
                )));
            }
            // Both games of a pair start from the same opening (and with equal engines can
            // repeat each other), so the pair, not the game, is the unit of the split.
            let group = mix(((d as u64) << 40) ^ (row.game_id / 2));
            let result = match row.score_white {
                Some(s) if filter.score_weight > 0.0 => {
                    // Mate scores and the like: beyond ±20 pawns the expectation is 0 or 1 anyway.
                    let s = s.clamp(-2000, 2000) as f32;
                    let expected = 1.0 / (1.0 + 10f32.powf(-s / 400.0));
                    filter.score_weight * expected + (1.0 - filter.score_weight) * row.result as f32
                }
                _ => row.result as f32,
            };
            all.push(LabelledPosition { fen: row.fen.clone(), result, group });
        }
    }
    if all.is_empty() {
        let names: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
        return Err(Error::Tuning(format!(
            "no usable positions in {} ({} rows, {} dropped as captures, {} before the minimum ply, {} with another engine to move)",
            names.join(", "),
            stats.rows,
            stats.dropped_captures,
            stats.dropped_early,
            stats.dropped_mover
        )));
    }
    Ok((all, stats))
}

/// Per game of a run directory, whether White and Black are among `names`; an error when
/// no game has any of them, which is almost always a misspelt name.
fn mover_sides(dir: &Path, names: &[String]) -> Result<HashMap<u64, [bool; 2]>, Error> {
    let games = output::read_games(dir).map_err(Error::Tuning)?;
    let sides: HashMap<u64, [bool; 2]> =
        games.iter().map(|g| (g.game_id, [names.contains(&g.white), names.contains(&g.black)])).collect();
    if !sides.values().any(|s| s[0] || s[1]) {
        let mut present: Vec<&str> = games.iter().flat_map(|g| [g.white.as_str(), g.black.as_str()]).collect();
        present.sort_unstable();
        present.dedup();
        return Err(Error::Tuning(format!(
            "{}: no game has an engine named {} (its engines: {})",
            dir.display(),
            names.join(" or "),
            present.join(", ")
        )));
    }
    Ok(sides)
}

/// Checks that `dir` is a run directory with positions.
pub fn check_run_dir(dir: &Path) -> Result<(), Error> {
    if !dir.exists() {
        return Err(Error::Tuning(format!("data directory {} does not exist", dir.display())));
    }
    if !dir.is_dir() {
        return Err(Error::Tuning(format!("{} is not a directory", dir.display())));
    }
    if !dir.join("positions.csv").is_file() {
        return Err(Error::Tuning(format!(
            "{} has no positions.csv (expected the --out directory of a match, tournament or train run)",
            dir.display()
        )));
    }
    Ok(())
}

/// Splits by group: a group goes to validation with probability `fraction`, decided by
/// `seed` alone. The training part is shuffled (seeded) so that contiguous mini-batches are
/// random samples; the optimiser then streams memory in order instead of jumping around.
pub fn split(
    positions: Vec<LabelledPosition>,
    fraction: f64,
    seed: u64,
) -> Result<(Vec<LabelledPosition>, Vec<LabelledPosition>), Error> {
    if !(0.0..1.0).contains(&fraction) {
        return Err(Error::Tuning(format!("validation fraction {fraction} must be in [0, 1)")));
    }
    let salt = mix(seed ^ 0x7475_6E65);
    let threshold = (fraction * u64::MAX as f64) as u64;
    let (mut train, val): (Vec<_>, Vec<_>) =
        positions.into_iter().partition(|p| fraction == 0.0 || mix(p.group ^ salt) >= threshold);
    shuffle(&mut train, seed);
    Ok((train, val))
}

/// Fisher-Yates with the crate's seeded generator.
pub fn shuffle<T>(v: &mut [T], seed: u64) {
    Rng::new(seed ^ 0x5348_5546).shuffle(v);
}

/// Positions from seeded random playouts from the start position: every position of each
/// game from ply 4 on, until `count` are collected (fewer only if games keep ending before
/// ply 4). Games end at a terminal position or after `max_plies`. Used where real games
/// are not needed (tests, benchmarks).
pub fn random_positions(variant: Variant, count: usize, max_plies: u32, seed: u64) -> Vec<Board> {
    let skip = 4;
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(count);
    // Games that yield nothing (too short, or a start position that is already decided)
    // would otherwise loop forever.
    let mut barren = 0;
    while out.len() < count && barren < 100 {
        let before = out.len();
        let mut b = variant.start_position();
        for ply in 0..max_plies {
            if b.terminal().is_some() {
                break;
            }
            if ply >= skip {
                out.push(b);
                if out.len() == count {
                    break;
                }
            }
            let moves = b.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = &moves[rng.below(moves.len())];
            b = match b.play(mv) {
                Ok(next) => next,
                Err(_) => break,
            };
        }
        barren = if out.len() == before { barren + 1 } else { 0 };
    }
    out
}
