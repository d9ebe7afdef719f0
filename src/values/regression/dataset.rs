//! Positions from self-play games turned into the regression's data: per position the
//! material difference per piece type (White minus Black), the side to move, and the
//! game's final result.
//!
//! Which positions count (the choice matters: material in the middle of an exchange says
//! nothing about who is better):
//! * the first `skip_plies` plies of every game are skipped: they are the opening, whose
//!   material is the start position's or the imbalance chosen for the game;
//! * a position counts only if it is *quiet* (`tournament::quiet`, the definition the
//!   evaluation tuner uses too): no capture just made or about to be played, not in check;
//! * the position must still hold `min_pieces` of the start position's pieces: values are
//!   middlegame values. On 2000 chess games at 2000 nodes, keeping late endgames gave
//!   N 2.3, B 2.5, R 3.7, Q 6.9 pawns; half the pieces or more gave N 3.1, B 3.4, R 4.5,
//!   Q 9.0 (an extra pawn decides endgames that an extra knight often cannot).
//!
//! Positions of one game share its result, so they are not independent; the bootstrap
//! resamples whole games for that reason, and this module keeps each game's positions
//! together. Identical games (the same opening and moves, e.g. the two games of a pair
//! when two identical engines swap colours) are kept once: duplicates would shrink the
//! bootstrap intervals without adding information.

use crate::tournament::manifest::Recorded;
use crate::tournament::output::{read_games, read_positions, PositionRow};
use crate::tournament::quiet;
use crate::values::pieces::Pieces;
use crate::values::ValuesError;
use crate::Variant;
use ndarray::Array2;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug)]
pub struct Selection {
    pub skip_plies: u32,
    /// Least share of the start position's pieces (pawns and kings not counted, both
    /// sides together) still on the board. Piece values are middlegame values: in a
    /// late endgame an extra pawn often decides while an extra minor piece without pawns
    /// may not, so endgame positions pull every value towards the pawn's.
    pub min_pieces: f64,
    /// One observation per game instead: the material play began with (the opening, after
    /// any random plies) against the game's result, with the positions and the other two
    /// fields ignored. This prices material as the imbalance matches do, by everything
    /// that follows from it, including the material it goes on to win or lose; the
    /// position fit prices the material on the board given the rest of it.
    pub start: bool,
}

impl Default for Selection {
    fn default() -> Self {
        Selection { skip_plies: 10, min_pieces: 0.5, start: false }
    }
}

/// Pieces other than pawns (kings are not material) of both sides together.
fn piece_count(pieces: &Pieces, b: &crate::Board) -> Result<i32, ValuesError> {
    let mut n = 0;
    for side in 0..2 {
        let c = pieces.counts(&b.material(side))?;
        n += c.iter().enumerate().filter(|&(t, _)| t != pieces.pawn).map(|(_, k)| k).sum::<i32>();
    }
    Ok(n)
}

/// One position as the regression sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Observation {
    /// White's minus Black's count per piece type (`Pieces` order).
    pub diff: Vec<i32>,
    pub white_to_move: bool,
}

/// A game: its selected positions and White's result (1, 1/2, 0).
#[derive(Clone, Debug)]
pub struct GameData {
    pub observations: Vec<Observation>,
    pub white_score: f64,
}

/// Result class for White: 0 loss, 1 draw, 2 win.
pub fn class(white_score: f64) -> usize {
    if white_score > 0.75 {
        2
    } else if white_score < 0.25 {
        0
    } else {
        1
    }
}

/// Grouped regression data: distinct feature rows and each game's counts on them.
#[derive(Clone, Debug)]
pub struct Dataset {
    /// Piece types with a coefficient (indices into `Pieces::types`).
    pub types: Vec<usize>,
    /// Types left out because their count never differs between the sides.
    pub constant: Vec<usize>,
    /// Number of selected positions in which each of `types` differs between the sides.
    pub varied: Vec<usize>,
    /// Distinct rows: material differences of `types`, side to move (+1 White, -1 Black),
    /// then the constant 1 (White's advantage).
    pub x: Array2<f64>,
    /// Per game: (row, result class, number of positions).
    pub games: Vec<Vec<(usize, usize, f64)>>,
    pub positions: usize,
}

