//! Moves off the fast tables: hoppers, lame leaps and multi-leg moves, whose reach depends
//! on squares other than a ray's first blocker, and initial moves, which depend on where
//! the piece stands.
//! They are kept per piece type as a short list of atoms, walked one at a time by move
//! generation and attack tests; a game without them never looks at the list.

use super::{Bits, Geometry, NO_SQUARE};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpecialKind {
    /// An ordinary leap or ride, kept here because it is an initial move (a leap is a
    /// ride of range 1).
    Slide,
    /// Cannon: beyond the first piece, up to and including the next.
    Hop,
    /// Grasshopper: the square right behind the first piece.
    Grasshop,
    /// A leap whose leg squares must be empty.
    Lame,
    /// A multi-leg move: the path `Rules::leg_paths[path]`.
    Legs,
}

#[derive(Debug, Clone, Copy)]
pub struct SpecialAtom {
    pub kind: SpecialKind,
    /// `MOVE | CAPTURE` bits.
    pub mode: u8,
    /// Only from the piece's side's `Rules::initial_zone`.
    pub initial: bool,
    /// The ray moved along: the atom's own for a slide, the unlimited one for hoppers.
    pub ray: u16,
    /// The unlimited ray the other way, which attack tests look back along.
    pub back: u16,
    /// One square along / against the direction (grasshoppers).
    pub step: u16,
    pub back_step: u16,
    /// Lame leaps: the atom's block in `Rules::lame`, indexed `lame + square`.
    pub lame: u32,
    /// Multi-leg moves: the path's index in `Rules::leg_paths`.
    pub path: u32,
}

/// One lame leap from one square.
#[derive(Debug, Clone, Copy)]
pub struct LameLeap<B> {
    /// Where the leap lands (NO_SQUARE if off the board).
    pub to: u8,
    /// The leg: squares that must be empty.
    pub path: B,
    /// The square a leap of this atom to here starts from (NO_SQUARE if none).
    pub source: u8,
}

impl<B: Bits> LameLeap<B> {
    /// The landing square as a set (empty if the leap leaves the board).
    #[inline(always)]
    pub fn to_set(&self) -> B {
        if self.to == NO_SQUARE {
            B::ZERO
        } else {
            B::bit(self.to as usize)
        }
    }
}

/// The leg of a leap by (dx, dy) from `sq`, stepping each time along the longer remaining
/// leg (diagonally when both are equal), as Fairy-Stockfish walks it: the xiangqi horse's
/// leg is the orthogonal neighbour, the elephant's the diagonal one. `None` when the leap
/// or its leg leaves the board.
fn leg<B: Bits>(geo: &Geometry, sq: usize, dx: i32, dy: i32) -> Option<(usize, B)> {
    let to = geo.offset(sq, dx, dy)?;
    let (mut x, mut y) = (0, 0);
    let mut path = B::ZERO;
    loop {
        let (rx, ry) = (dx - x, dy - y);
        match rx.abs().cmp(&ry.abs()) {
            std::cmp::Ordering::Greater => x += rx.signum(),
            std::cmp::Ordering::Less => y += ry.signum(),
            std::cmp::Ordering::Equal => {
                x += rx.signum();
                y += ry.signum();
            }
        }
        if (x, y) == (dx, dy) {
            return Some((to, path));
        }
        path |= B::bit(geo.offset(sq, x, y)?);
    }
}

/// The lame-leap block of step (dx, dy), for every square.
pub fn lame_block<B: Bits>(geo: &Geometry, dx: i32, dy: i32) -> Vec<LameLeap<B>> {
    let n = geo.squares();
    let mut block = vec![LameLeap { to: NO_SQUARE, path: B::ZERO, source: NO_SQUARE }; n];
    for sq in (0..n).filter(|&s| geo.exists(s)) {
        if let Some((to, path)) = leg::<B>(geo, sq, dx, dy) {
            block[sq].to = to as u8;
            block[sq].path = path;
            block[to].source = sq as u8;
        }
    }
    block
}
