//! Is a square attacked? Leapers by reverse tables, riders by the first blocker on each
//! line, and the Flying Bomber by the closed-form test of
//! docs/rules/flying-bombers-grand-chess.md §4.2.6, which depends on the square *behind*
//! the target: that is why callers pass the occupancy they mean.

use super::*;

impl<B: Bits> Position<B> {
    /// Would a piece of colour `!by` on `sq` be attacked by `by`, on a board whose occupancy
    /// is `occ` and whose `by` pieces are `attackers` (a subset of the real ones)?
    #[inline]
    pub fn attacked_with(&self, sq: usize, by: usize, occ: B, attackers: B) -> bool {
        let r = self.rules;
        for &t in &r.leap_attackers {
            if (r.leap_cap_rev[r.idx(by, t, sq)] & self.by_type[t] & attackers).any() {
                return true;
            }
        }
        if let (Some(p), Some(pt)) = (&r.pawn, r.pawn_type) {
            if self.pawn_capture[by] && (p.captures_rev[by][sq] & self.by_type[pt] & attackers).any() {
                return true;
            }
        }
        // Line attackers of `by` among `attackers`: a line without one cannot attack, whatever
        // stands first on it.
        let liners = self.of_types(r.line_attackers[by]) & attackers;
        if liners.any() {
            for (g, &line) in r.attack_groups.iter().zip(r.group_lines(sq)) {
                let types = g.types[by];
                if types == 0 || (line & liners).is_empty() {
                    continue;
                }
                // The first blocker on the line (`first_blocker`).
                let blockers = line & occ;
                if blockers.is_empty() {
                    continue;
                }
                let f = if g.positive { blockers.lsb() } else { blockers.msb() };
                if attackers.has(f) && types >> code_type(self.board[f]) & 1 != 0 {
                    return true;
                }
            }
        }
        if let Some(bt) = r.bomber {
            // Every square a bomber could take `sq` from lies in `bomber_lines[sq]`.
            let bombers = self.by_type[bt] & attackers & r.bomber_lines[sq];
            if bombers.any() && self.bomber_attacks(sq, bombers, occ, attackers) {
                return true;
            }
        }
        r.special_attackers[by] != 0 && self.special_attackers_to(sq, by, occ, attackers, true).any()
    }

    /// FBGC §4.2.6: does one of `bombers` remove the piece on `sq`?
    #[inline]
    fn bomber_attacks(&self, sq: usize, bombers: B, occ: B, attackers: B) -> bool {
        let r = self.rules;
        let step = &r.step;
        for u in 0..4 {
            let a1 = step[sq][u];
            if a1 == NO_SQUARE {
                continue;
            }
            let back = step[sq][(u + 2) & 3];
            let a1 = a1 as usize;
            // Adjacent: needs a square behind the target that holds no piece of the bomber's side.
            if bombers.has(a1) && back != NO_SQUARE && !attackers.has(back as usize) {
                return true;
            }
            let a2 = step[a1][u];
            if a2 == NO_SQUARE {
                continue;
            }
            let a2 = a2 as usize;
            // Distance two: always (helicopter, jump, or double capture).
            if bombers.has(a2) {
                return true;
            }
            if occ.has(a1) || occ.has(a2) || back == NO_SQUARE || occ.has(back as usize) {
                continue;
            }
            if let Some(f) = r.first_blocker(r.orth[u], a2, occ) {
                if bombers.has(f) {
                    return true;
                }
            }
        }
        false
    }

    /// Every piece of either colour among `pieces` that attacks `sq` on a board whose
    /// occupancy is `occ` (static exchange: pieces already traded off are left out of both).
    /// The Flying Bomber is not covered: its capture lands away from its victim, so an
    /// exchange on one square does not describe it.
    pub fn attackers_to(&self, sq: usize, occ: B, pieces: B) -> B {
        let r = self.rules;
        let mut found = B::ZERO;
        for by in 0..2 {
            let side = self.by_color[by] & pieces;
            for &t in &r.leap_attackers {
                found |= r.leap_cap_rev[r.idx(by, t, sq)] & self.by_type[t] & side;
            }
            if let (Some(p), Some(pt)) = (&r.pawn, r.pawn_type) {
                if self.pawn_capture[by] {
                    found |= p.captures_rev[by][sq] & self.by_type[pt] & side;
                }
            }
            if r.special_attackers[by] != 0 {
                found |= self.special_attackers_to(sq, by, occ, side, false);
            }
        }
        let liners = self.of_types(r.line_attackers[0] | r.line_attackers[1]) & pieces;
        if liners.is_empty() {
            return found;
        }
        for (g, &line) in r.attack_groups.iter().zip(r.group_lines(sq)) {
            if g.types == [0, 0] || (line & liners).is_empty() {
                continue;
            }
            found |= self.line_attacker(g, sq, occ, pieces);
        }
        found
    }

    /// The first piece on group `g`'s line from `sq` when it is among `pieces` and attacks
    /// along that line (as a one-square set; empty otherwise).
    #[inline]
    fn line_attacker(&self, g: &crate::rules::AttackGroup, sq: usize, occ: B, pieces: B) -> B {
        if let Some(f) = self.rules.first_blocker_along(g.ray, g.positive, sq, occ) {
            let c = self.board[f];
            if pieces.has(f) && g.types[code_color(c)] >> code_type(c) & 1 != 0 {
                return B::bit(f);
            }
        }
        B::ZERO
    }

