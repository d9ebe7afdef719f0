//! Width-erased entry points: a loaded [`Variant`] and a [`Board`] (a position of it).
//!
//! Inside, every variant runs on its own bitboard width (`u64` up to 64 squares, `u128`
//! above); this layer picks the width once, at load, so callers never see it.

mod color;
mod error;
mod moves;

pub use color::Color;
pub use error::Error;
pub use moves::{IntoMove, Move, Square};

use crate::position::{FenError, PerftError, Position};
use crate::rules::{compile, Bits, Rules};
use crate::variant::{registry, VariantError};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// A compiled variant (with its options applied).
#[derive(Clone, Copy, Debug)]
pub enum Variant {
    Narrow(&'static Rules<u64>),
    Wide(&'static Rules<u128>),
}

/// The same compiled rules: [`Variant::from_toml`] compiles each (file, options) once, so
/// identity is the rules' address.
impl PartialEq for Variant {
    fn eq(&self, other: &Variant) -> bool {
        match (self, other) {
            (Variant::Narrow(a), Variant::Narrow(b)) => std::ptr::eq(*a, *b),
            (Variant::Wide(a), Variant::Wide(b)) => std::ptr::eq(*a, *b),
            _ => false,
        }
    }
}
impl Eq for Variant {}

/// A position of some variant.
#[derive(Clone, Copy)]
pub enum Board {
    Narrow(Position<u64>),
    Wide(Position<u128>),
}

macro_rules! on {
    ($v:expr, $x:ident => $e:expr) => {
        match $v {
            Board::Narrow($x) => $e,
            Board::Wide($x) => $e,
        }
    };
}

macro_rules! on_rules {
    ($v:expr, $x:ident => $e:expr) => {
        match $v {
            Variant::Narrow($x) => $e,
            Variant::Wide($x) => $e,
        }
    };
}

/// Compiled variants by (file text, options): each is compiled once per process.
type Cache = Mutex<HashMap<(String, Vec<String>), Variant>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

impl Variant {
    /// Loads a variant by name (`configs/variants/<name>.toml` under the current directory,
    /// else the built-in copy) or by path to a `.toml` file, with options applied in order.
    pub fn load(name: &str, options: &[&str]) -> Result<Variant, VariantError> {
        let text = registry::find(name)?;
        Self::from_toml(&text, options)
    }

    /// [`Variant::load`] with options as the command line gives them.
    pub fn load_with(name: &str, options: &[String]) -> Result<Variant, VariantError> {
        let opts: Vec<&str> = options.iter().map(|s| s.as_str()).collect();
        Variant::load(name, &opts)
    }

    /// Compiles a variant from the text of a variant file.
    pub fn from_toml(text: &str, options: &[&str]) -> Result<Variant, VariantError> {
        let key = (text.to_string(), options.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        if let Some(v) = cache().lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Ok(*v);
        }
        let cfg = registry::parse(text, options)?;
        // Saturating: an absurd size goes to the wide rules, which refuse it by name.
        let squares = cfg.board.files.saturating_mul(cfg.board.ranks);
        // Rules live for the whole process: positions hold plain references to them.
        let v = if squares <= 64 {
            Variant::Narrow(Box::leak(Box::new(compile::<u64>(&cfg, options)?)))
        } else {
            Variant::Wide(Box::leak(Box::new(compile::<u128>(&cfg, options)?)))
        };
        v.parse_fen(&cfg.start).map_err(|error| VariantError::StartPosition { variant: cfg.name.clone(), error })?;
        cache().lock().unwrap_or_else(|e| e.into_inner()).insert(key, v);
        Ok(v)
    }

    pub fn name(&self) -> &'static str {
        on_rules!(*self, r => &r.name)
    }

    pub fn title(&self) -> &'static str {
        on_rules!(*self, r => &r.title)
    }

