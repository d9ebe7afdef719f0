//! A position of some variant: bitboards per type and colour, a mailbox, and game state.

mod attacks;
mod bomber;
mod fen;
mod legs;
pub use fen::FenError;
mod legal;
mod make;
pub mod movegen;
pub mod moves;
pub mod outcome;
mod pawns;
mod perft;
mod special;
pub use perft::{PerftError, MAX_PERFT_DEPTH};

pub use attacks::Reach;
pub use make::{NullUndo, Undo};
pub use moves::{Move, MoveList};

use crate::rules::{Bits, Rules, MAX_TYPES, NO_SQUARE};

/// Mailbox code of a piece: 0 = empty, otherwise `1 + 2 * type + colour`.
#[inline(always)]
pub fn code(t: usize, color: usize) -> u8 {
    (1 + 2 * t + color) as u8
}
#[inline(always)]
pub fn code_type(c: u8) -> usize {
    (c as usize - 1) >> 1
}
#[inline(always)]
pub fn code_color(c: u8) -> usize {
    (c as usize - 1) & 1
}

#[derive(Clone, Copy)]
pub struct Position<B: Bits> {
    pub rules: &'static Rules<B>,
    by_type: [B; MAX_TYPES],
    by_color: [B; 2],
    occ: B,
    board: [u8; 128],
    side: usize,
    castling: u8,
    /// Squares a multi-step pawn passed over (NO_SQUARE when unused).
    ep: [u8; 2],
    ep_victim: u8,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
    /// Setup field (Bland Chess 46): type per slot, per colour.
    setup: [[u8; 4]; 2],
    pawn_capture: [bool; 2],
    /// Promotion types per colour (bit per type).
    promo_types: [u16; 2],
}