    /// Every piece whose type is in the bit set `types` (bit t for type t), either colour.
    #[inline]
    pub(crate) fn of_types(&self, mut types: u16) -> B {
        let mut out = B::ZERO;
        while types != 0 {
            out |= self.by_type[types.trailing_zeros() as usize];
            types &= types - 1;
        }
        out
    }

    /// What `attackers_to(sq, occ, pieces)` gains over the same call before the piece on
    /// `gone` was taken out of `occ` and `pieces`: the first pieces on the lines from `sq`
    /// through `gone` (the other lines, leapers and pawns are as they were). A line whose
    /// first piece did not change yields that piece again, which the caller already has.
    /// With hoppers or lame leapers in the game a piece leaving can also hide an attacker
    /// (a screen or a leg gone), so the caller recomputes instead (see
    /// [`Rules::special_attackers`]).
    pub fn revealed_attackers(&self, sq: usize, gone: usize, occ: B, pieces: B) -> B {
        let r = self.rules;
        let mut found = B::ZERO;
        for (g, &line) in r.attack_groups.iter().zip(r.group_lines(sq)) {
            if g.types == [0, 0] || !line.has(gone) {
                continue;
            }
            found |= self.line_attacker(g, sq, occ, pieces);
        }
        found
    }

    #[inline]
    pub fn attacked(&self, sq: usize, by: usize) -> bool {
        self.attacked_with(sq, by, self.occ, self.by_color[by])
    }

    /// Is the side to move's royal piece attacked?
    #[inline]
    pub fn in_check(&self) -> bool {
        match self.king_square(self.side) {
            Some(k) => self.attacked(k, self.side ^ 1),
            None => false,
        }
    }
}

/// One piece type's move tables for one colour (see [`Position::reach`]).
pub struct Reach<B: 'static> {
    quiet: &'static [B],
    cap: &'static [B],
    riders: &'static [crate::rules::RiderAtom],
    /// The special atoms, if the type has any.
    special: Option<&'static [crate::rules::SpecialAtom]>,
    color: usize,
    bomber: bool,
}

impl<B: Bits> Position<B> {
    /// Mobility of the piece of type `t` and colour `color` on `sq` (squares it could move to
    /// or capture on, pseudo-legally; pawns excepted; a bomber counts its rook-like slides),
    /// and the squares it bears on: those it could
    /// capture on if an enemy stood there, own pieces included (they are defended). A
    /// bomber bears on its slides' squares and first blockers, which is where its
    /// overtaking captures start (an approximation its exact capture rule refines).
    /// Only squares in `area` count towards the mobility.
    #[inline]
    pub fn mobility_and_attacks(&self, sq: usize, t: usize, color: usize, area: B) -> (u32, B) {
        self.mobility_and_attacks_of(&self.reach(t, color), sq, area)
    }

    /// The move tables of type `t` and colour `color`, looked up once for all its pieces.
    #[inline(always)]
    pub fn reach(&self, t: usize, color: usize) -> Reach<B> {
        let r = self.rules;
        let base = r.idx(color, t, 0);
        Reach {
            quiet: &r.leap_quiet[base..base + r.nsq],
            cap: &r.leap_cap[base..base + r.nsq],
            riders: &r.riders[color * r.ntypes() + t],
            special: Some(&r.special[color * r.ntypes() + t][..]).filter(|s| !s.is_empty()),
            color,
            bomber: Some(t) == r.bomber,
        }
    }

    /// [`Position::mobility_and_attacks`] of the piece on `sq` whose tables are `p`.
    #[inline(always)]
    pub fn mobility_and_attacks_of(&self, p: &Reach<B>, sq: usize, area: B) -> (u32, B) {
        let r = self.rules;
        let empty = r.exists & !self.occ;
        let enemy = self.by_color[p.color ^ 1];
        let mut quiet = p.quiet[sq] & empty;
        let mut attacks = p.cap[sq];
        for a in p.riders {
            let att = r.rider_attacks(a, sq, self.occ);
            if a.mode & crate::variant::betza::MOVE != 0 {
                quiet |= att & empty;
            }
            if a.mode & crate::variant::betza::CAPTURE != 0 {
                attacks |= att;
            }
        }
        if let Some(special) = p.special {
            let (q, a) = self.special_bearing(special, sq, p.color);
            quiet |= q & empty;
            attacks |= a;
        }
        let caps = attacks & enemy;
        if p.bomber {
            for &ray in &r.orth {
                let att = r.ray_attacks(ray, sq, self.occ);
                quiet |= att & empty;
                attacks |= att;
            }
        }
        (((quiet | caps) & area).count(), attacks & r.exists)
    }
}

impl<B: Bits> Position<B> {
    /// The squares a piece of type `t` and colour `color` on `sq` bears on: the second half
    /// of [`Position::mobility_and_attacks`], without counting the moves.
    #[inline(always)]
    pub fn attacks_from(&self, sq: usize, t: usize, color: usize) -> B {
        let r = self.rules;
        let mut attacks = r.leap_cap[r.idx(color, t, sq)];
        for a in &r.riders[color * r.ntypes() + t] {
            if a.mode & crate::variant::betza::CAPTURE != 0 {
                attacks |= r.rider_attacks(a, sq, self.occ);
            }
        }
        let special = &r.special[color * r.ntypes() + t];
        // Most games have no hoppers or lame leapers: skip the call, not just its loop.
        if !special.is_empty() {
            attacks |= self.special_bearing(special, sq, color).1;
        }
        if Some(t) == r.bomber {
            for &ray in &r.orth {
                attacks |= r.ray_attacks(ray, sq, self.occ);
            }
        }
        attacks & r.exists
    }
}
