//! Middlegame start positions for imbalance matches. A trade made from the start position
//! is priced by the whole game that follows it, opening included; published piece values
//! (Kaufman's among them) come from positions where the trade happened in the middlegame.
//! So a match can start instead from quiet, materially even positions of recorded
//! self-play, each side then losing its pieces there (in chess this did not bring the
//! values down to the published ones: `data/studies/README.md`).
//!
//! Two steps:
//! * [`sample`] picks the positions from run directories (`positions.csv`): one per game
//!   at a seeded random ply in a window, quiet (`tournament::quiet`), even material, and a
//!   recorded score near zero, duplicates removed;
//! * [`usable`] keeps, for one match, those on which both of its removals (the pair's two
//!   games) are possible and create no new tactics: neither king in check, and nothing
//!   more that a one-ply search (with quiescence) wins for either side to move. Removing
//!   pieces next to an exchange would otherwise price the exchange, not the pieces; the
//!   count dropped is reported. Each match filters on its own removals: asking every
//!   removal of a study (calibration, comparisons, each bracket shift) of one position
//!   left about one chess middlegame in ten.

use crate::engine::Engine;
use crate::eval::EngineConfig;
use crate::rng::Rng;
use crate::search::Limits;
use crate::tournament::output::read_positions;
use crate::tournament::quiet;
use crate::values::ValuesError;
use crate::{Board, Variant};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Which recorded positions may start a match.
#[derive(Clone, Debug)]
pub struct Sampling {
    /// Plies (half-moves from the recorded opening) a start may be taken at, inclusive.
    pub plies: (u32, u32),
    /// Largest recorded |score| (centipawns, White's view) of a start.
    pub max_score: i32,
    /// Most starts kept (after shuffling with `seed`).
    pub count: usize,
    pub seed: u64,
}

/// Positions drawn from the run directories' `positions.csv`, in a seeded random order.
pub fn sample(variant: Variant, dirs: &[PathBuf], s: &Sampling) -> Result<Vec<String>, ValuesError> {
    if s.plies.0 > s.plies.1 {
        return Err(ValuesError::Settings(format!("ply window {}..{} is empty", s.plies.0, s.plies.1)));
    }
    let mut rng = Rng::derive(s.seed, 0x57A2);
    let mut seen = HashSet::new();
    let mut out = vec![];
    for dir in dirs {
        let rows = read_positions(dir).map_err(|e| ValuesError::Games(format!("{}: {e}", dir.display())))?;
        let mut i = 0;
        while i < rows.len() {
            let game = rows[i].game_id;
            let end = rows[i..].iter().position(|r| r.game_id != game).map_or(rows.len(), |n| i + n);
            let mut candidates = vec![];
            for j in i..end {
                let r = &rows[j];
                let previous = (j > i).then(|| &rows[j - 1]);
                if r.ply < s.plies.0 || r.ply > s.plies.1 || !quiet::settled(previous, r) {
                    continue;
                }
                if r.score_white.is_none_or(|v| v.abs() > s.max_score) {
                    continue;
                }
                let b = variant
                    .parse_fen(&r.fen)
                    .map_err(|e| ValuesError::Position(format!("{}: game {game} ply {}: {e}", dir.display(), r.ply)))?;
                if quiet::unchecked(&b) && b.material(0) == b.material(1) {
                    candidates.push(b.fen());
                }
            }
            if !candidates.is_empty() {
                let fen = candidates.swap_remove(rng.below(candidates.len()));
                if seen.insert(fen.clone()) {
                    out.push(fen);
                }
            }
            i = end;
        }
    }
    rng.shuffle(&mut out);
    out.truncate(s.count);
    Ok(out)
}

/// The side to move swapped (no en passant square): who could win what if the other side
/// were to move. `None` when that is not a position of the game.
fn flipped(variant: Variant, b: &Board) -> Option<Board> {
    let fen = b.fen();
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() < 2 {
        return None;
    }
    fields[1] = if fields[1] == "w" { "b" } else { "w" };
    if fields.len() > 3 {
        fields[3] = "-";
    }
    variant.parse_fen(&fields.join(" ")).ok()
}

/// What a one-ply search with quiescence finds for the side to move of `b` beyond the
/// static evaluation (centipawns): about the material it can win at once.
fn gain(engine: &mut Engine, b: &Board) -> Result<i32, ValuesError> {
    engine.new_game();
    engine.set_board(b, &[], &[]).map_err(|e| ValuesError::Engine(e.to_string()))?;
    let stand = engine.static_eval();
    let d = engine.go(&Limits::depth(1), &mut |_| {});
    Ok(d.score_cp - stand)
}

/// [`gain`] for each side to move of `b` (as it stands, and with the move passed), or
/// `None` when either is no position of the game or has a side in check.
fn gains(variant: Variant, engine: &mut Engine, b: &Board) -> Result<Option<[i32; 2]>, ValuesError> {
    if variant.parse_fen(&b.fen()).is_err() || b.in_check() || b.terminal().is_some() {
        return Ok(None);
    }
    let Some(other) = flipped(variant, b) else { return Ok(None) };
    if other.in_check() {
        return Ok(None);
    }
    Ok(Some([gain(engine, b)?, gain(engine, &other)?]))
}

