//! Make and unmake. A move removes up to two pieces, a bomber lands away from its victim,
//! and in Noble WingS a capture may convert the victim side's waiting pawn: the undo
//! record carries all of it.

use super::moves::*;
use super::*;

#[derive(Clone, Copy, Debug)]
pub struct Undo {
    /// Removed pieces (mailbox codes, 0 = none) and their squares.
    captured: [u8; 2],
    captured_sq: [u8; 2],
    /// Waiting pawns converted by this move's captures.
    converted: [u8; 2],
    castling: u8,
    ep: [u8; 2],
    ep_victim: u8,
    halfmove: u32,
    hash: u64,
}

impl Undo {
    pub fn captured(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        (0..2).filter(|&i| self.captured[i] != 0).map(|i| (self.captured_sq[i] as usize, self.captured[i]))
    }
}

impl<B: Bits> Position<B> {
    pub fn make(&mut self, m: Move) -> Undo {
        let r = self.rules;
        let z = &r.zobrist;
        let us = self.side;
        let them = us ^ 1;
        let (from, to, kind) = (m.from(), m.to(), m.kind());
        let mut undo = Undo {
            captured: [0; 2],
            captured_sq: [NO_SQUARE; 2],
            converted: [NO_SQUARE; 2],
            castling: self.castling,
            ep: self.ep,
            ep_victim: self.ep_victim,
            halfmove: self.halfmove,
            hash: self.hash,
        };
        self.hash ^= self.ep_key();
        self.ep = [NO_SQUARE; 2];
        self.ep_victim = NO_SQUARE;
        let mut keep = r.castle_keep[from] & r.castle_keep[to];
        self.halfmove = self.halfmove.wrapping_add(1);

        match kind {
            CASTLE => {
                let o = &r.castling[m.aux()];
                let king = self.remove(from);
                let rook = self.remove(o.rook_from as usize);
                self.put(to, king);
                self.put(o.rook_to as usize, rook);
                keep &= r.castle_keep[o.rook_from as usize];
            }
            _ => {
                let mut n = 0;
                let mut take = |pos: &mut Self, sq: usize| {
                    undo.captured[n] = pos.remove(sq);
                    undo.captured_sq[n] = sq as u8;
                    n += 1;
                };
                match kind {
                    CAPTURE => take(self, to),
                    EN_PASSANT | BOMB => take(self, m.aux()),
                    DOUBLE => {
                        take(self, m.aux());
                        take(self, to);
                    }
                    _ => {}
                }
                if n > 0 {
                    self.halfmove = 0;
                    for i in 0..n {
                        keep &= r.castle_keep[undo.captured_sq[i] as usize];
                    }
                }
                let mut piece = self.remove(from);
                if Some(code_type(piece)) == r.pawn_type {
                    self.halfmove = 0;
                    // Without en passant a double step passes no square anyone may take on:
                    // the position keeps none, so its FEN reads back and its hash equals the
                    // same position reached by single steps.
                    if kind == MULTI && r.pawn.as_ref().is_some_and(|p| p.en_passant) {
                        let p = r.pawn.as_ref().unwrap();
                        let mut cur = p.push[us][from];
                        let mut i = 0;
                        while cur as usize != to {
                            self.ep[i] = cur;
                            i += 1;
                            cur = p.push[us][cur as usize];
                        }
                        self.ep_victim = to as u8;
                    }
                }
                if let Some(t) = m.promo() {
                    piece = code(t, us);
                }
                self.put(to, piece);
                // Noble WingS: the loser's waiting pawn becomes the lost piece at once.
                if n > 0 && self.waiting_pawns(them).any() {
                    for i in 0..n {
                        let t = code_type(undo.captured[i]);
                        let waiting = self.waiting_pawns(them);
                        if Some(t) != r.pawn_type && t != r.king && waiting.any() {
                            let w = waiting.lsb();
                            self.remove(w);
                            self.put(w, code(t, them));
                            undo.converted[i] = w as u8;
                        }
                    }
                }
            }
        }

        let new_castling = self.castling & keep;
        let changed = self.castling ^ new_castling;
        if changed != 0 {
            for bit in 0..8 {
                if changed & (1 << bit) != 0 {
                    self.hash ^= z.castle[bit];
                }
            }
            self.castling = new_castling;
        }
        self.side = them;
        self.hash ^= z.side;
        if us == 1 {
            self.fullmove = self.fullmove.wrapping_add(1); // a FEN may set the counter to its maximum
        }
        self.hash ^= self.ep_key();
        undo
    }

    pub fn unmake(&mut self, m: Move, undo: &Undo) {
        let r = self.rules;
        let them = self.side;
        let us = them ^ 1;
        self.side = us;
        if us == 1 {
            self.fullmove = self.fullmove.wrapping_sub(1);
        }
        let (from, to) = (m.from(), m.to());
        if m.kind() == CASTLE {
            let o = &r.castling[m.aux()];
            let king = self.remove(to);
            let rook = self.remove(o.rook_to as usize);
            self.put(from, king);
            self.put(o.rook_from as usize, rook);
        } else {
            for &w in undo.converted.iter().rev() {
                if w != NO_SQUARE {
                    self.remove(w as usize);
                    self.put(w as usize, code(r.pawn_type.unwrap(), them));
                }
            }
            let mut piece = self.remove(to);
            if m.promo().is_some() {
                piece = code(r.pawn_type.unwrap(), us);
            }
            self.put(from, piece);
            for i in 0..2 {
                if undo.captured[i] != 0 {
                    self.put(undo.captured_sq[i] as usize, undo.captured[i]);
                }
            }
        }
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.ep_victim = undo.ep_victim;
        self.halfmove = undo.halfmove;
        self.hash = undo.hash;
    }
}

/// What a null move changes, for undoing it.
#[derive(Clone, Copy, Debug)]
pub struct NullUndo {
    ep: [u8; 2],
    ep_victim: u8,
    hash: u64,
}

impl<B: Bits> Position<B> {
    /// Passes the move (search only: null-move pruning).
    pub fn make_null(&mut self) -> NullUndo {
        let undo = NullUndo { ep: self.ep, ep_victim: self.ep_victim, hash: self.hash };
        self.hash ^= self.ep_key();
        self.ep = [NO_SQUARE; 2];
        self.ep_victim = NO_SQUARE;
        self.side ^= 1;
        self.hash ^= self.rules.zobrist.side;
        undo
    }

    pub fn unmake_null(&mut self, undo: &NullUndo) {
        self.side ^= 1;
        self.ep = undo.ep;
        self.ep_victim = undo.ep_victim;
        self.hash = undo.hash;
    }
}