impl<B: Bits> Position<B> {
    #[inline(always)]
    pub fn side(&self) -> usize {
        self.side
    }
    #[inline(always)]
    pub fn occupied(&self) -> B {
        self.occ
    }
    #[inline(always)]
    pub fn color_bb(&self, c: usize) -> B {
        self.by_color[c]
    }
    #[inline(always)]
    pub fn type_bb(&self, t: usize) -> B {
        self.by_type[t]
    }
    #[inline(always)]
    pub fn pieces(&self, color: usize, t: usize) -> B {
        self.by_type[t] & self.by_color[color]
    }
    /// Mailbox code on a square (0 = empty).
    #[inline(always)]
    pub fn code_at(&self, sq: usize) -> u8 {
        self.board[sq]
    }
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    pub fn halfmove(&self) -> u32 {
        self.halfmove
    }
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }
    pub fn castling(&self) -> u8 {
        self.castling
    }

    /// The side's royal piece square, if it has one on the board.
    #[inline(always)]
    /// An upper bound on the moves of either side here and in every position played from
    /// here (see [`crate::rules::move_bounds`]).
    pub fn move_bound(&self) -> u32 {
        let r = self.rules;
        (0..2)
            .map(|c| {
                let pieces: u32 =
                    (0..r.ntypes()).map(|t| (self.by_type[t] & self.by_color[c]).count() * r.move_bounds[c][t]).sum();
                pieces + r.castling.iter().filter(|o| o.color == c).count() as u32
            })
            .max()
            .unwrap_or(0)
    }

    pub fn king_square(&self, color: usize) -> Option<usize> {
        let k = self.pieces(color, self.rules.king);
        k.any().then(|| k.lsb())
    }

    #[inline(always)]
    fn put(&mut self, sq: usize, c: u8) {
        let b = B::bit(sq);
        self.by_type[code_type(c)] |= b;
        self.by_color[code_color(c)] |= b;
        self.occ |= b;
        self.board[sq] = c;
        self.hash ^= self.rules.zobrist.piece[c as usize * 128 + sq];
    }

    #[inline(always)]
    fn remove(&mut self, sq: usize) -> u8 {
        let c = self.board[sq];
        let b = B::bit(sq);
        self.by_type[code_type(c)] ^= b;
        self.by_color[code_color(c)] ^= b;
        self.occ ^= b;
        self.board[sq] = 0;
        self.hash ^= self.rules.zobrist.piece[c as usize * 128 + sq];
        c
    }

    /// Pawns of `color` standing on its promotion rank (Noble WingS waiting pawns).
    #[inline(always)]
    pub fn waiting_pawns(&self, color: usize) -> B {
        match (&self.rules.pawn, self.rules.pawn_type) {
            (Some(p), Some(pt)) if p.only_lost => self.pieces(color, pt) & p.promo_zone[color],
            _ => B::ZERO,
        }
    }

    /// E.p. key: included only when a pawn of the side to move attacks a passed square,
    /// so positions that differ only by an unusable e.p. square hash alike.
    #[inline(always)]
    fn ep_key(&self) -> u64 {
        // Most positions have no passed square: answered without a call.
        if self.ep[0] == NO_SQUARE {
            0
        } else {
            self.passed_square_key()
        }
    }

    /// [`Position::ep_key`] of a position with a passed square.
    fn passed_square_key(&self) -> u64 {
        let (Some(p), Some(pt)) = (&self.rules.pawn, self.rules.pawn_type) else {
            return 0;
        };
        if self.ep[0] == NO_SQUARE || !self.pawn_capture[self.side] {
            return 0;
        }
        let pawns = self.pieces(self.side, pt);
        let mut key = 0;
        let mut usable = false;
        for &e in self.ep.iter().filter(|&&e| e != NO_SQUARE) {
            key ^= self.rules.zobrist.ep[e as usize];
            usable |= (p.captures_rev[self.side][e as usize] & pawns).any();
        }
        if usable {
            key
        } else {
            0
        }
    }

    /// Hash recomputed from scratch (tests compare it with the incremental one).
    pub fn compute_hash(&self) -> u64 {
        let z = &self.rules.zobrist;
        let mut h = 0;
        for sq in self.occ.iter() {
            h ^= z.piece[self.board[sq] as usize * 128 + sq];
        }
        if self.side == 1 {
            h ^= z.side;
        }
        for bit in 0..8 {
            if self.castling & (1 << bit) != 0 {
                h ^= z.castle[bit];
            }
        }
        h ^ self.ep_key()
    }

    /// Internal consistency of the redundant representations (for tests).
    pub fn is_consistent(&self) -> bool {
        let mut occ = B::ZERO;
        for sq in 0..self.rules.nsq {
            let c = self.board[sq];
            if c != 0 {
                if !self.by_type[code_type(c)].has(sq) || !self.by_color[code_color(c)].has(sq) {
                    return false;
                }
                occ |= B::bit(sq);
            }
        }
        let types = self.by_type.iter().fold(B::ZERO, |a, &b| a | b);
        occ == self.occ
            && types == occ
            && (self.by_color[0] | self.by_color[1]) == occ
            && (self.by_color[0] & self.by_color[1]).is_empty()
    }

    /// Types the side may promote to by the rules (before "only lost pieces").
    pub fn promotion_types(&self, color: usize) -> u16 {
        self.promo_types[color]
    }

    pub fn setup_slots(&self, color: usize) -> &[u8] {
        let n = self.rules.setup.as_ref().map_or(0, |s| s.slots[color].len());
        &self.setup[color][..n]
    }

    /// Machine notation of a move (`e2e4`, `d2d1q`, `b7b8` for a waiting pawn).
    pub fn move_name(&self, m: Move) -> String {
        let geo = &self.rules.geo;
        let mut s = geo.name(m.from()) + &geo.name(m.to());
        if let Some(t) = m.promo() {
            s.push(self.rules.types[t].letter.to_ascii_lowercase());
        }
        s
    }
}

impl<B: Bits> Position<B> {
    /// Removes the piece on `sq` as a position edit (imbalance openings), not a move:
    /// castling rights that needed it and a stale e.p. target go, the hash is recomputed.
    pub fn remove_piece(&mut self, sq: usize) -> Result<(), String> {
        let r = self.rules;
        let c = self.board[sq];
        if c == 0 {
            return Err(format!("no piece on {}", r.geo.name(sq)));
        }
        if code_type(c) == r.king {
            return Err("the royal piece cannot be removed".into());
        }
        self.remove(sq);
        let mut keep = 0u8;
        for o in &r.castling {
            let king_home = self.board[o.king_from as usize] == code(r.king, o.color);
            let rook_home = self.board[o.rook_from as usize] == code(o.rook_type, o.color);
            if king_home && rook_home {
                keep |= 1 << o.right;
            }
        }
        self.castling &= keep;
        if self.ep_victim as usize == sq {
            self.ep = [NO_SQUARE; 2];
            self.ep_victim = NO_SQUARE;
        }
        self.hash = self.compute_hash();
        Ok(())
    }
}
