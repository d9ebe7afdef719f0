//! The move type and a fixed-capacity move list (no allocation on the hot path).
//!
//! A move is 32 bits: from (7), to (7), kind (3), promotion type + 1 (5), aux square (7).
//! `aux` is the overflown victim of a bomber capture, the victim of en passant, or the
//! castling option; so a move removes up to two pieces and may land away from its victim.

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Move(pub u32);

pub const QUIET: u32 = 0;
/// Captures the piece on `to` by replacement.
pub const CAPTURE: u32 = 1;
/// A pawn's multi-step advance; sets the e.p. squares.
pub const MULTI: u32 = 2;
/// En passant; victim on `aux`.
pub const EN_PASSANT: u32 = 3;
/// Castling; `aux` = index into the variant's castling options.
pub const CASTLE: u32 = 4;
/// Bomber overtaking capture: victim on `aux`, lands on the empty `to`.
pub const BOMB: u32 = 5;
/// Bomber double capture: victims on `aux` and `to`.
pub const DOUBLE: u32 = 6;

/// Whether moves of this kind remove at least one enemy piece.
#[inline(always)]
pub fn is_capture_kind(kind: u32) -> bool {
    matches!(kind, CAPTURE | EN_PASSANT | BOMB | DOUBLE)
}

impl Move {
    pub const NULL: Move = Move(0);

    #[inline(always)]
    pub fn new(from: usize, to: usize, kind: u32) -> Move {
        Move(from as u32 | (to as u32) << 7 | kind << 14)
    }
    #[inline(always)]
    pub fn with_aux(self, aux: usize) -> Move {
        Move(self.0 | (aux as u32) << 22)
    }
    #[inline(always)]
    pub fn with_promo(self, t: usize) -> Move {
        Move(self.0 | (t as u32 + 1) << 17)
    }
    #[inline(always)]
    pub fn from(self) -> usize {
        (self.0 & 0x7F) as usize
    }
    #[inline(always)]
    pub fn to(self) -> usize {
        (self.0 >> 7 & 0x7F) as usize
    }
    #[inline(always)]
    pub fn kind(self) -> u32 {
        self.0 >> 14 & 7
    }
    #[inline(always)]
    pub fn promo(self) -> Option<usize> {
        let p = self.0 >> 17 & 0x1F;
        (p != 0).then(|| p as usize - 1)
    }
    #[inline(always)]
    pub fn aux(self) -> usize {
        (self.0 >> 22 & 0x7F) as usize
    }
    /// Removes at least one enemy piece.
    #[inline(always)]
    pub fn is_capture(self) -> bool {
        is_capture_kind(self.kind())
    }
}

use std::mem::MaybeUninit;

pub const MAX_MOVES: usize = 1024;

pub struct MoveList {
    // Left uninitialised: lists are created at every node, and zeroing 4 KB each time
    // costs more than generating the moves.
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    pub fn new() -> MoveList {
        MoveList { moves: [const { MaybeUninit::uninit() }; MAX_MOVES], len: 0 }
    }
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES);
        // Positions whose pieces could have more moves are refused when parsed (and a
        // variant with such a start position when loaded), so this never drops a move; it
        // stays as the memory-safety guard of the unchecked array.
        if self.len < MAX_MOVES {
            self.moves[self.len] = MaybeUninit::new(m);
            self.len += 1;
        }
    }
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    #[inline(always)]
    pub fn truncate(&mut self, n: usize) {
        self.len = n.min(self.len);
    }
    #[inline(always)]
    pub fn swap_remove(&mut self, i: usize) {
        assert!(i < self.len);
        self.len -= 1;
        self.moves[i] = self.moves[self.len];
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    #[inline(always)]
    fn deref(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const Move, self.len) }
    }
}

impl std::ops::DerefMut for MoveList {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Move] {
        // SAFETY: as in `deref`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr() as *mut Move, self.len) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip() {
        let m = Move::new(99, 127, DOUBLE).with_aux(98).with_promo(15);
        assert_eq!((m.from(), m.to(), m.kind(), m.aux(), m.promo()), (99, 127, DOUBLE, 98, Some(15)));
        assert!(m.is_capture());
        assert_eq!(Move::new(1, 2, QUIET).promo(), None);
    }
}