    pub fn description(&self) -> &'static str {
        on_rules!(*self, r => &r.description)
    }

    /// The options this variant offers, with descriptions.
    pub fn available_options(&self) -> &'static [(String, String)] {
        on_rules!(*self, r => &r.option_list)
    }

    /// The pieces whose worth an option changes (empty for an unknown option).
    pub fn option_pieces(&self, option: &str) -> &'static [char] {
        on_rules!(*self, r => r.option_pieces.iter().find(|(o, _)| o == option).map_or(&[][..], |(_, p)| &p[..]))
    }

    /// Figures from the literature to check a report against (empty for most variants).
    pub fn published(&self) -> &'static crate::variant::config::Published {
        on_rules!(*self, r => &r.published)
    }

    /// The variant file's `[report] headline` comparisons (new piece, other piece).
    pub fn headline(&self) -> &'static [(char, char)] {
        on_rules!(*self, r => &r.headline)
    }

    /// The options applied to this instance.
    pub fn options(&self) -> &'static [String] {
        on_rules!(*self, r => &r.options)
    }

    pub fn board_size(&self) -> (usize, usize) {
        on_rules!(*self, r => (r.geo.files, r.geo.ranks))
    }

    pub fn start_fen(&self) -> &'static str {
        on_rules!(*self, r => &r.start_fen)
    }

    pub fn start_position(&self) -> Board {
        self.parse_fen(self.start_fen()).expect("start position was validated at load")
    }

    /// Setup choices of the variant (Bland Chess 46): the distinct slot fillings per side,
    /// e.g. `WW, NW, MW, NN, MN, MM` (letters in slot order), or empty.
    pub fn setup_choices(&self) -> Vec<String> {
        on_rules!(*self, r => {
            let Some(s) = &r.setup else { return vec![] };
            let letters: Vec<char> = s.choices.iter().map(|&t| r.types[t].letter).collect();
            let mut out: Vec<String> = Vec::new();
            fn fill(n: usize, from: usize, letters: &[char], cur: &mut String, out: &mut Vec<String>) {
                if cur.len() == n {
                    out.push(cur.clone());
                    return;
                }
                for i in from..letters.len() {
                    cur.push(letters[i]);
                    fill(n, i, letters, cur, out);
                    cur.pop();
                }
            }
            fill(s.slots[0].len(), 0, &letters, &mut String::new(), &mut out);
            out
        })
    }

    /// The start position with each side's setup slots filled as `field` says (`NW/WW`).
    pub fn setup_position(&self, field: &str) -> Result<Board, Error> {
        on_rules!(*self, r => {
            let s = r.setup.as_ref().ok_or_else(|| Error::Position(format!("{} has no setup choices", r.name)))?;
            let parts: Vec<&str> = field.split('/').collect();
            if parts.len() != 2 {
                return Err(Error::Position(format!("setup '{field}' must look like WW/NW")));
            }
            let mut fields: Vec<String> = r.start_fen.split_whitespace().map(String::from).collect();
            // Expand the board into one cell per square, top rank first.
            let mut cells: Vec<char> = Vec::new();
            for row in fields[0].split('/') {
                let mut n = 0;
                for c in row.chars() {
                    if let Some(d) = c.to_digit(10) {
                        n = n * 10 + d as usize;
                        continue;
                    }
                    cells.extend(std::iter::repeat_n('.', n));
                    n = 0;
                    cells.push(c);
                }
                cells.extend(std::iter::repeat_n('.', n));
            }
            let (w, h) = (r.geo.files, r.geo.ranks);
            for color in 0..2 {
                let letters: Vec<char> = parts[color].chars().collect();
                if letters.len() != s.slots[color].len() {
                    return Err(Error::Position(format!("setup '{field}': each side needs {} letters", s.slots[color].len())));
                }
                for (&sq, &l) in s.slots[color].iter().zip(&letters) {
                    let sq = sq as usize;
                    let cell = (h - 1 - sq / w) * w + sq % w;
                    cells[cell] = if color == 0 { l.to_ascii_uppercase() } else { l.to_ascii_lowercase() };
                }
            }
            let mut board = String::new();
            for (i, row) in cells.chunks(w).enumerate() {
                let mut n = 0;
                for &c in row {
                    if c == '.' {
                        n += 1;
                        continue;
                    }
                    if n > 0 {
                        board += &n.to_string();
                        n = 0;
                    }
                    board.push(c);
                }
                if n > 0 {
                    board += &n.to_string();
                }
                if i + 1 < h {
                    board.push('/');
                }
            }
            fields[0] = board;
            fields.truncate(6);
            fields.push(field.to_string());
            Ok(self.parse_fen(&fields.join(" "))?)
        })
    }

    pub(crate) fn square(&self, sq: usize) -> Square {
        on_rules!(*self, r => Square::new(r.geo.file(sq) as usize, r.geo.rank(sq) + r.geo.first_rank))
    }

    pub(crate) fn type_letter(&self, t: usize) -> char {
        on_rules!(*self, r => r.types[t].letter)
    }

    pub fn parse_fen(&self, fen: &str) -> Result<Board, FenError> {
        Ok(match *self {
            Variant::Narrow(r) => Board::Narrow(Position::from_fen(r, fen)?),
            Variant::Wide(r) => Board::Wide(Position::from_fen(r, fen)?),
        })
    }
}

