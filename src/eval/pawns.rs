//! What the pawns alone decide (their attacks, outposts, passed pawns and structure counts),
//! and a cache of it by pawn placement: positions in a search share a few pawn structures,
//! so most evaluations read this instead of walking every pawn again.

use super::layout::{Layout, NO_STOP};
use crate::position::Position;
use crate::rules::Bits;

/// Per colour, the structure counts of its pawns.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PawnCounts {
    /// Sum of the passed pawns' progress, and of its squares.
    pub passed: f32,
    pub rank2: f32,
    pub doubled: u32,
    pub isolated: u32,
    pub supported: u32,
    pub phalanx: u32,
    /// No own pawn can ever guard the stop square, which an enemy pawn holds or attacks.
    pub backward: u32,
    /// Isolated or backward with no enemy pawn ahead on the file.
    pub unopposed: u32,
}

/// Everything in the evaluation that depends on the pawns' squares only.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PawnInfo<B: Bits> {
    /// Squares each side's pawns attack.
    pub attacks: [B; 2],
    /// Squares in the enemy half an own pawn defends and no enemy pawn can ever attack.
    pub outposts: [B; 2],
    /// Pawns with no enemy pawn ahead on their own or the adjacent files.
    pub passed: [B; 2],
    pub counts: [PawnCounts; 2],
}

impl<B: Bits> PawnInfo<B> {
    pub fn new(pos: &Position<B>, l: &Layout) -> PawnInfo<B> {
        let mut info = PawnInfo::default();
        let (Some(pt), Some(rule)) = (pos.rules.pawn_type, pos.rules.pawn.as_ref()) else { return info };
        let m = B::from_u128;
        for color in 0..2 {
            for sq in pos.pieces(color, pt).iter() {
                info.attacks[color] |= rule.captures[color][sq];
            }
        }
        for color in 0..2 {
            let pawns = pos.pieces(color, pt);
            let theirs = pos.pieces(color ^ 1, pt);
            for sq in (info.attacks[color] & m(l.enemy_half[color])).iter() {
                if (m(l.front_span[color][sq] & l.adjacent_files[sq]) & theirs).is_empty() {
                    info.outposts[color] |= B::bit(sq);
                }
            }
            let defenders = &rule.captures_rev[color];
            let c = &mut info.counts[color];
            for sq in pawns.iter() {
                if (defenders[sq] & pawns).any() {
                    c.supported += 1;
                }
                if (m(l.beside[sq]) & pawns).any() {
                    c.phalanx += 1;
                }
                if (m(l.front_span[color][sq]) & theirs).is_empty() {
                    let p = l.progress[color][sq];
                    c.passed += p;
                    c.rank2 += p * p;
                    info.passed[color] |= B::bit(sq);
                }
                if (m(l.front_file[color][sq]) & pawns).any() {
                    c.doubled += 1;
                }
                let lone = (m(l.adjacent_files[sq]) & pawns).is_empty();
                if lone {
                    c.isolated += 1;
                }
                let stop = l.stop[color][sq];
                let back = !lone
                    && stop != NO_STOP
                    && (theirs.has(stop) || info.attacks[color ^ 1].has(stop))
                    && (m(l.adjacent_files[sq] & !l.front_span[color][stop]) & pawns).is_empty();
                if back {
                    c.backward += 1;
                }
                if (lone || back) && (m(l.front_file[color][sq]) & theirs).is_empty() {
                    c.unopposed += 1;
                }
            }
        }
        info
    }
}

const SLOTS: usize = 1 << 13;

/// A direct-mapped cache of [`PawnInfo`] keyed by both sides' pawns, compared in full, so
/// a hit returns exactly what [`PawnInfo::new`] would.
pub struct PawnCache<B: Bits> {
    entries: Vec<Entry<B>>,
}

/// An empty slot is the pawnless structure's entry: no pawns, nothing counted.
#[derive(Clone, Copy, Default)]
struct Entry<B: Bits> {
    key: [B; 2],
    info: PawnInfo<B>,
}

impl<B: Bits> Default for PawnCache<B> {
    fn default() -> Self {
        PawnCache { entries: vec![Entry::default(); SLOTS] }
    }
}

impl<B: Bits> PawnCache<B> {
    /// The pawn terms of `pos`, computed on a miss.
    #[inline]
    pub fn get(&mut self, pos: &Position<B>, l: &Layout) -> &PawnInfo<B> {
        let key = match pos.rules.pawn_type {
            Some(pt) => [pos.pieces(0, pt), pos.pieces(1, pt)],
            None => [B::ZERO; 2],
        };
        let e = &mut self.entries[slot_of(key)];
        if e.key != key {
            *e = Entry { key, info: PawnInfo::new(pos, l) };
        }
        &e.info
    }
}

/// A slot from the pawn bitboards: a multiplicative mix of both, fixed across runs.
#[inline(always)]
fn slot_of<B: Bits>(key: [B; 2]) -> usize {
    let x = key[0].to_u128() ^ key[1].to_u128().rotate_left(61);
    let h = ((x as u64) ^ (x >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> (64 - SLOTS.trailing_zeros())) as usize
}