impl Dataset {
    /// Builds the grouped data. The pawn must vary (it is the unit).
    pub fn build(pieces: &Pieces, games: &[GameData]) -> Result<Dataset, ValuesError> {
        let n = pieces.len();
        let mut varied_all = vec![0usize; n];
        for g in games {
            for o in &g.observations {
                for t in 0..n {
                    if o.diff[t] != 0 {
                        varied_all[t] += 1;
                    }
                }
            }
        }
        let positions: usize = games.iter().map(|g| g.observations.len()).sum();
        if positions == 0 {
            return Err(ValuesError::Games(
                "no positions left after the selection (games too short, or no games)".into(),
            ));
        }
        if varied_all[pieces.pawn] == 0 {
            return Err(ValuesError::Fit(
                "the pawn count never differs between the sides: cannot measure in pawns".into(),
            ));
        }
        let types: Vec<usize> = (0..n).filter(|&t| varied_all[t] > 0).collect();
        let constant: Vec<usize> = (0..n).filter(|&t| varied_all[t] == 0).collect();
        let mut index: HashMap<(Vec<i32>, bool), usize> = HashMap::new();
        let mut rows: Vec<Vec<f64>> = Vec::new();
        let mut out_games = Vec::with_capacity(games.len());
        for g in games {
            let c = class(g.white_score);
            let mut per_row: BTreeMap<usize, f64> = BTreeMap::new();
            for o in &g.observations {
                let key: Vec<i32> = types.iter().map(|&t| o.diff[t]).collect();
                let next = rows.len();
                let row = *index.entry((key.clone(), o.white_to_move)).or_insert_with(|| {
                    let mut r: Vec<f64> = key.iter().map(|&d| d as f64).collect();
                    r.push(if o.white_to_move { 1.0 } else { -1.0 });
                    r.push(1.0);
                    rows.push(r);
                    next
                });
                *per_row.entry(row).or_default() += 1.0;
            }
            out_games.push(per_row.into_iter().map(|(r, k)| (r, c, k)).collect());
        }
        let p = types.len() + 2;
        let x = Array2::from_shape_vec((rows.len(), p), rows.concat()).map_err(|e| ValuesError::Fit(e.to_string()))?;
        let varied = types.iter().map(|&t| varied_all[t]).collect();
        Ok(Dataset { types, constant, varied, x, games: out_games, positions })
    }

    /// Losses/draws/wins per row with each game counted `weights[g]` times.
    pub fn counts(&self, weights: &[f64]) -> Array2<f64> {
        let mut c = Array2::<f64>::zeros((self.x.nrows(), 3));
        for (g, entries) in self.games.iter().enumerate() {
            let w = weights[g];
            if w == 0.0 {
                continue;
            }
            for &(row, class, k) in entries {
                c[[row, class]] += w * k;
            }
        }
        c
    }
}

/// Selects the quiet positions of one game (rows sorted by ply).
pub fn select(
    pieces: &Pieces,
    variant: Variant,
    rows: &[&PositionRow],
    sel: Selection,
) -> Result<Vec<Observation>, ValuesError> {
    let mut out = Vec::new();
    let least = sel.min_pieces * piece_count(pieces, &variant.start_position())? as f64;
    for (i, r) in rows.iter().enumerate() {
        let previous = i.checked_sub(1).map(|p| rows[p]);
        if r.ply < sel.skip_plies || !quiet::settled(previous, r) {
            continue;
        }
        let b = variant
            .parse_fen(&r.fen)
            .map_err(|e| ValuesError::Position(format!("game {} ply {}: {e}", r.game_id, r.ply)))?;
        if !quiet::unchecked(&b) || (piece_count(pieces, &b)? as f64) < least {
            continue;
        }
        out.push(Observation { diff: pieces.difference(&b)?, white_to_move: b.side_to_move() == 'w' });
    }
    Ok(out)
}

/// The material of a game's opening (the variant's start position when none is recorded).
fn start_observation(pieces: &Pieces, variant: Variant, opening: &str) -> Result<Observation, ValuesError> {
    let b = if opening.trim().is_empty() {
        variant.start_position()
    } else {
        variant.parse_fen(opening).map_err(|e| ValuesError::Position(format!("opening: {e}")))?
    };
    Ok(Observation { diff: pieces.difference(&b)?, white_to_move: b.side_to_move() == 'w' })
}