impl Board {
    pub fn variant(&self) -> Variant {
        match self {
            Board::Narrow(p) => Variant::Narrow(p.rules),
            Board::Wide(p) => Variant::Wide(p.rules),
        }
    }

    /// Legal moves; each prints as UCI text (`e2e4`, `d2d1q`, `f1i1`, Noble waiting pawn `b7b8`).
    pub fn legal_moves(&self) -> Vec<Move> {
        let v = self.variant();
        on!(self, p => p.legal_move_vec().into_iter().map(|m| Move::new(m, v)).collect())
    }

    pub fn in_check(&self) -> bool {
        on!(self, p => p.in_check())
    }

    /// The legal move with this UCI text.
    pub fn parse_move(&self, text: &str) -> Result<Move, Error> {
        on!(self, p => {
            p.legal_move_vec()
                .into_iter()
                .find(|&m| p.move_name(m) == text)
                .map(|m| Move::new(m, self.variant()))
                .ok_or_else(|| Error::Position(format!("illegal or malformed move '{text}' in {}", p.fen())))
        })
    }

    /// The position after a legal move, typed or as UCI text.
    pub fn play(&self, mv: impl IntoMove) -> Result<Board, Error> {
        let mv = mv.resolve(self)?;
        let mut b = *self;
        let same_variant = mv.variant() == self.variant();
        on!(&mut b, p => {
            // A typed move may come from another position: it must be one of this one's.
            if !same_variant || !p.legal_move_vec().contains(&mv.raw()) {
                return Err(Error::Position(format!("move {mv} is not legal in {}", p.fen())));
            }
            p.make(mv.raw());
        });
        Ok(b)
    }

    pub fn fen(&self) -> String {
        on!(self, p => p.fen())
    }

    /// An upper bound on the moves here and in every position played from here.
    pub fn move_bound(&self) -> u32 {
        on!(self, p => p.move_bound())
    }

    /// Leaf count of the legal move tree `depth` plies deep. A depth above
    /// [`crate::MAX_PERFT_DEPTH`] is refused (the recursion would overflow the stack long
    /// before it finished).
    pub fn perft(&self, depth: u32) -> Result<u64, PerftError> {
        let mut b = *self;
        on!(&mut b, p => p.perft(depth))
    }

    /// Perft that also makes the moves of the last ply.
    pub fn perft_full(&self, depth: u32) -> Result<u64, PerftError> {
        let mut b = *self;
        on!(&mut b, p => p.perft_full(depth))
    }

    /// Per-root-move perft counts.
    pub fn divide(&self, depth: u32) -> Result<Vec<(Move, u64)>, PerftError> {
        let v = self.variant();
        let mut b = *self;
        on!(&mut b, p => {
            let d = p.divide(depth)?;
            Ok(d.into_iter().map(|(m, n)| (Move::new(m, v), n)).collect())
        })
    }

    /// FEN letter of the piece on a square such as "b8", or None if empty or no such square.
    pub fn piece_at(&self, square: &str) -> Option<char> {
        on!(self, p => {
            let sq = p.rules.geo.parse(square)?;
            let c = p.code_at(sq);
            if c == 0 {
                return None;
            }
            let l = p.rules.types[crate::position::code_type(c)].letter;
            Some(if crate::position::code_color(c) == 0 { l } else { l.to_ascii_lowercase() })
        })
    }

    pub fn side_to_move(&self) -> Color {
        on!(self, p => if p.side() == 0 { Color::White } else { Color::Black })
    }

    pub fn hash(&self) -> u64 {
        on!(self, p => p.hash())
    }

    /// The game is over by the position alone: checkmate, stalemate, king capture, dead
    /// material, no progress. Verdict from the side to move's view.
    pub fn terminal(&self) -> Option<(crate::position::outcome::Verdict, crate::position::outcome::Termination)> {
        let mut b = *self;
        on!(&mut b, p => p.terminal())
    }

