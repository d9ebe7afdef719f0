//! Zobrist keys: fixed, so hashes are the same in every run and on every machine.

#[derive(Debug, Clone)]
pub struct Zobrist {
    /// Indexed `piece_code * 128 + square`.
    pub piece: Vec<u64>,
    pub side: u64,
    /// One key per castling-right bit.
    pub castle: [u64; 8],
    pub ep: [u64; 128],
}

impl Zobrist {
    pub fn new(piece_codes: usize) -> Zobrist {
        let mut rng = crate::rng::Rng::new(0x5EED_FA1B);
        let piece = (0..piece_codes * 128).map(|_| rng.next_u64()).collect();
        let side = rng.next_u64();
        let castle = std::array::from_fn(|_| rng.next_u64());
        let ep = std::array::from_fn(|_| rng.next_u64());
        Zobrist { piece, side, castle, ep }
    }
}
