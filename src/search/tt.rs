//! Transposition table: one entry per bucket, always replaced (simple and deterministic).

use crate::position::Move;

#[derive(Clone, Copy, Default)]
pub struct Entry {
    pub key: u64,
    pub mv: Move,
    pub score: i32,
    pub depth: i16,
    pub bound: u8,
}

pub const EXACT: u8 = 1;
pub const LOWER: u8 = 2;
pub const UPPER: u8 = 3;

pub struct Tt {
    entries: Vec<Entry>,
    mask: usize,
}

impl Tt {
    pub fn new(mb: usize) -> Tt {
        let n = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Entry>()).next_power_of_two() / 2;
        Tt { entries: vec![Entry::default(); n.max(1024)], mask: n.max(1024) - 1 }
    }

    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = Entry::default());
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[key as usize & self.mask];
        (e.key == key && e.bound != 0).then_some(e)
    }

    #[inline]
    pub fn store(&mut self, key: u64, mv: Move, score: i32, depth: i32, bound: u8) {
        let e = &mut self.entries[key as usize & self.mask];
        // Keep the old move when the new entry has none for the same position.
        let mv = if mv == Move::NULL && e.key == key { e.mv } else { mv };
        *e = Entry { key, mv, score, depth: depth as i16, bound };
    }
}
