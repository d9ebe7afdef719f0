//! Bitboards sized to the board: `u64` for boards of at most 64 squares, `u128` above.
//!
//! Everything that touches squares is generic over [`Bits`], so each variant runs on the
//! narrowest integer that holds its board and 8x8 games keep 64-bit arithmetic.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

pub trait Bits:
    Copy
    + Eq
    + Debug
    + Hash
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// Number of squares this width can hold.
    const CAPACITY: usize;
    const ZERO: Self;
    fn bit(sq: usize) -> Self;
    fn count(self) -> u32;
    /// Lowest set square; undefined (returns CAPACITY) when empty.
    fn lsb(self) -> usize;
    /// Highest set square; callers guarantee non-empty.
    fn msb(self) -> usize;
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }
    #[inline(always)]
    fn any(self) -> bool {
        self != Self::ZERO
    }
    #[inline(always)]
    fn has(self, sq: usize) -> bool {
        (self & Self::bit(sq)).any()
    }
    /// Squares, lowest first.
    #[inline(always)]
    fn iter(self) -> SquareIter<Self> {
        SquareIter(self)
    }
    /// Only the lowest set bit.
    fn lowest(self) -> Self;
    fn to_u128(self) -> u128;
    /// The low squares of a `u128` mask (a mask of this board's squares loses nothing).
    fn from_u128(x: u128) -> Self;
    /// Shifted towards higher squares by `d` (lower when negative).
    #[inline(always)]
    fn shift(self, d: isize) -> Self {
        if d >= 0 {
            self << d as u32
        } else {
            self >> (-d) as u32
        }
    }
}

macro_rules! impl_bits {
    ($t:ty, $n:expr) => {
        impl Bits for $t {
            const CAPACITY: usize = $n;
            const ZERO: Self = 0;
            #[inline(always)]
            fn bit(sq: usize) -> Self {
                (1 as $t) << sq
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lsb(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline(always)]
            fn msb(self) -> usize {
                ($n - 1) - self.leading_zeros() as usize
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn from_u128(x: u128) -> Self {
                x as $t
            }
            #[inline(always)]
            fn lowest(self) -> Self {
                self & self.wrapping_neg()
            }
        }
    };
}
impl_bits!(u64, 64);
impl_bits!(u128, 128);

/// Iterates the set squares of a bitboard, lowest first.
pub struct SquareIter<B>(B);

impl<B: Bits> Iterator for SquareIter<B> {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            None
        } else {
            let sq = self.0.lsb();
            self.0 ^= self.0.lowest();
            Some(sq)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scans_agree_for_both_widths() {
        let a: u64 = (1 << 3) | (1 << 40);
        assert_eq!((a.lsb(), a.msb(), a.count()), (3, 40, 2));
        let b: u128 = (1 << 5) | (1 << 99);
        assert_eq!((b.lsb(), b.msb()), (5, 99));
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![5, 99]);
        assert_eq!(b.lowest(), 1 << 5);
    }
}
