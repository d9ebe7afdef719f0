//! Perft: counts leaf nodes of the legal move tree, the ground truth for move generation.

use super::*;

impl<B: Bits> Position<B> {
    /// Leaf count at `depth`, counting the last ply without making its moves.
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        // King-capture games end when a king is taken: such a node has no children.
        if self.rules.is_king_capture() && (self.king_square(0).is_none() || self.king_square(1).is_none()) {
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
            n += self.perft(depth - 1);
            self.unmake(m, &undo);
        }
        n
    }

    /// Perft that makes and unmakes every move, leaves included (measures make/unmake).
    pub fn perft_full(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.rules.is_king_capture() && (self.king_square(0).is_none() || self.king_square(1).is_none()) {
            return 0;
        }
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        let mut n = 0;
        for &m in list.iter() {
            let undo = self.make(m);
            n += self.perft_full(depth - 1);
            self.unmake(m, &undo);
        }
        n
    }

    /// Per-root-move counts, in generation order.
    pub fn divide(&mut self, depth: u32) -> Vec<(Move, u64)> {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.iter()
            .map(|&m| {
                let undo = self.make(m);
                let n = if depth <= 1 { 1 } else { self.perft(depth - 1) };
                self.unmake(m, &undo);
                (m, n)
            })
            .collect()
    }
}
