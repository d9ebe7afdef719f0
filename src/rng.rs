//! A small seeded generator (splitmix64): every random choice in fairylab comes from one,
//! so a run is reproduced by its printed seed.

#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// An independent stream for `(seed, stream)`: both are hashed, so nearby seeds or
    /// indices never give shifted copies of one sequence.
    pub fn derive(seed: u64, stream: u64) -> Rng {
        let mut a = Rng::new(seed);
        let h = a.next_u64();
        let mut b = Rng::new(h ^ stream.wrapping_mul(0xD6E8_FEB8_6659_FD93));
        Rng::new(b.next_u64())
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0), without modulo bias worth caring about for n << 2^64.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}
