//! Distinct near-balanced openings: the lines a margin allows (each ply among the moves a
//! short search scores near the best) form a tree, and openings are drawn from it without
//! replacement.
//!
//! Drawing each opening independently repeats a few lines many times (chess, 4 plies
//! within 25 centipawns: 258 distinct openings in 2,000 draws, one of them 216 times), and
//! at a fixed node budget a repeated opening replays the same games, so a thousand game
//! pairs measured a few hundred positions. Here every draw walks down the tree only into
//! branches that still hold an unused position; when the tree at the asked depth is used
//! up, the next openings are one ply longer.
//!
//! The sequence is fixed by the seed alone: opening `i` is the same whether 10 or 10,000
//! are asked for, so a run extended to more pairs, or split into shards, agrees on every
//! earlier opening.

use super::openings::OpeningConfig;
use crate::engine::Engine;
use crate::rng::Rng;
use crate::search::Limits;
use crate::{Board, Color, Error, Move, Variant};
use std::collections::HashSet;

/// Nodes of the search that scores each candidate ply.
const MARGIN_NODES: u64 = 300;

/// Nodes of the search that measures an opening's drift from its start.
pub(super) const DRIFT_NODES: u64 = 1500;

/// Plies an opening may grow beyond the asked number when the shorter lines run out.
const EXTRA_PLIES: u32 = 8;

struct Node {
    board: Board,
    depth: u32,
    /// Filled when first visited: the near-best moves' positions, as node indices.
    children: Option<Vec<usize>>,
    /// No unused position at the current target depth lies below (or at) this node.
    exhausted: bool,
}

/// The tree of near-best lines from one start, expanded as draws reach it.
struct Tree<'a> {
    engine: Engine,
    cfg: &'a OpeningConfig,
    margin: i32,
    nodes: Vec<Node>,
    /// The start's evaluation from White's side, for the drift check.
    reference: i32,
}

/// White's evaluation of `b` after a search of `nodes` (a fresh search: no earlier state).
pub(super) fn white_score(engine: &mut Engine, b: &Board, nodes: u64) -> Result<i32, Error> {
    engine.set_board(b, &[], &[])?;
    engine.new_game();
    let d = engine.go(&Limits::nodes(nodes), &mut |_| {});
    Ok(if b.side_to_move() == Color::White { d.score_cp } else { -d.score_cp })
}

/// The moves of `b` whose score after a short search is within `margin` centipawns of the
/// best one's, in move-generation order; moves that end the game are left out.
pub(super) fn near_best(engine: &mut Engine, b: &Board, margin: i32) -> Result<Vec<(Move, Board)>, Error> {
    let mover = if b.side_to_move() == Color::White { 1 } else { -1 };
    let mut scored = Vec::new();
    for m in b.legal_moves() {
        let child = b.play(m)?;
        if child.terminal().is_some() {
            continue;
        }
        let score = mover * white_score(engine, &child, MARGIN_NODES)?;
        scored.push((m, child, score));
    }
    let best = scored.iter().map(|x| x.2).max().unwrap_or(0);
    Ok(scored.into_iter().filter(|x| x.2 >= best - margin).map(|x| (x.0, x.1)).collect())
}

impl Tree<'_> {
    fn children(&mut self, at: usize) -> Result<Vec<usize>, Error> {
        if let Some(c) = &self.nodes[at].children {
            return Ok(c.clone());
        }
        let board = self.nodes[at].board;
        let depth = self.nodes[at].depth + 1;
        let mut ids = vec![];
        for (_, child) in near_best(&mut self.engine, &board, self.margin)? {
            ids.push(self.nodes.len());
            self.nodes.push(Node { board: child, depth, children: None, exhausted: false });
        }
        self.nodes[at].children = Some(ids.clone());
        Ok(ids)
    }

    /// Marks the end of `path` used and every node above it whose branches all are.
    fn close(&mut self, path: &[usize]) {
        for (k, &at) in path.iter().enumerate().rev() {
            let done = k + 1 == path.len()
                || self.nodes[at].children.as_ref().is_some_and(|c| c.iter().all(|&i| self.nodes[i].exhausted));
            if !done {
                return;
            }
            self.nodes[at].exhausted = true;
        }
    }

    /// The next unused position `depth` plies deep, or None when the tree has none left.
    fn draw(&mut self, depth: u32, rng: &mut Rng, used: &mut HashSet<u64>) -> Result<Option<Board>, Error> {
        while !self.nodes[0].exhausted {
            let mut path = vec![0];
            let mut at = 0;
            while self.nodes[at].depth < depth {
                let open: Vec<usize> = self.children(at)?.into_iter().filter(|&i| !self.nodes[i].exhausted).collect();
                if open.is_empty() {
                    break;
                }
                at = open[rng.below(open.len())];
                path.push(at);
            }
            let leaf = self.nodes[at].board;
            let fresh = self.nodes[at].depth == depth && used.insert(leaf.hash());
            // A transposition, a dead end or a line that drifted: closed without use.
            let kept = fresh
                && (white_score(&mut self.engine, &leaf, DRIFT_NODES)? - self.reference).abs() <= self.cfg.max_drift;
            self.close(&path);
            if kept {
                return Ok(Some(leaf));
            }
        }
        Ok(None)
    }
}

