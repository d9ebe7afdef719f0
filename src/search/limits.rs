//! Search limits: depth, nodes, move time, clock. Node and depth limits never look at the
//! clock, so a search under them is deterministic.

use std::time::Duration;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    /// Remaining time and increment of the side to move.
    pub time: Option<Duration>,
    pub inc: Duration,
    pub movestogo: Option<u32>,
    pub infinite: bool,
}

impl Limits {
    pub fn depth(d: u32) -> Limits {
        Limits { depth: Some(d), ..Default::default() }
    }

    pub fn nodes(n: u64) -> Limits {
        Limits { nodes: Some(n), ..Default::default() }
    }

    /// (soft, hard) time budget for this move, if the clock matters.
    pub fn budget(&self) -> Option<(Duration, Duration)> {
        if let Some(t) = self.movetime {
            return Some((t, t));
        }
        let left = self.time?;
        let moves = self.movestogo.unwrap_or(30).clamp(1, 60);
        let soft = left / moves + self.inc * 3 / 4;
        let hard = (soft * 3).min(left / 2);
        Some((soft.min(hard), hard))
    }
}
