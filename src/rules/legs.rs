//! Multi-leg moves compiled: each path a short fixed array of legs, each leg the one-step
//! ray it walks along, so a walk is table lookups with nothing allocated.

use super::NO_SQUARE;
use crate::variant::betza::legs::{FRIEND, HOP, MAX_LEGS};
use crate::variant::betza::{CAPTURE, MOVE};

/// One compiled leg.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LegStep {
    /// The ray of one step of the leg's atom (its landing square, if any, from each square).
    pub step: u16,
    /// How many steps the leg may take (1 for a leap, 0 unlimited).
    pub range: u32,
    /// `MOVE | CAPTURE | HOP | FRIEND` bits (see `variant::betza::legs`).
    pub mode: u8,
}

/// One multi-leg path of one colour.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LegPath {
    pub legs: [LegStep; MAX_LEGS],
    pub n: u8,
}

/// An upper bound on the moves `path` makes from `sq` in any position: a leg that may end
/// on an empty square branches at each square it passes, one that ends on a piece only
/// does so once (at the first piece), and the last leg ends once per square it reaches.
/// An occupied square may end a leg two ways (removed, or jumped), so that counts twice.
/// `next(step, sq)` is the square one step on, or NO_SQUARE.
pub fn bound(path: &LegPath, leg: usize, sq: usize, next: &dyn Fn(u16, usize) -> u8) -> u32 {
    let l = &path.legs[leg];
    let last = leg + 1 == path.n as usize;
    let mut cur = sq;
    let (mut sum, mut most, mut n) = (0u32, 0u32, 0u32);
    loop {
        let q = next(l.step, cur);
        if q == NO_SQUARE {
            break;
        }
        let q = q as usize;
        let on = if last { 1 } else { bound(path, leg + 1, q, next) };
        sum += on;
        most = most.max(on);
        n += 1;
        if l.range != 0 && n >= l.range {
            break;
        }
        cur = q;
    }
    let ways = (l.mode & CAPTURE != 0) as u32 + (l.mode & (HOP | FRIEND) != 0) as u32;
    if last || l.mode & MOVE != 0 {
        sum * ways.max(1)
    } else {
        most * ways.max(1)
    }
}
