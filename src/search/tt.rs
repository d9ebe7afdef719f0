//! Transposition table: buckets of two entries, one kept for the deepest search seen and
//! one always replaced, so quiescence results (depth 0) cannot evict deep entries. The
//! policy depends only on what was stored, so searches stay deterministic.

use crate::position::Move;

#[derive(Clone, Copy, Default)]
pub struct Entry {
    pub key: u64,
    pub mv: Move,
    pub score: i32,
    pub depth: i16,
    pub bound: u8,
    /// The search that stored it: entries of earlier moves give way to the current one's.
    generation: u8,
    /// The node was searched as a PV node, or its stored entry said so: reductions can
    /// spare the positions the principal variation has passed through.
    pub pv: bool,
}

pub const EXACT: u8 = 1;
pub const LOWER: u8 = 2;
pub const UPPER: u8 = 3;

/// Whether a stored score with `bound` settles a node searched in (alpha, beta).
#[inline]
pub fn cuts(bound: u8, score: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        EXACT => true,
        LOWER => score >= beta,
        UPPER => score <= alpha,
        _ => false,
    }
}

/// The bound a search result `best` carries for a node entered with (alpha, beta): alpha
/// only rises to a score that was found exactly, so `best` against the window decides.
#[inline]
pub fn bound_of(best: i32, alpha: i32, beta: i32) -> u8 {
    if best >= beta {
        LOWER
    } else if best > alpha {
        EXACT
    } else {
        UPPER
    }
}

#[derive(Clone, Copy, Default)]
struct Bucket {
    deep: Entry,
    recent: Entry,
}

pub struct Tt {
    buckets: Vec<Bucket>,
    mask: usize,
    generation: u8,
}

impl Tt {
    pub fn new(mb: usize) -> Tt {
        let n = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Bucket>()).next_power_of_two() / 2;
        let n = n.max(512);
        Tt { buckets: vec![Bucket::default(); n], mask: n - 1, generation: 0 }
    }

    pub fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| *b = Bucket::default());
        self.generation = 0;
    }

    /// Called once per search, so the deep slots of earlier searches become replaceable.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = &self.buckets[key as usize & self.mask];
        if b.deep.key == key && b.deep.bound != 0 {
            Some(b.deep)
        } else if b.recent.key == key && b.recent.bound != 0 {
            Some(b.recent)
        } else {
            None
        }
    }

    #[inline]
    pub fn store(&mut self, key: u64, mv: Move, score: i32, depth: i32, bound: u8, pv: bool) {
        let generation = self.generation;
        let b = &mut self.buckets[key as usize & self.mask];
        let deep = b.deep;
        let into_deep =
            deep.key == key || deep.bound == 0 || deep.generation != generation || depth >= deep.depth as i32;
        let slot = if into_deep {
            if deep.key != key && deep.bound != 0 {
                // The displaced deep entry still beats an empty or older recent one.
                b.recent = deep;
            }
            &mut b.deep
        } else {
            &mut b.recent
        };
        // Keep the old move when the new entry has none for the same position.
        let mv = if mv == Move::NULL && slot.key == key { slot.mv } else { mv };
        *slot = Entry { key, mv, score, depth: depth as i16, bound, generation, pv };
    }
}