    /// Pieces per side as FEN letters with counts, e.g. `Q1R2B2N2P8` (kings omitted).
    pub fn material(&self, color: usize) -> String {
        on!(self, p => {
            let r = p.rules;
            let mut s = String::new();
            for (t, pt) in r.types.iter().enumerate() {
                let n = p.pieces(color, t).count();
                if t != r.king && n > 0 {
                    s += &format!("{}{n}", pt.letter);
                }
            }
            s
        })
    }

    /// The position with pieces removed: `spec` lists piece letters (the instance nearest
    /// the a-file goes, then the one nearest the side's own first rank), piece letters
    /// with `*` (an instance picked by a hash of the position, so the same position always
    /// loses the same one and different positions lose different ones: `P*` is an average
    /// pawn, not an edge one) or square names, joined by `+`, e.g. `R`, `R+P*`, `f2`. Used
    /// to build imbalance openings.
    pub fn without(&self, color: usize, spec: &str) -> Result<Board, Error> {
        let mut b = *self;
        for token in spec.split('+').map(str::trim).filter(|t| !t.is_empty()) {
            let (token, hashed) = match token.strip_suffix('*') {
                Some(letter) => (letter, Some(fnv(&format!("{} {color}", b.fen())))),
                None => (token, None),
            };
            on!(&mut b, p => {
                let geo = &p.rules.geo;
                let sq = if let Some(sq) = geo.parse(token) {
                    sq
                } else {
                    let mut chars = token.chars();
                    let (Some(l), None) = (chars.next(), chars.next()) else {
                        return Err(Error::Position(format!("'{token}' is neither a piece letter nor a square")));
                    };
                    let t = p.rules.type_of_letter(l).ok_or_else(|| Error::Position(format!("unknown piece letter '{l}'")))?;
                    let own_rank = |s: usize| if color == 0 { geo.rank(s) } else { geo.ranks as i32 - 1 - geo.rank(s) };
                    let none = || Error::Position(format!("{} has no '{l}' to remove", if color == 0 { "White" } else { "Black" }));
                    match hashed {
                        Some(h) => {
                            let all: Vec<usize> = p.pieces(color, t).iter().collect();
                            *all.get((h % all.len().max(1) as u64) as usize).ok_or_else(none)?
                        }
                        None => p.pieces(color, t).iter().min_by_key(|&s| (geo.file(s), own_rank(s))).ok_or_else(none)?,
                    }
                };
                if p.code_at(sq) != 0 && crate::position::code_color(p.code_at(sq)) != color {
                    return Err(Error::Position(format!("{token}: the piece there belongs to the other side")));
                }
                p.remove_piece(sq).map_err(Error::Position)?;
            });
        }
        Ok(b)
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmove(&self) -> u32 {
        on!(self, p => p.halfmove())
    }

    /// The variant's draw thresholds: (repetitions, ply cap).
    pub fn draw_limits(&self) -> (u32, u32) {
        on!(self, p => (p.rules.draw.repetitions, p.rules.draw.ply_cap))
    }
}

/// FNV-1a of a text: stable across machines, builds and Rust versions (unlike the std
/// hasher or the Zobrist keys), so a removal it picks never changes under a resumed run.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3))
}

/// A piece type of a variant, as a diagram or a caller names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceKind {
    /// Upper-case FEN letter.
    pub letter: char,
    pub name: &'static str,
    pub royal: bool,
    pub pawn: bool,
    /// The orthodox piece (`N`, `B`, `R`, `Q`) whose moves this one has, if any.
    pub orthodox: Option<char>,
}

impl Variant {
    pub fn piece_kinds(&self) -> Vec<PieceKind> {
        on_rules!(*self, r => r
            .types
            .iter()
            .map(|t| PieceKind { letter: t.letter, name: t.name.as_str(), royal: t.royal, pawn: t.pawn, orthodox: t.orthodox })
            .collect())
    }

    /// The square at a file and a rank index (both from 0, the rank index from White's
    /// side), or None off the board and on a hole.
    pub fn square_at(&self, file: usize, rank: usize) -> Option<Square> {
        let (f, r) = (i32::try_from(file).ok()?, i32::try_from(rank).ok()?);
        on_rules!(*self, rules => rules.geo.at(f, r).map(|s| self.square(s)))
    }
}
