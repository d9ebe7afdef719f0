//! The extended FEN of the rules (docs/rules/README.md §3): holes as `*`, multi-digit
//! counts, up to two e.p. squares, and Bland Chess 46's setup field.

use super::*;
use crate::rules::{Promotion, WHITE};
use std::fmt;

/// Why a FEN was refused: the kind says which part is at fault (callers and tests match on
/// it), the text names the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Empty, no side to move, or more fields than the variant uses.
    Fields(String),
    /// The board field: rows, cells, holes, piece letters.
    Board(String),
    /// Not exactly one royal piece a side (a king-capture game may lack one).
    Royals(String),
    /// The side-to-move field.
    Turn(String),
    Castling(String),
    EnPassant(String),
    /// The halfmove or fullmove counter.
    Counters(String),
    /// Bland Chess 46's setup field.
    Setup(String),
    /// The side that just moved is in check, so the side to move could take its king:
    /// unreachable where the game is won by checkmate.
    OppositeCheck,
    /// So many pieces that a position played from it could have more moves than a move
    /// list holds (the variant's start position too: such a variant does not load).
    TooManyMoves {
        bound: u32,
    },
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Fields(m)
            | FenError::Board(m)
            | FenError::Royals(m)
            | FenError::Turn(m)
            | FenError::Castling(m)
            | FenError::EnPassant(m)
            | FenError::Counters(m)
            | FenError::Setup(m) => f.write_str(m),
            FenError::OppositeCheck => {
                f.write_str("the side not to move is in check (its king could be taken): not a position of this game")
            }
            FenError::TooManyMoves { bound } => write!(
                f,
                "its pieces could have up to {bound} moves in one position, more than the {} fairylab handles",
                moves::MAX_MOVES
            ),
        }
    }
}

impl std::error::Error for FenError {}

impl From<FenError> for String {
    fn from(e: FenError) -> String {
        e.to_string()
    }
}

