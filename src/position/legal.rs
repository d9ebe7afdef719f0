//! Legal moves: pseudo-legal moves filtered by king safety.
//!
//! Orthodox pin masks are wrong against bombers (docs/rules/flying-bombers-grand-chess.md
//! §4.2.6), so the filter is built on a sound over-approximation instead: a move needs
//! the full make/test only if the side is in check, it moves the king, it is en passant
//! or castling, it vacates (or changes the colour of) a square on a line from the king
//! that holds an enemy line-attacker (for bombers also the square behind the king), or it
//! may convert an enemy waiting pawn.
//! Every other move cannot expose the king, because placing a piece never creates an
//! attack on one's own king. Against hoppers that is false (a piece placed on the line
//! becomes a screen), so a side facing an enemy hopper or lame leaper tests every move.

use super::movegen::Sink;
use super::moves::*;
use super::*;

/// Counts every move.
struct Counter(u64);

impl<B: Bits> Sink<B> for Counter {
    #[inline(always)]
    fn bulk(&mut self, _: &Position<B>, _: usize, to: B, _: u32) {
        self.0 += to.count() as u64;
    }
    #[inline(always)]
    fn one(&mut self, _: &Position<B>, _: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn shifted(&mut self, _: &Position<B>, to: B, _: isize, _: u32) {
        self.0 += to.count() as u64;
    }
}

/// Counts legal moves when not in check: safe moves by population count, king steps by
/// an attack test, and keeps the rest for make/test.
struct LeafCounter<B> {
    king: usize,
    danger: B,
    count: u64,
    pending: MoveList,
}

impl<B: Bits> Sink<B> for LeafCounter<B> {
    #[inline(always)]
    fn bulk(&mut self, pos: &Position<B>, from: usize, to: B, kind: u32) {
        if from == self.king {
            for t in to.iter() {
                self.count += pos.king_step_safe(from, t) as u64;
            }
        } else if self.danger.has(from) {
            for t in to.iter() {
                self.pending.push(Move::new(from, t, kind));
            }
        } else if kind == CAPTURE {
            self.count += (to & !self.danger).count() as u64;
            for t in (to & self.danger).iter() {
                self.pending.push(Move::new(from, t, kind));
            }
        } else {
            self.count += to.count() as u64;
        }
    }
    #[inline(always)]
    fn one(&mut self, _: &Position<B>, m: Move) {
        let kind = m.kind();
        if kind == EN_PASSANT || kind == CASTLE || (Position::<B>::vacated(m) & self.danger).any() {
            self.pending.push(m);
        } else {
            self.count += 1;
        }
    }
    #[inline(always)]
    fn shifted(&mut self, _: &Position<B>, to: B, delta: isize, kind: u32) {
        // Pawns standing on danger squares, or captures on them, need the full test.
        let mut risky = self.danger.shift(delta);
        if kind == CAPTURE {
            risky |= self.danger;
        }
        self.count += (to & !risky).count() as u64;
        for t in (to & risky).iter() {
            self.pending.push(Move::new((t as isize - delta) as usize, t, kind));
        }
    }
}

/// Keeps only captures and promotions: the moves quiescence search looks at. Skipping the
/// quiet moves before they are built spares their legality tests too.
struct Noisy<'a>(&'a mut MoveList);

impl<B: Bits> Sink<B> for Noisy<'_> {
    #[inline(always)]
    fn bulk(&mut self, pos: &Position<B>, from: usize, to: B, kind: u32) {
        if is_capture_kind(kind) {
            self.0.bulk(pos, from, to, kind);
        }
    }
    #[inline(always)]
    fn one(&mut self, _: &Position<B>, m: Move) {
        if m.is_capture() || m.promo().is_some() {
            self.0.push(m);
        }
    }
    #[inline(always)]
    fn shifted(&mut self, pos: &Position<B>, to: B, delta: isize, kind: u32) {
        if is_capture_kind(kind) {
            self.0.shifted(pos, to, delta, kind);
        }
    }
}

/// What the legality filter needs to know about the position, computed once per node.
#[derive(Clone, Copy)]
pub struct LegalContext<B> {
    pub king: Option<usize>,
    pub in_check: bool,
    /// Squares whose vacating may expose the king.
    pub danger: B,
    /// Captures may convert an enemy waiting pawn (Noble WingS).
    pub conversions: bool,
    /// King capture games: every pseudo-legal move is legal.
    pub all_legal: bool,
}

