//! A direct-mapped cache of static evaluations by position hash. Entries are checked by the
//! full key, so a hit returns exactly what the evaluation would: searches stay the same
//! node for node, only faster.

const SIZE: usize = 1 << 16;

pub struct EvalCache {
    entries: Vec<(u64, i32)>,
}

impl EvalCache {
    pub fn new() -> EvalCache {
        EvalCache { entries: vec![(0, 0); SIZE] }
    }

    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = (0, 0));
    }

    #[inline]
    pub fn get(&self, key: u64) -> Option<i32> {
        let e = self.entries[key as usize & (SIZE - 1)];
        // Key 0 marks an empty slot; a real position hashing to 0 is merely never cached.
        (e.0 == key && key != 0).then_some(e.1)
    }

    #[inline]
    pub fn put(&mut self, key: u64, value: i32) {
        self.entries[key as usize & (SIZE - 1)] = (key, value);
    }
}
