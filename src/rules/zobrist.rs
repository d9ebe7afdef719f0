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

/// splitmix64: a tiny generator with good key quality.
pub fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Zobrist {
    pub fn new(piece_codes: usize) -> Zobrist {
        let mut s = 0x5EED_FA1B_u64;
        let piece = (0..piece_codes * 128).map(|_| splitmix(&mut s)).collect();
        let side = splitmix(&mut s);
        let castle = std::array::from_fn(|_| splitmix(&mut s));
        let ep = std::array::from_fn(|_| splitmix(&mut s));
        Zobrist {
            piece,
            side,
            castle,
            ep,
        }
    }
}