/// The starts on which every removal (`(White lacks, Black lacks)` specs) is possible
/// and creates no new tactics: neither king left in check, and for either side to move a
/// one-ply search wins at most `margin` centipawns more than it did before the removal
/// (threats already in the recorded position are the game's; a piece left hanging by a
/// removal is not). Returns them and how many were dropped.
pub fn usable(
    variant: Variant,
    fens: &[String],
    removals: &[(String, String)],
    margin: i32,
) -> Result<(Vec<String>, usize), ValuesError> {
    let cfg = EngineConfig::for_variant(variant.name()).map_err(ValuesError::Engine)?;
    let mut engine = Engine::new(variant, &cfg, &[], 1).map_err(|e| ValuesError::Engine(e.to_string()))?;
    let mut kept = vec![];
    'fens: for fen in fens {
        let b = variant.parse_fen(fen).map_err(|e| ValuesError::Position(format!("start {fen}: {e}")))?;
        let Some(before) = gains(variant, &mut engine, &b)? else { continue };
        for (w, k) in removals {
            let Ok(after) = b.without(0, w).and_then(|x| x.without(1, k)) else { continue 'fens };
            let Some(now) = gains(variant, &mut engine, &after)? else { continue 'fens };
            if (0..2).any(|i| now[i] > before[i].max(0) + margin) {
                continue 'fens;
            }
        }
        kept.push(fen.clone());
    }
    let dropped = fens.len() - kept.len();
    Ok((kept, dropped))
}

/// A removal spec whose piece letters pick their instance by the position (`R+P` becomes
/// `R*+P*`); squares stay as they are.
pub fn hashed(spec: &str) -> String {
    spec.split('+')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(
            |t| if t.len() == 1 && t.chars().all(|c| c.is_ascii_uppercase()) { format!("{t}*") } else { t.to_string() },
        )
        .collect::<Vec<_>>()
        .join("+")
}

/// Writes starts as an EPD file with `#` comment lines first (how they were chosen),
/// readable by `--starts` and by `match --openings`.
pub fn write(path: &Path, fens: &[String], comments: &[String]) -> Result<(), ValuesError> {
    let mut text = String::new();
    for c in comments {
        text += &format!("# {c}\n");
    }
    for f in fens {
        text += f;
        text.push('\n');
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| ValuesError::io("create", dir, e))?;
    }
    std::fs::write(path, text).map_err(|e| ValuesError::io("write", path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess() -> Variant {
        Variant::load("chess", &[]).unwrap()
    }

    #[test]
    fn a_removal_that_hangs_material_or_exposes_a_king_is_not_a_start() {
        let v = chess();
        // Even material, nothing en prise; e5 is held only by the c6 knight.
        let fen = "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7";
        let check = |w: &str, b: &str| usable(v, &[fen.into()], &[(w.to_string(), b.to_string())], 50).unwrap();
        assert_eq!(check("", ""), (vec![fen.to_string()], 0), "the position itself is a quiet start");
        assert_eq!(check("h2", "h7").0.len(), 1, "both rook pawns gone: still nothing to win");
        // Black's a-most knight (c6) gone: Nxe5 wins a pawn for the side to move.
        assert_eq!(check("", "N"), (vec![], 1));
        // White's c3 knight gone: Black to move would win e4? No, d3 holds it; but White
        // to move still wins e5 once Black's c6 knight is gone too.
        assert!(check("N", "N").0.is_empty());
        // Without f7 the c4 bishop checks the king of the side not to move: no position.
        assert!(check("", "f7").0.is_empty());
        // A removal that cannot be made (a third knight) drops the start as well.
        assert!(check("N+N+N", "").0.is_empty());
    }

    #[test]
    fn hashed_removals_pick_by_the_position_and_spread_over_the_pawns() {
        assert_eq!(hashed("R+N+P"), "R*+N*+P*");
        assert_eq!(hashed("f2+P"), "f2+P*");
        assert_eq!(hashed(""), "");
        let v = chess();
        let fens = tournament_fens();
        let mut files = std::collections::BTreeSet::new();
        for fen in &fens {
            let b = v.parse_fen(fen).unwrap();
            let once = b.without(0, "P*").unwrap();
            assert_eq!(once.fen(), b.without(0, "P*").unwrap().fen(), "the same position loses the same pawn");
            assert_ne!(b.material(0), once.material(0), "{fen}: a white pawn goes");
            let lost = (0..8).find(|&f| pawns_on_file(&b, f) != pawns_on_file(&once, f)).unwrap();
            files.insert(lost);
        }
        assert!(files.len() >= 3, "pawns from several files, not always the edge one: {files:?}");
    }

    fn tournament_fens() -> Vec<String> {
        [
            "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7",
            "r1bq1rk1/pp1nbppp/2p1pn2/3p4/2PP4/2NBPN2/PP3PPP/R1BQ1RK1 w - - 0 8",
            "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
            "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
            "rnbqkb1r/ppp2ppp/4pn2/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 2 4",
            "rnbqk2r/ppp1ppbp/3p1np1/8/2PPP3/2N5/PP3PPP/R1BQKBNR w KQkq - 0 5",
        ]
        .map(String::from)
        .to_vec()
    }

    fn pawns_on_file(b: &Board, file: usize) -> usize {
        let board = b.fen().split(' ').next().unwrap().to_string();
        board
            .split('/')
            .filter(|rank| {
                let mut f = 0;
                for c in rank.chars() {
                    if let Some(d) = c.to_digit(10) {
                        f += d as usize;
                    } else {
                        if f == file && c == 'P' {
                            return true;
                        }
                        f += 1;
                    }
                }
                false
            })
            .count()
    }

    #[test]
    fn flipping_the_side_to_move_clears_en_passant() {
        let v = chess();
        let b = v.parse_fen("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3").unwrap();
        let f = flipped(v, &b).unwrap();
        assert_eq!(f.fen(), "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3");
    }
}
