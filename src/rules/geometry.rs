//! The board rectangle, which of its squares exist, and square names.

/// Square index: `(rank - first_rank) * files + file`.
pub type Square = usize;
pub const NO_SQUARE: u8 = u8::MAX;

#[derive(Debug, Clone)]
pub struct Geometry {
    pub files: usize,
    pub ranks: usize,
    pub first_rank: i32,
    exists: Vec<bool>,
}

impl Geometry {
    pub fn new(files: usize, ranks: usize, first_rank: i32) -> Result<Geometry, String> {
        if files == 0 || ranks == 0 || files > 26 || files.saturating_mul(ranks) > 128 {
            return Err(format!("board {files}x{ranks}: need 1-26 files and at most 128 squares"));
        }
        Ok(Geometry { files, ranks, first_rank, exists: vec![true; files * ranks] })
    }

    pub fn squares(&self) -> usize {
        self.files * self.ranks
    }

    pub fn remove(&mut self, sq: Square) {
        self.exists[sq] = false;
    }

    pub fn exists(&self, sq: Square) -> bool {
        self.exists[sq]
    }

    pub fn file(&self, sq: Square) -> i32 {
        (sq % self.files) as i32
    }

    /// Rank index from 0 (not the rank number).
    pub fn rank(&self, sq: Square) -> i32 {
        (sq / self.files) as i32
    }

    /// The square at (file, rank index) if it is inside the rectangle and exists.
    pub fn at(&self, file: i32, rank: i32) -> Option<Square> {
        if file < 0 || rank < 0 || file >= self.files as i32 || rank >= self.ranks as i32 {
            return None;
        }
        let sq = rank as usize * self.files + file as usize;
        self.exists[sq].then_some(sq)
    }

    pub fn offset(&self, sq: Square, dx: i32, dy: i32) -> Option<Square> {
        self.at(self.file(sq) + dx, self.rank(sq) + dy)
    }

    /// The same file on the rank mirrored for the other side.
    pub fn mirror(&self, sq: Square) -> Square {
        (self.ranks - 1 - sq / self.files) * self.files + sq % self.files
    }

    pub fn name(&self, sq: Square) -> String {
        format!("{}{}", (b'a' + self.file(sq) as u8) as char, self.rank(sq) + self.first_rank)
    }

    /// Parses a square name such as `e4`, `j10` or `a0`; inside the rectangle, existing or not.
    pub fn parse_any(&self, name: &str) -> Option<Square> {
        let mut chars = name.chars();
        let f = chars.next()?;
        if !f.is_ascii_lowercase() {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 3 {
            return None;
        }
        let rank: i32 = digits.parse().ok()?;
        let (file, rank) = ((f as u8 - b'a') as i32, rank - self.first_rank);
        if file >= self.files as i32 || rank < 0 || rank >= self.ranks as i32 {
            return None;
        }
        Some(rank as usize * self.files + file as usize)
    }

    /// Parses the name of an existing square.
    pub fn parse(&self, name: &str) -> Option<Square> {
        self.parse_any(name).filter(|&s| self.exists[s])
    }

    /// Rank index of a rank number as written in square names.
    pub fn rank_index(&self, rank_number: i32) -> Option<i32> {
        let r = rank_number - self.first_rank;
        (r >= 0 && r < self.ranks as i32).then_some(r)
    }

    /// Dark squares have (file + rank number) even with a = 1 (docs/rules/README.md §2).
    pub fn is_dark(&self, sq: Square) -> bool {
        (self.file(sq) + 1 + self.rank(sq) + self.first_rank) % 2 == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_with_two_digit_and_zero_ranks() {
        let g = Geometry::new(10, 10, 1).unwrap();
        assert_eq!(g.name(99), "j10");
        assert_eq!(g.parse("j10"), Some(99));
        assert_eq!(g.parse("k1"), None);
        assert_eq!(g.parse("a11"), None);
        let h = Geometry::new(8, 10, 0).unwrap();
        assert_eq!(h.parse("a0"), Some(0));
        assert_eq!(h.name(8), "a1");
        assert!(h.is_dark(8) && !h.is_dark(0) && h.is_dark(7));
        assert_eq!(h.mirror(0), 72);
    }
}
