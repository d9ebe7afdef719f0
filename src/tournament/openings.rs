//! Openings: the variant's start (or lines of an EPD/FEN file), optionally an imbalance
//! (pieces removed from each side), then seeded random plies. Random plies that leave a
//! side clearly lost are rejected by a short search, so openings are playable. With a
//! margin, each random ply is drawn only from the moves a short search scores near the
//! best one, so that the openings stay near the balance of the start (random moves
//! otherwise create imbalances larger than a first-move advantage), and no opening
//! repeats ([`super::book`]).

use super::book::{white_score, DRIFT_NODES};
use super::RunError;
use crate::engine::Engine;
use crate::rng::Rng;
use crate::{Board, Error, Variant};

#[derive(Clone, Debug)]
pub struct OpeningConfig {
    /// FENs to start from (empty = the variant's start position); used in turn.
    pub fens: Vec<String>,
    pub random_plies: u32,
    /// Pieces White and Black lack (`R`, `F+P`, `f2`; empty = none).
    pub imbalance: Option<(String, String)>,
    /// Largest accepted change of the evaluation (cp) caused by the random plies.
    pub max_drift: i32,
    /// Random plies drawn only among moves scored within this many centipawns of the best
    /// (None: among all legal moves).
    pub margin: Option<i32>,
    pub seed: u64,
}

impl Default for OpeningConfig {
    fn default() -> Self {
        OpeningConfig { fens: vec![], random_plies: 8, imbalance: None, max_drift: 150, margin: None, seed: 1 }
    }
}

/// Reads an EPD/FEN file: one position per line; `#` comments and blank lines skipped;
/// EPD operations after `;` ignored.
pub fn read_file(variant: Variant, path: &str) -> Result<Vec<String>, RunError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| RunError::Opening(format!("cannot read openings file {path}: {e}")))?;
    let mut fens = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split(';').next().unwrap_or("").trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let b = variant.parse_fen(line).map_err(|e| RunError::Opening(format!("{path}:{}: {e}", i + 1)))?;
        fens.push(b.fen());
    }
    if fens.is_empty() {
        return Err(RunError::Opening(format!("openings file {path} has no positions")));
    }
    Ok(fens)
}

/// The position pair `index` starts from before its random plies: the given FENs in
/// turn (or the variant's start), less the imbalance's pieces.
fn base(variant: Variant, cfg: &OpeningConfig, index: u64) -> Result<Board, Error> {
    let mut base = match cfg.fens.len() {
        0 => variant.start_position(),
        n => variant.parse_fen(&cfg.fens[(index % n as u64) as usize])?,
    };
    if let Some((w, b)) = &cfg.imbalance {
        base = base.without(0, w)?.without(1, b)?;
    }
    Ok(base)
}

/// The openings of pairs `0..count` when they come from a book of distinct openings (a
/// margin and random plies are set; see [`super::book`]), None otherwise. Each start
/// position has its own book, used by the pairs that start from it.
pub fn book(variant: Variant, cfg: &OpeningConfig, count: u64) -> Result<Option<Vec<Board>>, Error> {
    let Some(margin) = cfg.margin.filter(|_| cfg.random_plies > 0) else { return Ok(None) };
    let starts = cfg.fens.len().max(1) as u64;
    let mut books = vec![];
    for k in 0..starts.min(count) {
        let wanted = (count - k).div_ceil(starts) as usize;
        books.push(super::book::distinct(variant, base(variant, cfg, k)?, cfg, margin, k, wanted)?);
    }
    Ok(Some((0..count).map(|i| books[(i % starts) as usize][(i / starts) as usize]).collect()))
}

/// The opening of game pair `index` (both games of a pair start from it).
/// With a margin this builds the book up to `index`: a runner builds it once ([`book`]).
pub fn opening(variant: Variant, cfg: &OpeningConfig, index: u64) -> Result<Board, Error> {
    if let Some(openings) = book(variant, cfg, index + 1)? {
        return Ok(openings[index as usize]);
    }
    let base = base(variant, cfg, index)?;
    if cfg.random_plies == 0 {
        return Ok(base);
    }
    let mut engine =
        Engine::new(variant, &crate::eval::EngineConfig::for_variant(variant.name()).map_err(Error::Engine)?, &[], 1)?;
    let reference = white_score(&mut engine, &base, DRIFT_NODES)?;
    let mut rng = Rng::derive(cfg.seed, index);
    let mut fallback = base;
    for attempt in 0..64 {
        let mut b = base;
        let mut ok = true;
        for _ in 0..cfg.random_plies {
            let moves = b.legal_moves();
            if moves.is_empty() || b.terminal().is_some() {
                ok = false;
                break;
            }
            b = b.play(moves[rng.below(moves.len())])?;
        }
        if !ok || b.terminal().is_some() {
            continue;
        }
        if attempt == 0 {
            fallback = b;
        }
        if (white_score(&mut engine, &b, DRIFT_NODES)? - reference).abs() <= cfg.max_drift {
            return Ok(b);
        }
    }
    Ok(fallback)
}
