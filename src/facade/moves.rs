//! Typed moves at the library surface: a [`Move`] is one the board generated, so it
//! knows its squares, promotion and whether it captures, and prints as UCI text.

use super::{Board, Error, Variant};
use crate::position::moves::{self as raw, Move as RawMove};
use std::fmt;

/// A square as written in moves and FENs (`e4`, `j10`, `a0` on boards whose ranks start at 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Square {
    file: u8,
    rank: i16,
}

impl Square {
    pub(crate) fn new(file: usize, rank: i32) -> Square {
        // Boards have at most 26 files and 128 squares, so both fit.
        Square { file: file as u8, rank: rank as i16 }
    }

    /// File index from 0 (the a-file).
    pub fn file(self) -> usize {
        self.file as usize
    }

    /// Rank number as written in the square's name.
    pub fn rank(self) -> i32 {
        self.rank as i32
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file) as char, self.rank)
    }
}

/// A legal move of some position, from [`Board::legal_moves`] or [`Board::parse_move`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Move {
    raw: RawMove,
    variant: Variant,
}

impl Move {
    pub(crate) fn new(raw: RawMove, variant: Variant) -> Move {
        Move { raw, variant }
    }

    pub(crate) fn raw(self) -> RawMove {
        self.raw
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn from(&self) -> Square {
        self.variant.square(self.raw.from())
    }

    /// Where the moving piece lands (for a bomber's overtaking capture, past its victim).
    pub fn to(&self) -> Square {
        self.variant.square(self.raw.to())
    }

    /// The letter (as in the variant file, upper case) of the piece a pawn promotes to.
    pub fn promotion(&self) -> Option<char> {
        self.raw.promo().map(|t| self.variant.type_letter(t))
    }

    /// Removes at least one enemy piece. Decided by the kind of move, not by material
    /// counts: a promotion changes material without capturing.
    pub fn is_capture(&self) -> bool {
        self.raw.is_capture()
    }

    /// The squares whose pieces the move removes: none, one, or two for a bomber's double
    /// capture; en passant and overtaking victims are not on [`Move::to`].
    pub fn victims(&self) -> Vec<Square> {
        let r = self.raw;
        let squares: &[usize] = match r.kind() {
            raw::CAPTURE => &[r.to()],
            raw::EN_PASSANT | raw::BOMB => &[r.aux()],
            raw::DOUBLE => &[r.aux(), r.to()],
            _ => &[],
        };
        squares.iter().map(|&s| self.variant.square(s)).collect()
    }
}

/// UCI text, the same as the engines and PGN files use (`e2e4`, `d2d1q`, `b7b8`).
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        match self.promotion() {
            Some(p) => write!(f, "{}", p.to_ascii_lowercase()),
            None => Ok(()),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

/// What [`Board::play`] accepts: a typed move, or its UCI text (checked against the board).
pub trait IntoMove {
    fn resolve(self, board: &Board) -> Result<Move, Error>;
}

impl IntoMove for Move {
    fn resolve(self, _: &Board) -> Result<Move, Error> {
        Ok(self)
    }
}

impl IntoMove for &Move {
    fn resolve(self, _: &Board) -> Result<Move, Error> {
        Ok(*self)
    }
}

/// UCI text: `&str`, `&String`, and references to them as iterators hand them out.
impl<T: AsRef<str> + ?Sized> IntoMove for &T {
    fn resolve(self, board: &Board) -> Result<Move, Error> {
        board.parse_move(self.as_ref())
    }
}