/// Checks that a run directory was played in `variant` (when its `run.toml` says so).
fn check_run(dir: &std::path::Path, variant: Variant) -> Result<(), ValuesError> {
    let Some(run) = Recorded::read(dir)? else { return Ok(()) };
    if let Some(name) = run.variant().filter(|n| n != variant.name()) {
        return Err(ValuesError::Games(format!(
            "{}: variant {name}, but the estimate is for {}",
            dir.display(),
            variant.name()
        )));
    }
    if let Some(options) = run.options().filter(|o| o != variant.options()) {
        return Err(ValuesError::Games(format!(
            "{}: options {options:?}, but the estimate uses options {:?}",
            dir.display(),
            variant.options()
        )));
    }
    Ok(())
}

/// Nodes per move recorded in a run directory's `run.toml`, if the run had one limit.
pub fn run_nodes(dir: &std::path::Path) -> Option<u64> {
    Recorded::read(dir).ok().flatten()?.nodes()
}

/// Reads the games of run directories (`games.csv` + `positions.csv`), drops duplicate
/// games and selects positions. Returns the games and the number of duplicates dropped.
pub fn load_runs(
    dirs: &[PathBuf],
    variant: Variant,
    pieces: &Pieces,
    sel: Selection,
) -> Result<(Vec<GameData>, usize), ValuesError> {
    let mut seen: HashSet<(String, String)> = HashSet::new();
    let mut out = Vec::new();
    let mut duplicates = 0;
    for dir in dirs {
        if !dir.join("games.csv").exists() {
            return Err(ValuesError::Games(format!("{}: no games.csv (not a run directory)", dir.display())));
        }
        check_run(dir, variant)?;
        let games = read_games(dir).map_err(ValuesError::Games)?;
        // The start fit needs only the games' openings.
        let positions = if sel.start { vec![] } else { read_positions(dir).map_err(ValuesError::Games)? };
        let mut by_game: HashMap<u64, Vec<&PositionRow>> = HashMap::new();
        for p in &positions {
            by_game.entry(p.game_id).or_default().push(p);
        }
        let mut games = games;
        games.sort_by_key(|g| g.game_id);
        for g in &games {
            let Some(score) = g.white_score() else { continue };
            if !seen.insert((g.opening.clone(), g.moves.clone())) {
                duplicates += 1;
                continue;
            }
            let observations = if sel.start {
                vec![start_observation(pieces, variant, &g.opening)
                    .map_err(|e| ValuesError::Position(format!("{}: game {}: {e}", dir.display(), g.game_id)))?]
            } else {
                let mut rows = by_game.remove(&g.game_id).unwrap_or_default();
                rows.sort_by_key(|r| r.ply);
                select(pieces, variant, &rows, sel)
                    .map_err(|e| ValuesError::Games(format!("{}: {e}", dir.display())))?
            };
            out.push(GameData { observations, white_score: score });
        }
    }
    if out.is_empty() {
        return Err(ValuesError::Games("the run directories hold no finished games".into()));
    }
    Ok((out, duplicates))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(ply: u32, fen: &str, capture: bool) -> PositionRow {
        PositionRow { game_id: 0, ply, fen: fen.into(), score_white: None, capture, result: 1.0 }
    }

    #[test]
    fn selection_skips_opening_captures_recaptures_and_checks() {
        let v = Variant::load("chess", &[]).unwrap();
        let p = Pieces::of(v).unwrap();
        let quiet = "4k3/8/8/8/8/8/PP6/RN2K3 w - - 0 1";
        let check = "4k3/8/8/8/8/8/PP6/RN2K2r w - - 0 1";
        let rows = [
            row(0, quiet, false), // opening ply: skipped
            row(4, quiet, true),  // a capture is played from it: skipped
            row(5, quiet, false), // reached by that capture: skipped
            row(6, quiet, false), // kept
            row(7, check, false), // in check: skipped
        ];
        let refs: Vec<&PositionRow> = rows.iter().collect();
        let obs = select(&p, v, &refs, Selection { skip_plies: 2, min_pieces: 0.0, start: false }).unwrap();
        assert_eq!(obs.len(), 1);
        assert_eq!(obs[0].diff[p.pawn], 2);
        assert!(obs[0].white_to_move);
    }

    #[test]
    fn the_start_fit_takes_one_observation_per_game_from_its_opening() {
        let v = Variant::load("chess", &[]).unwrap();
        let p = Pieces::of(v).unwrap();
        // White lacks a knight, Black a pawn; the positions (which the fit ignores) differ.
        let opening = "rnbqkbnr/ppppppp1/8/8/8/8/PPPPPPPP/R1BQKBNR b KQkq - 0 1";
        let o = start_observation(&p, v, opening).unwrap();
        let knight = p.index('N').unwrap();
        assert_eq!((o.diff[knight], o.diff[p.pawn], o.white_to_move), (-1, 1, false));
        assert!(start_observation(&p, v, "").unwrap().diff.iter().all(|&d| d == 0));
        assert!(start_observation(&p, v, "rnbqkbnr/8 w").unwrap_err().to_string().contains("opening"));

        let dir = std::env::temp_dir().join(format!("fairylab-start-fit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let header = "game_id,pair_id,white,black,result,termination,plies,white_material,black_material,seed,opening,moves,final_fen\n";
        std::fs::write(
            dir.join("games.csv"),
            format!("{header}0,0,a,b,1-0,checkmate,30,,,1,{opening},e2e4,\n1,0,b,a,0-1,checkmate,30,,,1,,d2d4,\n"),
        )
        .unwrap();
        let quiet = "4k3/8/8/8/8/8/PP6/RN2K3 w - - 0 1";
        let mut positions = String::from("game_id,ply,fen,score_white,capture,result\n");
        for ply in 10..14 {
            positions += &format!("0,{ply},{quiet},0,false,1.0\n1,{ply},{quiet},0,false,0.0\n");
        }
        std::fs::write(dir.join("positions.csv"), positions).unwrap();
        let sel = Selection { start: true, ..Selection::default() };
        let (games, _) = load_runs(std::slice::from_ref(&dir), v, &p, sel).unwrap();
        assert_eq!(games.iter().map(|g| g.observations.len()).collect::<Vec<_>>(), [1, 1]);
        assert_eq!((games[0].observations[0].diff[knight], games[0].white_score), (-1, 1.0));
        assert!(games[1].observations[0].diff.iter().all(|&d| d == 0), "no opening: the start position");
        // The position fit of the same games sees the positions instead.
        let (games, _) =
            load_runs(std::slice::from_ref(&dir), v, &p, Selection { min_pieces: 0.0, ..Selection::default() })
                .unwrap();
        assert_eq!(games[0].observations.len(), 4);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn grouping_merges_identical_rows_and_drops_constant_types() {
        let v = Variant::load("chess", &[]).unwrap();
        let p = Pieces::of(v).unwrap();
        let mut d = vec![0; p.len()];
        d[p.pawn] = 1;
        let o = Observation { diff: d, white_to_move: true };
        let games = vec![
            GameData { observations: vec![o.clone(), o.clone()], white_score: 1.0 },
            GameData { observations: vec![o.clone()], white_score: 0.5 },
        ];
        let ds = Dataset::build(&p, &games).unwrap();
        assert_eq!(ds.types, vec![p.pawn]);
        assert_eq!(ds.constant.len(), p.len() - 1);
        assert_eq!(ds.x.nrows(), 1);
        let c = ds.counts(&[2.0, 1.0]);
        assert_eq!(c.row(0).to_vec(), vec![0.0, 1.0, 4.0]);
        let flat = vec![GameData {
            observations: vec![Observation { diff: vec![0; p.len()], white_to_move: true }],
            white_score: 1.0,
        }];
        assert!(Dataset::build(&p, &flat).unwrap_err().to_string().contains("pawn"));
    }

    #[test]
    fn node_counts_are_read_from_both_run_file_formats() {
        let d = std::env::temp_dir().join(format!("fairylab-run-nodes-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("run.toml"), "variant = \"chess\"\nnodes = 1500\n").unwrap();
        assert_eq!(run_nodes(&d), Some(1500));
        std::fs::write(d.join("run.toml"), "limits = Limits { depth: None, nodes: Some(800), movetime: None }\n")
            .unwrap();
        assert_eq!(run_nodes(&d), Some(800));
        std::fs::write(d.join("run.toml"), "limits = Limits { depth: Some(4), nodes: None }\n").unwrap();
        assert_eq!(run_nodes(&d), None);
        let _ = std::fs::remove_dir_all(&d);
    }
}
