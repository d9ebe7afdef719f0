//! Perft: counts leaf nodes of the legal move tree, the ground truth for move generation.

use super::*;
use std::fmt;

/// Deepest perft the library runs. Each ply of the recursion holds a move list on the
/// stack, so a depth in the thousands would overflow it; and far shallower trees already
/// take longer than anyone waits (chess perft 15 has about 2 * 10^21 leaves).
pub const MAX_PERFT_DEPTH: u32 = 30;

/// Why a perft was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerftError {
    /// The depth is above [`MAX_PERFT_DEPTH`].
    TooDeep { depth: u32, max: u32 },
}

impl fmt::Display for PerftError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PerftError::TooDeep { depth, max } => write!(f, "depth {depth}: perft goes at most {max} plies deep"),
        }
    }
}

impl std::error::Error for PerftError {}

fn check_depth(depth: u32) -> Result<(), PerftError> {
    if depth > MAX_PERFT_DEPTH {
        return Err(PerftError::TooDeep { depth, max: MAX_PERFT_DEPTH });
    }
    Ok(())
}

impl<B: Bits> Position<B> {
    /// Leaf count at `depth`, counting the last ply without making its moves. A depth
    /// above [`MAX_PERFT_DEPTH`] is refused.
    pub fn perft(&mut self, depth: u32) -> Result<u64, PerftError> {
        check_depth(depth)?;
        Ok(self.count_leaves(depth))
    }

    /// Perft that makes and unmakes every move, leaves included (measures make/unmake).
    pub fn perft_full(&mut self, depth: u32) -> Result<u64, PerftError> {
        check_depth(depth)?;
        Ok(self.count_leaves_full(depth))
    }

    /// Per-root-move counts, in generation order.
    pub fn divide(&mut self, depth: u32) -> Result<Vec<(Move, u64)>, PerftError> {
        check_depth(depth)?;
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        Ok(list
            .iter()
            .map(|&m| {
                let undo = self.make(m);
                let n = if depth <= 1 { 1 } else { self.count_leaves(depth - 1) };
                self.unmake(m, &undo);
                (m, n)
            })
            .collect())
    }

    /// King-capture games end when a king is taken: such a node has no children.
    fn king_taken(&self) -> bool {
        self.rules.is_king_capture() && (self.king_square(0).is_none() || self.king_square(1).is_none())
    }

    fn count_leaves(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.king_taken() {
            return 0;
        }
        if depth == 1 {
            return self.count_legal();
        }
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        let mut n = 0;
        for &m in list.iter() {
            let undo = self.make(m);
            n += self.count_leaves(depth - 1);
            self.unmake(m, &undo);
        }
        n
    }

    fn count_leaves_full(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.king_taken() {
            return 0;
        }
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        let mut n = 0;
        for &m in list.iter() {
            let undo = self.make(m);
            n += self.count_leaves_full(depth - 1);
            self.unmake(m, &undo);
        }
        n
    }
}
