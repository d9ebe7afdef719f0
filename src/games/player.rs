//! Players: the in-process engine, a seeded random mover, and (elsewhere) external UCI engines.

use crate::engine::Engine;
use crate::rng::Rng;
use crate::search::Limits;
use crate::Board;
use std::time::{Duration, Instant};

/// Why a player failed to produce a move.
#[derive(Debug, Clone)]
pub enum PlayerError {
    /// The engine crashed, closed its pipes, or answered nonsense.
    Failure(String),
    Timeout(String),
}

/// A move choice with the player's score of the position (side to move's view), if any.
#[derive(Debug, Clone)]
pub struct Choice {
    pub mv: String,
    pub score_cp: Option<i32>,
    pub depth: u32,
    pub nodes: u64,
}

pub trait Player: Send {
    fn name(&self) -> &str;
    fn new_game(&mut self) -> Result<(), PlayerError>;
    /// Chooses a move in `board`; `history` = hashes of the earlier positions, `moves` =
    /// the moves since the game's start position `start`.
    fn choose(
        &mut self,
        start: &Board,
        moves: &[String],
        board: &Board,
        history: &[u64],
    ) -> Result<Choice, PlayerError>;
}

pub struct EnginePlayer {
    pub name: String,
    pub engine: Engine,
    pub limits: Limits,
    /// Base time and increment when playing on a clock.
    pub clock: Option<(Duration, Duration)>,
    remaining: Duration,
}

impl EnginePlayer {
    pub fn new(name: &str, engine: Engine, limits: Limits, clock: Option<(Duration, Duration)>) -> EnginePlayer {
        EnginePlayer { name: name.to_string(), engine, limits, clock, remaining: clock.map_or(Duration::ZERO, |c| c.0) }
    }
}

impl Player for EnginePlayer {
    fn name(&self) -> &str {
        &self.name
    }
    fn new_game(&mut self) -> Result<(), PlayerError> {
        self.engine.new_game();
        self.remaining = self.clock.map_or(Duration::ZERO, |c| c.0);
        Ok(())
    }
    fn choose(&mut self, _: &Board, _: &[String], board: &Board, history: &[u64]) -> Result<Choice, PlayerError> {
        self.engine.set_board(board, history, &[]).map_err(|e| PlayerError::Failure(e.to_string()))?;
        let mut limits = self.limits.clone();
        if let Some((_, inc)) = self.clock {
            limits.time = Some(self.remaining);
            limits.inc = inc;
        }
        let started = Instant::now();
        let d = self.engine.go(&limits, &mut |_| {});
        if let Some((_, inc)) = self.clock {
            let used = started.elapsed();
            if used > self.remaining {
                return Err(PlayerError::Timeout(format!("{} lost on time", self.name)));
            }
            self.remaining = self.remaining - used + inc;
        }
        let mv = d.best.ok_or_else(|| PlayerError::Failure("no move in a position with legal moves".into()))?;
        Ok(Choice { mv, score_cp: Some(d.score_cp), depth: d.depth, nodes: d.nodes })
    }
}

/// Plays a uniformly random legal move (seeded; a baseline opponent).
pub struct RandomPlayer {
    pub name: String,
    pub rng: Rng,
}

impl Player for RandomPlayer {
    fn name(&self) -> &str {
        &self.name
    }
    fn new_game(&mut self) -> Result<(), PlayerError> {
        Ok(())
    }
    fn choose(&mut self, _: &Board, _: &[String], board: &Board, _: &[u64]) -> Result<Choice, PlayerError> {
        let moves = board.legal_moves();
        if moves.is_empty() {
            return Err(PlayerError::Failure("asked to move without legal moves".into()));
        }
        let mv = moves[self.rng.below(moves.len())].to_string();
        Ok(Choice { mv, score_cp: None, depth: 0, nodes: 0 })
    }
}
