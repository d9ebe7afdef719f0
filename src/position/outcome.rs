//! How a game ends by its own rules: checkmate, stalemate, king capture, no move, dead
//! material, no progress. Repetition and the ply cap need the game's history and live with
//! whoever keeps it (search, game runner); their thresholds are in the rules.

use super::*;
use crate::variant::config::NoMoveResult;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    Checkmate,
    Stalemate,
    KingCapture,
    Repetition,
    NoProgress,
    DeadMaterial,
    PlyCap,
    Adjudication,
    Resignation,
    IllegalMove,
    EngineFailure,
    Timeout,
}

impl Termination {
    pub const ALL: [Termination; 12] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::KingCapture,
        Termination::Repetition,
        Termination::NoProgress,
        Termination::DeadMaterial,
        Termination::PlyCap,
        Termination::Adjudication,
        Termination::Resignation,
        Termination::IllegalMove,
        Termination::EngineFailure,
        Termination::Timeout,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::KingCapture => "king-capture",
            Termination::Repetition => "repetition",
            Termination::NoProgress => "no-progress",
            Termination::DeadMaterial => "dead-material",
            Termination::PlyCap => "ply-cap",
            Termination::Adjudication => "adjudication",
            Termination::Resignation => "resignation",
            Termination::IllegalMove => "illegal-move",
            Termination::EngineFailure => "engine-failure",
            Termination::Timeout => "timeout",
        }
    }

    pub fn parse(s: &str) -> Option<Termination> {
        Self::ALL.into_iter().find(|t| t.name() == s)
    }
}

/// Result from the point of view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Win,
    Draw,
    Loss,
}

impl<B: Bits> Position<B> {
    /// The game is over by the position alone (no history needed)?
    pub fn terminal(&mut self) -> Option<(Verdict, Termination)> {
        let us = self.side;
        if self.king_square(us).is_none() {
            return Some((Verdict::Loss, Termination::KingCapture));
        }
        if self.king_square(us ^ 1).is_none() {
            return Some((Verdict::Win, Termination::KingCapture));
        }
        if self.count_legal() == 0 {
            if !self.rules.is_king_capture() && self.in_check() {
                return Some((Verdict::Loss, Termination::Checkmate));
            }
            let v = match self.rules.stalemate {
                NoMoveResult::Draw => Verdict::Draw,
                NoMoveResult::Loss => Verdict::Loss,
                NoMoveResult::Win => Verdict::Win,
            };
            return Some((v, Termination::Stalemate));
        }
        if self.is_dead_material() {
            return Some((Verdict::Draw, Termination::DeadMaterial));
        }
        let limit = self.rules.draw.no_progress_plies;
        if limit > 0 && self.halfmove >= limit {
            return Some((Verdict::Draw, Termination::NoProgress));
        }
        None
    }

    /// Dead material by the variant's rule: kings plus one lone minor piece, or kings
    /// plus colour-bound pieces all on one square colour (docs/rules/README.md §6).
    pub fn is_dead_material(&self) -> bool {
        let r = self.rules;
        let others = self.occ & !self.by_type[r.king];
        if others.is_empty() {
            return true;
        }
        let mut lone = B::ZERO;
        let mut bound = B::ZERO;
        for t in 0..r.ntypes() {
            if r.draw.lone_minors >> t & 1 != 0 {
                lone |= self.by_type[t];
            }
            if r.draw.colour_bound >> t & 1 != 0 {
                bound |= self.by_type[t];
            }
        }
        if others.count() == 1 && (others & lone).any() {
            return true;
        }
        if (others & !bound).is_empty() {
            let dark = others.iter().filter(|&s| r.geo.is_dark(s)).count();
            return dark == 0 || dark == others.count() as usize;
        }
        false
    }
}