impl<B: Bits> Position<B> {
    pub fn from_fen(rules: &'static Rules<B>, fen: &str) -> Result<Position<B>, FenError> {
        // The steps run in field order, so a FEN wrong in several places is refused for its
        // first fault.
        let fields = split_fields(rules, fen)?;
        let mut pos = Position::empty(rules);
        pos.read_board(fields[0])?;
        pos.check_royals()?;
        pos.side = read_side(fields[1])?;
        pos.read_castling(fields.get(2).copied().unwrap_or("-"))?;
        pos.read_en_passant(fields.get(3).copied().unwrap_or("-"))?;
        // Both counters are capped so that counting on from any FEN cannot overflow.
        pos.halfmove = read_counter(&fields, 4, 0, "halfmove")?.min(u32::MAX / 2);
        pos.fullmove = read_counter(&fields, 5, 1, "fullmove")?.clamp(1, u32::MAX / 2);
        pos.read_setup(fields.get(6).copied())?;
        pos.set_promotion_types();
        pos.check_playable()?;
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    fn empty(rules: &'static Rules<B>) -> Position<B> {
        Position {
            rules,
            by_type: [B::ZERO; MAX_TYPES],
            by_color: [B::ZERO; 2],
            occ: B::ZERO,
            board: [0; 128],
            side: WHITE,
            castling: 0,
            ep: [NO_SQUARE; 2],
            ep_victim: NO_SQUARE,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            setup: [[0; 4]; 2],
            pawn_capture: [true; 2],
            promo_types: [0; 2],
        }
    }

    fn read_board(&mut self, field: &str) -> Result<(), FenError> {
        let geo = &self.rules.geo;
        let rows: Vec<&str> = field.split('/').collect();
        if rows.len() != geo.ranks {
            return Err(FenError::Board(format!(
                "board field has {} rows, the board has {} ranks",
                rows.len(),
                geo.ranks
            )));
        }
        for (i, row) in rows.iter().enumerate() {
            self.read_row(geo.ranks - 1 - i, row)?;
        }
        Ok(())
    }

    /// One rank of the board field, top rank first in the FEN; `rank` is its index.
    fn read_row(&mut self, rank: usize, row: &str) -> Result<(), FenError> {
        let rules = self.rules;
        let geo = &rules.geo;
        let rank_name = rank as i32 + geo.first_rank;
        let err = |m: String| FenError::Board(format!("rank {rank_name}{m}"));
        let too_wide = || err(format!(": more than {} cells", geo.files));
        let cell = |f: usize| rank * geo.files + f;
        let mut file = 0usize;
        let chars: Vec<char> = row.chars().collect();
        let mut j = 0;
        while j < chars.len() {
            let c = chars[j];
            if c.is_ascii_digit() {
                let mut n = 0usize;
                while j < chars.len() && chars[j].is_ascii_digit() {
                    // Saturating: a run of digits longer than any board is too wide, not a panic.
                    n = n.saturating_mul(10).saturating_add(chars[j].to_digit(10).unwrap() as usize);
                    j += 1;
                }
                if n == 0 {
                    return Err(err(": empty-square count 0".into()));
                }
                for _ in 0..n {
                    if file >= geo.files {
                        return Err(too_wide());
                    }
                    if !geo.exists(cell(file)) {
                        return Err(err(format!(
                            ": a count covers the missing square {} (write '*')",
                            geo.name(cell(file))
                        )));
                    }
                    file += 1;
                }
                continue;
            }
            if file >= geo.files {
                return Err(too_wide());
            }
            let sq = cell(file);
            if c == '*' {
                if geo.exists(sq) {
                    return Err(err(format!(": '*' on {}, which exists", geo.name(sq))));
                }
            } else {
                let t = rules.type_of_letter(c).filter(|_| c.is_ascii_alphabetic());
                let t = t.ok_or_else(|| err(format!(": unknown piece letter '{c}'")))?;
                if !geo.exists(sq) {
                    return Err(err(format!(": piece '{c}' on the missing square {}", geo.name(sq))));
                }
                let color = if c.is_ascii_uppercase() { WHITE } else { 1 };
                self.put(sq, code(t, color));
            }
            file += 1;
            j += 1;
        }
        if file != geo.files {
            return Err(err(format!(" has {file} cells, the board has {} files", geo.files)));
        }
        Ok(())
    }

    fn check_royals(&self) -> Result<(), FenError> {
        let rules = self.rules;
        for color in 0..2 {
            let n = self.pieces(color, rules.king).count();
            let who = if color == WHITE { "White" } else { "Black" };
            let king = rules.types[rules.king].letter;
            if n > 1 {
                return Err(FenError::Royals(format!("{who} has {n} royal pieces ({king}); exactly one is needed")));
            }
            // A king-capture game may reach (and write) a position without one king.
            if n == 0 && !rules.is_king_capture() {
                return Err(FenError::Royals(format!("{who} has no royal piece ({king})")));
            }
        }
        Ok(())
    }

    fn read_castling(&mut self, field: &str) -> Result<(), FenError> {
        if field == "-" {
            return Ok(());
        }
        let rules = self.rules;
        for c in field.chars() {
            let color = if c.is_ascii_uppercase() { WHITE } else { 1 };
            let up = c.to_ascii_uppercase();
            let Some(&(index, _)) = rules.right_letters.iter().find(|&&(_, l)| l == up) else {
                return Err(FenError::Castling(format!(
                    "castling field: '{c}' is not a castling right of this variant"
                )));
            };
            let bit = 1u8 << (color as u8 * 4 + index);
            if self.castling & bit != 0 {
                return Err(FenError::Castling(format!("castling field: '{c}' repeated")));
            }
            let ok = rules.castling.iter().any(|o| {
                o.color == color
                    && o.right == color as u8 * 4 + index
                    && self.board[o.king_from as usize] == code(rules.king, color)
                    && self.board[o.rook_from as usize] == code(o.rook_type, color)
            });
            if !ok {
                return Err(FenError::Castling(format!(
                    "castling field: right '{c}' but king or rook is not on its start square"
                )));
            }
            self.castling |= bit;
        }
        Ok(())
    }

    /// Up to two squares a pawn of the side that just moved passed over (comma-separated).
    fn read_en_passant(&mut self, field: &str) -> Result<(), FenError> {
        if field == "-" {
            return Ok(());
        }
        let rules = self.rules;
        let (Some(p), Some(pt)) = (&rules.pawn, rules.pawn_type) else {
            return Err(FenError::EnPassant("e.p. field: this variant has no pawns".into()));
        };
        if !p.en_passant {
            return Err(FenError::EnPassant("e.p. field: this variant has no en passant".into()));
        }
        let err = |m: &str| FenError::EnPassant(format!("e.p. field '{field}': {m}"));
        let them = self.side ^ 1;
        let squares: Vec<&str> = field.split(',').collect();
        if squares.len() > 2 || squares.len() as u32 > p.multi_step - 1 {
            return Err(err("too many squares"));
        }
        for (i, name) in squares.iter().enumerate() {
            let sq = rules
                .geo
                .parse(name)
                .ok_or_else(|| FenError::EnPassant(format!("e.p. field: '{name}' is not a square")))?;
            if self.board[sq] != 0 {
                return Err(FenError::EnPassant(format!("e.p. field: {name} is occupied")));
            }
            if i > 0 && p.push[them][self.ep[i - 1] as usize] as usize != sq {
                return Err(err("squares are not consecutive along a pawn's path"));
            }
            self.ep[i] = sq as u8;
        }
        let last = self.ep[squares.len() - 1] as usize;
        let victim = p.push[them][last];
        if victim == NO_SQUARE || self.board[victim as usize] != code(pt, them) {
            return Err(err("no pawn of the side that just moved stands behind it"));
        }
        // The first passed square is one step from the pawn's start rank.
        let origin = (0..rules.nsq).find(|&s| p.push[them][s] == self.ep[0]);
        if !origin.is_some_and(|o| p.start[them].has(o)) {
            return Err(err("not the squares passed by a pawn leaving its start rank"));
        }
        self.ep_victim = victim;
        Ok(())
    }

    /// Bland Chess 46's setup field (`NW/WW`); the variant's default where it is left out.
    fn read_setup(&mut self, field: Option<&str>) -> Result<(), FenError> {
        let Some(setup) = &self.rules.setup else { return Ok(()) };
        let mut sides = [setup.default[0].clone(), setup.default[1].clone()];
        if let Some(field) = field {
            let parts: Vec<&str> = field.split('/').collect();
            if parts.len() != 2 {
                return Err(FenError::Setup(format!("setup field '{field}' must look like WW/WW")));
            }
            for color in 0..2 {
                let types: Option<Vec<usize>> = parts[color].chars().map(|c| self.rules.type_of_letter(c)).collect();
                match types {
                    Some(t) if t.len() == setup.slots[color].len() && t.iter().all(|x| setup.choices.contains(x)) => {
                        sides[color] = t
                    }
                    _ => {
                        return Err(FenError::Setup(format!(
                            "setup field '{field}': each side needs {} letters from the choices",
                            setup.slots[color].len()
                        )))
                    }
                }
            }
        }
        for color in 0..2 {
            for (i, &t) in sides[color].iter().enumerate() {
                self.setup[color][i] = t as u8;
            }
            if let Some(req) = &setup.pawn_capture {
                self.pawn_capture[color] = *req == sides[color];
            }
        }
        Ok(())
    }

    /// What each side may promote to by the rules; setup promotions follow the setup field.
    fn set_promotion_types(&mut self) {
        let Some(p) = &self.rules.pawn else { return };
        for color in 0..2 {
            let mut mask = 0u16;
            for choice in &p.promotion {
                match choice {
                    Promotion::Type(t) => mask |= 1 << t,
                    Promotion::Setup => {
                        for &t in self.setup_slots(color) {
                            mask |= 1 << t;
                        }
                    }
                }
            }
            self.promo_types[color] = mask;
        }
    }

    /// Refuses positions the game cannot reach or fairylab cannot play on.
    fn check_playable(&self) -> Result<(), FenError> {
        // In a king-capture game taking the king is how the game ends, so such a position
        // can occur; where checkmate wins, the last move cannot have left its king attacked.
        if !self.rules.is_king_capture() {
            let them = self.side ^ 1;
            if self.king_square(them).is_some_and(|k| self.attacked(k, self.side)) {
                return Err(FenError::OppositeCheck);
            }
        }
        let bound = self.move_bound();
        if bound > moves::MAX_MOVES as u32 {
            return Err(FenError::TooManyMoves { bound });
        }
        Ok(())
    }

    pub fn fen(&self) -> String {
        let rules = self.rules;
        let geo = &rules.geo;
        let mut s = String::new();
        for rank in (0..geo.ranks).rev() {
            let mut empty = 0;
            for file in 0..geo.files {
                let sq = rank * geo.files + file;
                let c = self.board[sq];
                if geo.exists(sq) && c == 0 {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    s += &empty.to_string();
                    empty = 0;
                }
                if !geo.exists(sq) {
                    s.push('*');
                } else {
                    let l = rules.types[code_type(c)].letter;
                    s.push(if code_color(c) == WHITE { l } else { l.to_ascii_lowercase() });
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s += if self.side == WHITE { " w " } else { " b " };
        let mut castle = String::new();
        for color in 0..2 {
            for &(index, l) in &rules.right_letters {
                if self.castling & (1 << (color as u8 * 4 + index)) != 0 {
                    castle.push(if color == WHITE { l } else { l.to_ascii_lowercase() });
                }
            }
        }
        s += if castle.is_empty() { "-" } else { &castle };
        s.push(' ');
        if self.ep[0] == NO_SQUARE {
            s.push('-');
        } else {
            let names: Vec<String> =
                self.ep.iter().filter(|&&e| e != NO_SQUARE).map(|&e| geo.name(e as usize)).collect();
            s += &names.join(",");
        }
        s += &format!(" {} {}", self.halfmove, self.fullmove);
        if rules.setup.is_some() {
            s.push(' ');
            for color in 0..2 {
                for &t in self.setup_slots(color) {
                    s.push(rules.types[t as usize].letter);
                }
                if color == WHITE {
                    s.push('/');
                }
            }
        }
        s
    }
}

fn split_fields<'a, B: Bits>(rules: &Rules<B>, fen: &'a str) -> Result<Vec<&'a str>, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() < 2 {
        return Err(FenError::Fields(if fields.is_empty() {
            "empty FEN".into()
        } else {
            "FEN has no side-to-move field".into()
        }));
    }
    if fields.len() > 7 || (fields.len() == 7 && rules.setup.is_none()) {
        return Err(FenError::Fields(format!(
            "FEN has {} fields; this variant uses at most {}",
            fields.len(),
            if rules.setup.is_some() { 7 } else { 6 }
        )));
    }
    Ok(fields)
}

fn read_side(field: &str) -> Result<usize, FenError> {
    match field {
        "w" => Ok(WHITE),
        "b" => Ok(1),
        other => Err(FenError::Turn(format!("side field '{other}' must be 'w' or 'b'"))),
    }
}

/// The halfmove or fullmove counter, `default` when the FEN stops before it.
fn read_counter(fields: &[&str], i: usize, default: u32, name: &str) -> Result<u32, FenError> {
    match fields.get(i) {
        None => Ok(default),
        Some(s) => s.parse().map_err(|_| FenError::Counters(format!("{name} field '{s}' is not a number"))),
    }
}