/// The first `count` distinct openings from `start` (after the random plies of `cfg`,
/// drawn within `margin`); `stream` keeps the draws of different starts apart. When the
/// tree holds fewer than `count` even `EXTRA_PLIES` deeper, the openings found repeat in
/// turn.
pub fn distinct(
    variant: Variant,
    start: Board,
    cfg: &OpeningConfig,
    margin: i32,
    stream: u64,
    count: usize,
) -> Result<Vec<Board>, Error> {
    let mut engine =
        Engine::new(variant, &crate::eval::EngineConfig::for_variant(variant.name()).map_err(Error::Engine)?, &[], 1)?;
    let reference = white_score(&mut engine, &start, DRIFT_NODES)?;
    let root = Node { board: start, depth: 0, children: None, exhausted: false };
    let mut tree = Tree { engine, cfg, margin, nodes: vec![root], reference };
    // The stream counts down from the top so that it never meets the per-index streams
    // of openings drawn without a margin.
    let mut rng = Rng::derive(cfg.seed, u64::MAX - stream);
    let mut used = HashSet::new();
    let mut out = Vec::with_capacity(count);
    let mut depth = cfg.random_plies;
    while out.len() < count && depth <= cfg.random_plies + EXTRA_PLIES {
        match tree.draw(depth, &mut rng, &mut used)? {
            Some(b) => out.push(b),
            None => {
                depth += 1;
                for n in &mut tree.nodes {
                    n.exhausted = false;
                }
            }
        }
    }
    if out.is_empty() {
        out.push(start);
    }
    let found = out.len();
    while out.len() < count {
        out.push(out[out.len() % found]);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(plies: u32, seed: u64) -> OpeningConfig {
        OpeningConfig { random_plies: plies, margin: Some(25), seed, ..Default::default() }
    }

    fn chess() -> Variant {
        Variant::load("chess", &[]).unwrap()
    }

    #[test]
    fn openings_are_distinct_positions_and_grow_longer_when_the_short_lines_run_out() {
        let v = chess();
        // One ply within 25 cp of the best holds only a handful of positions in chess.
        let one = distinct(v, v.start_position(), &cfg(1, 3), 25, 0, 40).unwrap();
        let keys: HashSet<u64> = one.iter().map(|b| b.hash()).collect();
        assert_eq!(keys.len(), 40, "every opening a different position");
        let first_ply = one.iter().filter(|b| b.side_to_move() == Color::Black).count();
        assert!(first_ply > 0 && first_ply < 40, "{first_ply} openings one ply deep");
        assert!(one.iter().all(|b| b.terminal().is_none()));
    }

    #[test]
    fn the_sequence_is_fixed_by_the_seed_whatever_the_count() {
        let v = chess();
        let short = distinct(v, v.start_position(), &cfg(2, 5), 25, 0, 6).unwrap();
        let long = distinct(v, v.start_position(), &cfg(2, 5), 25, 0, 12).unwrap();
        assert_eq!(
            short.iter().map(Board::fen).collect::<Vec<_>>(),
            long[..6].iter().map(Board::fen).collect::<Vec<_>>()
        );
        let other = distinct(v, v.start_position(), &cfg(2, 6), 25, 0, 6).unwrap();
        assert_ne!(short.iter().map(Board::fen).collect::<Vec<_>>(), other.iter().map(Board::fen).collect::<Vec<_>>());
    }

    #[test]
    fn each_ply_stays_near_the_best_move() {
        let v = chess();
        let mut engine = Engine::new(v, &crate::eval::EngineConfig::for_variant("chess").unwrap(), &[], 1).unwrap();
        let near: Vec<String> =
            near_best(&mut engine, &v.start_position(), 25).unwrap().iter().map(|(m, _)| m.to_string()).collect();
        let all = v.start_position().legal_moves().len();
        assert!(!near.is_empty() && near.len() < all, "{near:?} of {all}");
        // Moves that hang material or weaken the king for nothing are never near the best.
        for bad in ["g2g4", "f2f3", "g1h3"] {
            assert!(!near.contains(&bad.to_string()), "{bad} in {near:?}");
        }
    }
}
