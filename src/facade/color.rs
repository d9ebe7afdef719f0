//! The two sides, as the library surface names them.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    White,
    Black,
}

impl Color {
    /// 0 for White, 1 for Black: the index the per-side tables and
    /// [`Board::material`](crate::Board::material) use.
    pub fn index(self) -> usize {
        match self {
            Color::White => 0,
            Color::Black => 1,
        }
    }

    pub fn from_index(i: usize) -> Option<Color> {
        match i {
            0 => Some(Color::White),
            1 => Some(Color::Black),
            _ => None,
        }
    }

    pub fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The FEN side-to-move letter, `w` or `b`.
    pub fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Compares with the FEN letter, so code written against the old `char` surface
/// (`side_to_move() == 'w'`) keeps its meaning.
impl PartialEq<char> for Color {
    fn eq(&self, other: &char) -> bool {
        self.letter() == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_letter_and_opposite_agree() {
        for c in [Color::White, Color::Black] {
            assert_eq!(Color::from_index(c.index()), Some(c));
            assert_ne!(c.opposite(), c);
            assert_eq!(c.opposite().opposite(), c);
            assert_eq!(c.to_string(), c.letter().to_string());
            assert!(c == c.letter() && c != c.opposite().letter());
        }
        assert_eq!(Color::from_index(2), None);
        assert_eq!((Color::White.letter(), Color::Black.letter()), ('w', 'b'));
    }
}