impl<B: Bits> Position<B> {
    pub fn legal_context(&self) -> LegalContext<B> {
        let r = self.rules;
        let us = self.side;
        let them = us ^ 1;
        let king = self.king_square(us);
        let mut ctx =
            LegalContext { king, in_check: false, danger: B::ZERO, conversions: false, all_legal: r.is_king_capture() };
        let Some(k) = king else {
            ctx.all_legal = true;
            return ctx;
        };
        if ctx.all_legal {
            return ctx;
        }
        ctx.in_check = self.attacked(k, them);
        let enemy = self.by_color[them];
        // The enemy's line attackers: a line without one adds no danger.
        let liners = self.of_types(r.line_attackers[them]) & enemy;
        for (g, &line) in r.attack_groups.iter().zip(r.group_lines(k)) {
            let mut types = g.types[them];
            if types == 0 || liners.is_empty() {
                continue;
            }
            if (line & liners).is_empty() {
                continue;
            }
            let mut attackers = B::ZERO;
            while types != 0 {
                let t = types.trailing_zeros() as usize;
                types &= types - 1;
                attackers |= self.by_type[t];
            }
            if (line & attackers & enemy).any() {
                ctx.danger |= line;
            }
        }
        if let Some(bt) = r.bomber {
            let bombers = self.by_type[bt] & enemy;
            if bombers.any() {
                for d in 0..4 {
                    let line = r.ray(r.orth[d], k);
                    if (line & bombers).any() {
                        ctx.danger |= line;
                        let back = r.step[k][(d + 2) & 3];
                        if back != NO_SQUARE {
                            ctx.danger |= B::bit(back as usize);
                        }
                    }
                }
            }
        }
        if r.special_attackers[them] != 0 && (self.of_types(r.special_attackers[them]) & enemy).any() {
            // A hopper's screen or a lame leaper's leg may be any square, and placing a
            // piece can complete a hopper's attack: every move gets the full test.
            ctx.danger = r.exists;
        }
        ctx.conversions = self.waiting_pawns(them).any();
        ctx
    }

    /// Squares whose occupant a move removes or replaces (origin and victims).
    #[inline(always)]
    fn vacated(m: Move) -> B {
        let b = B::bit(m.from());
        match m.kind() {
            CAPTURE => b | B::bit(m.to()),
            BOMB => b | B::bit(m.aux()),
            DOUBLE => b | B::bit(m.aux()) | B::bit(m.to()),
            _ => b,
        }
    }

    /// Decides legality of a pseudo-legal move.
    #[inline]
    pub fn is_legal(&mut self, m: Move, ctx: &LegalContext<B>) -> bool {
        if ctx.all_legal {
            return true;
        }
        let kind = m.kind();
        let king = ctx.king.unwrap();
        if !ctx.in_check && kind != EN_PASSANT && kind != CASTLE && !(ctx.conversions && m.is_capture()) {
            if m.from() == king {
                return self.king_step_safe(king, m.to());
            }
            if (Self::vacated(m) & ctx.danger).is_empty() {
                return true;
            }
        }
        self.leaves_king_safe(m)
    }

    /// Is the king safe after stepping (or capturing) from `king` to `to`? Tested with
    /// the king lifted from its square, as bombers see the square behind it.
    #[inline(always)]
    fn king_step_safe(&self, king: usize, to: usize) -> bool {
        let them = self.side ^ 1;
        let occ = (self.occ & !B::bit(king)) | B::bit(to);
        !self.attacked_with(to, them, occ, self.by_color[them] & !B::bit(to))
    }

    /// Number of legal moves, most of them counted by population count (bulk perft).
    pub fn count_legal(&mut self) -> u64 {
        let ctx = self.legal_context();
        if ctx.all_legal {
            let mut c = Counter(0);
            self.generate_into(&mut c);
            return c.0;
        }
        if ctx.in_check || ctx.conversions {
            let mut list = MoveList::new();
            self.legal_moves(&mut list);
            return list.len() as u64;
        }
        let mut c = LeafCounter { king: ctx.king.unwrap(), danger: ctx.danger, count: 0, pending: MoveList::new() };
        self.generate_into(&mut c);
        let mut n = c.count;
        for &m in c.pending.iter() {
            n += self.leaves_king_safe(m) as u64;
        }
        n
    }

    /// Full test: make, look at the own king, unmake.
    #[inline]
    pub fn leaves_king_safe(&mut self, m: Move) -> bool {
        let us = self.side;
        let undo = self.make(m);
        let safe = match self.king_square(us) {
            Some(k) => !self.attacked(k, us ^ 1),
            None => true,
        };
        self.unmake(m, &undo);
        safe
    }

    /// Appends all legal moves of the side to move.
    pub fn legal_moves(&mut self, list: &mut MoveList) {
        let start = list.len();
        self.generate(list);
        self.keep_legal(list, start);
    }

    /// Appends the legal captures and promotions of the side to move.
    pub fn legal_noisy_moves(&mut self, list: &mut MoveList) {
        let start = list.len();
        self.generate_into(&mut Noisy(list));
        self.keep_legal(list, start);
    }

    fn keep_legal(&mut self, list: &mut MoveList, start: usize) {
        let ctx = self.legal_context();
        if ctx.all_legal {
            return;
        }
        let mut i = start;
        while i < list.len() {
            if self.is_legal(list[i], &ctx) {
                i += 1;
            } else {
                list.swap_remove(i);
            }
        }
    }

    /// Legal moves in generation order (allocates; for tools and tests, not the hot path).
    pub fn legal_move_vec(&self) -> Vec<Move> {
        let mut p = *self;
        let mut list = MoveList::new();
        p.legal_moves(&mut list);
        list.to_vec()
    }
}

impl<B: Bits> Position<B> {
    /// Legal moves by the definition alone (make, test, unmake every pseudo-legal move);
    /// the reference the fast filter is checked against.
    pub fn legal_moves_by_definition(&mut self, list: &mut MoveList) {
        self.generate(list);
        if self.rules.is_king_capture() || self.king_square(self.side).is_none() {
            return;
        }
        let mut i = 0;
        while i < list.len() {
            if self.leaves_king_safe(list[i]) {
                i += 1;
            } else {
                list.swap_remove(i);
            }
        }
    }
}
