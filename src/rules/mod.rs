//! Compiled rules: a variant file turned into the lookup tables move generation runs on.
//!
//! Compilation happens once per process and variant; the result is leaked to `'static`
//! so positions can carry a plain reference to their rules and stay `Copy`.

pub mod bitboard;
mod compile;
pub mod geometry;
pub mod legs;
pub mod special;
mod zobrist;

pub use bitboard::Bits;
pub use compile::compile;
pub use geometry::{Geometry, Square, NO_SQUARE};
pub use legs::{LegPath, LegStep};
pub use special::{LameLeap, SpecialAtom, SpecialKind};
pub use zobrist::Zobrist;

use crate::variant::config::{NoMoveResult, WinCondition};

pub const MAX_TYPES: usize = 16;
pub const WHITE: usize = 0;
pub const BLACK: usize = 1;

#[derive(Debug, Clone)]
pub struct PieceType {
    /// Upper-case FEN letter.
    pub letter: char,
    pub name: String,
    pub royal: bool,
    pub pawn: bool,
    pub bomber: bool,
    /// The orthodox piece this one takes the place of (variant file's `replaces`).
    pub replaces: Option<char>,
    /// The orthodox piece (`N`, `B`, `R` or `Q`) whose moves this type has, whatever its
    /// letter: the pieces a report's scale can be anchored on.
    pub orthodox: Option<char>,
}

/// One sliding direction of a piece.
#[derive(Debug, Clone, Copy)]
pub struct RiderAtom {
    pub ray: u16,
    pub mode: u8,
    /// The ray's `RayInfo`, carried along so that a slide needs no lookup of it.
    pub positive: bool,
    pub full: u16,
}

/// What a ray id means: a direction's rays from every square, cut at the board edge, at
/// holes and at the range. The squares themselves are in `Rules::ray_bits`.
#[derive(Debug, Clone, Copy)]
pub struct RayInfo {
    /// Square index grows along the ray, so the nearest blocker is the lowest bit.
    pub positive: bool,
    /// The unlimited ray of the same direction (used to cut a ray behind its first blocker).
    pub full: u16,
}

/// Pieces that capture along a ray; detection looks from the target back along `ray`.
#[derive(Debug, Clone, Copy)]
pub struct AttackGroup {
    pub ray: u16,
    /// The ray's direction (`RayInfo::positive`), carried along for the blocker lookup.
    pub positive: bool,
    /// Bit t set when type t of that colour attacks along this line.
    pub types: [u16; 2],
}

#[derive(Debug, Clone)]
pub enum Promotion {
    Type(usize),
    /// The types in the side's setup slots (Bland Chess 46).
    Setup,
}

#[derive(Debug, Clone)]
pub struct PawnRules<B> {
    pub multi_step: u32,
    /// Per colour: the square one step forward, or NO_SQUARE.
    pub push: [Vec<u8>; 2],
    pub start: [B; 2],
    pub promo_zone: [B; 2],
    /// Squares a pawn captures onto, per colour and square (diagonal/forward and sideways).
    pub captures: [Vec<B>; 2],
    /// Squares from which a pawn of that colour captures onto the square.
    pub captures_rev: [Vec<B>; 2],
    pub forward_capture: bool,
    pub en_passant: bool,
    pub sideways: Vec<B>,
    pub promotion: Vec<Promotion>,
    pub only_lost: bool,
    /// Plain diagonal captures and no sideways steps: pawns are generated set-wise by shifts.
    pub setwise: bool,
    /// Pawns that may capture towards the lower / higher file (not on the edge file).
    pub capture_from: [B; 2],
}

#[derive(Debug, Clone)]
pub struct CastleOption<B> {
    pub color: usize,
    pub right: u8,
    pub king_from: u8,
    pub king_to: u8,
    pub rook_from: u8,
    pub rook_to: u8,
    pub rook_type: usize,
    pub empty: B,
    /// Safe squares other than origin and destination: tested with the king placed there.
    pub transit: Vec<u8>,
}

#[derive(Debug, Clone)]
pub struct SetupRules {
    /// Slot squares per colour.
    pub slots: [Vec<u8>; 2],
    pub choices: Vec<usize>,
    pub default: [Vec<usize>; 2],
    pub pawn_capture: Option<Vec<usize>>,
}

#[derive(Debug, Clone)]
pub struct DrawRules {
    pub no_progress_plies: u32,
    pub repetitions: u32,
    pub ply_cap: u32,
    pub lone_minors: u16,
    pub colour_bound: u16,
}

#[derive(Debug)]
pub struct Rules<B: Bits> {
    pub name: String,
    pub title: String,
    pub description: String,
    pub options: Vec<String>,
    pub option_list: Vec<(String, String)>,
    /// Per option, the pieces whose worth it changes.
    pub option_pieces: Vec<(String, Vec<char>)>,
    pub published: crate::variant::config::Published,
    /// The variant file's `[report] headline` comparisons, as (new piece, other piece).
    pub headline: Vec<(char, char)>,
    pub geo: Geometry,
    pub exists: B,
    pub nsq: usize,
    pub types: Vec<PieceType>,
    pub king: usize,
    pub pawn_type: Option<usize>,
    pub bomber: Option<usize>,
    /// Indexed `(colour * ntypes + type) * nsq + square`.
    pub leap_quiet: Vec<B>,
    pub leap_cap: Vec<B>,
    pub leap_cap_rev: Vec<B>,
    /// Types with capturing leaps (checked by table lookup in attack detection).
    pub leap_attackers: Vec<usize>,
    /// Indexed `colour * ntypes + type`.
    pub riders: Vec<Vec<RiderAtom>>,
    /// Hoppers, lame leaps and initial moves, indexed `colour * ntypes + type` (empty for
    /// most games, which never walk them).
    pub special: Vec<Vec<SpecialAtom>>,
    /// Per colour: the types (bit per type) move generation treats apart from plain
    /// leapers and riders: the pawn, and the types with special atoms.
    pub apart: [u16; 2],
    /// Per colour: the types (bit per type) with a special atom that captures, which attack
    /// tests must walk.
    pub special_attackers: [u16; 2],
    /// Lame leaps' blocks (see [`SpecialAtom::lame`]).
    pub lame: Vec<LameLeap<B>>,
    /// Multi-leg paths (see [`SpecialAtom::path`]).
    pub leg_paths: Vec<LegPath>,
    /// Per colour: where initial (`i`) moves may start, as Fairy-Stockfish's double-step
    /// region: the pawns' start rank, or the second rank in a game without pawns.
    pub initial_zone: [B; 2],
    pub ray_info: Vec<RayInfo>,
    /// Indexed `ray * nsq + square`.
    pub ray_bits: Vec<B>,
    pub attack_groups: Vec<AttackGroup>,
    /// Per square, the lines of every attack group from it, in group order: indexed
    /// `sq * attack_groups.len() + group` (one block per square, see [`Rules::group_lines`]).
    pub group_rays: Vec<B>,
    /// Per colour: every type that attacks along some group's line (bit per type), so that
    /// attack tests can skip lines without such a piece on them.
    pub line_attackers: [u16; 2],
    /// Per square: the neighbour towards N, E, S, W (NO_SQUARE if none).
    pub step: Vec<[u8; 4]>,
    /// Unlimited orthogonal rays N, E, S, W (bomber geometry).
    pub orth: [u16; 4],
    /// Per square: every square from which a bomber could capture a piece there (see
    /// [`bomber_lines`]).
    pub bomber_lines: Vec<B>,
    pub immediate_landing: bool,
    pub pawn: Option<PawnRules<B>>,
    pub castling: Vec<CastleOption<B>>,
    /// Castling rights kept when a move touches the square.
    pub castle_keep: Vec<u8>,
    /// Letter of each castling-right bit (bit = colour * 4 + index), upper case.
    pub right_letters: Vec<(u8, char)>,
    pub setup: Option<SetupRules>,
    pub win: WinCondition,
    pub stalemate: NoMoveResult,
    pub draw: DrawRules,
    pub zobrist: Zobrist,
    pub start_fen: String,
    /// Piece counts of the start position, per colour and type.
    pub initial_counts: [[u8; MAX_TYPES]; 2],
    /// Per colour and type: the most moves one such piece can have on any square, a pawn
    /// counting what it may promote to (see [`move_bounds`]).
    pub move_bounds: [[u32; MAX_TYPES]; 2],
}

/// Per colour and type, an upper bound on the moves of one piece anywhere on the board:
/// every square its leaps and rays reach on the empty board (a square is either a quiet
/// move or a capture, never both), plus each multi-leg path's [`legs::bound`]; for the bomber each orthogonal line once more plus
/// its two-square move; for a pawn its pushes, captures, sideways steps and the two e.p.
/// captures, each once per promotion choice (and the waiting move), and at least what any
/// piece it promotes to can have. A position's bound is the sum over one side's pieces:
/// captures only remove pieces and promotions are covered, so a bound that holds for a
/// position holds for every position played from it.
pub fn move_bounds<B: Bits>(r: &Rules<B>) -> [[u32; MAX_TYPES]; 2] {
    let nt = r.ntypes();
    let mut out = [[0u32; MAX_TYPES]; 2];
    for color in 0..2 {
        for t in 0..nt {
            if Some(t) == r.pawn_type {
                continue;
            }
            let mut most = 0;
            for sq in (0..r.nsq).filter(|&s| r.exists.has(s)) {
                let i = r.idx(color, t, sq);
                let mut reach = r.leap_quiet[i] | r.leap_cap[i];
                for a in &r.riders[color * nt + t] {
                    reach |= r.ray(a.ray, sq);
                }
                let mut legs = 0;
                for a in &r.special[color * nt + t] {
                    reach |= match a.kind {
                        SpecialKind::Lame => r.lame[a.lame as usize + sq].to_set(),
                        SpecialKind::Legs => {
                            let next = |step: u16, s: usize| {
                                let b = r.ray(step, s);
                                if b.is_empty() {
                                    NO_SQUARE
                                } else {
                                    b.lsb() as u8
                                }
                            };
                            legs += legs::bound(&r.leg_paths[a.path as usize], 0, sq, &next);
                            B::ZERO
                        }
                        _ => r.ray(a.ray, sq),
                    };
                }
                let mut n = reach.count() + legs;
                if Some(t) == r.bomber {
                    n += r.orth.iter().map(|&ray| r.ray(ray, sq).count() + 1).sum::<u32>();
                }
                most = most.max(n);
            }
            out[color][t] = most;
        }
        if let (Some(p), Some(pt)) = (&r.pawn, r.pawn_type) {
            let choices = nt as u32 + 1;
            let mut most = 0;
            for sq in (0..r.nsq).filter(|&s| r.exists.has(s)) {
                let steps = p.multi_step + p.captures[color][sq].count() + p.sideways[sq].count() + 2;
                most = most.max(steps * choices);
            }
            out[color][pt] = most.max(out[color].iter().copied().max().unwrap_or(0));
        }
    }
    out
}

/// Per square `sq`: the squares a bomber may capture a piece on `sq` from, in any of the
/// three ways of docs/rules/flying-bombers-grand-chess.md §4.2.6 as `Position::bomber_attacks`
/// tests them: per direction, the neighbour, the square beyond it, and the ray on from there.
pub fn bomber_lines<B: Bits>(r: &Rules<B>) -> Vec<B> {
    (0..r.nsq)
        .map(|sq| {
            let mut lines = B::ZERO;
            for u in 0..4 {
                let a1 = r.step[sq][u];
                if a1 == NO_SQUARE {
                    continue;
                }
                lines |= B::bit(a1 as usize);
                let a2 = r.step[a1 as usize][u];
                if a2 == NO_SQUARE {
                    continue;
                }
                lines |= B::bit(a2 as usize) | r.ray(r.orth[u], a2 as usize);
            }
            lines
        })
        .collect()
}

impl<B: Bits> Rules<B> {
    #[inline(always)]
    pub fn ntypes(&self) -> usize {
        self.types.len()
    }

    #[inline(always)]
    pub fn idx(&self, color: usize, t: usize, sq: usize) -> usize {
        (color * self.types.len() + t) * self.nsq + sq
    }

    /// The squares of ray `ray` from `sq` on the empty board.
    #[inline(always)]
    pub fn ray(&self, ray: u16, sq: usize) -> B {
        self.ray_bits[ray as usize * self.nsq + sq]
    }

    /// Squares a rider reaches along `ray` from `sq`, up to and including the first blocker.
    #[inline(always)]
    pub fn ray_attacks(&self, ray: u16, sq: usize, occ: B) -> B {
        let r = self.ray_info[ray as usize];
        let line = self.ray(ray, sq);
        let blockers = line & occ;
        if blockers.is_empty() {
            return line;
        }
        let first = if r.positive { blockers.lsb() } else { blockers.msb() };
        line & !self.ray(r.full, first)
    }

    /// The attack groups' lines from `sq` (`ray(group.ray, sq)` per group, in group order).
    #[inline(always)]
    pub fn group_lines(&self, sq: usize) -> &[B] {
        let n = self.attack_groups.len();
        &self.group_rays[sq * n..(sq + 1) * n]
    }

    /// [`Rules::ray_attacks`] of a rider's ray, with the ray's direction and unlimited twin
    /// read from the atom.
    #[inline(always)]
    pub fn rider_attacks(&self, a: &RiderAtom, sq: usize, occ: B) -> B {
        let line = self.ray(a.ray, sq);
        let blockers = line & occ;
        if blockers.is_empty() {
            return line;
        }
        let first = if a.positive { blockers.lsb() } else { blockers.msb() };
        line & !self.ray(a.full, first)
    }

    /// First occupied square along `ray` from `sq`, if any.
    #[inline(always)]
    pub fn first_blocker(&self, ray: u16, sq: usize, occ: B) -> Option<usize> {
        self.first_blocker_along(ray, self.ray_info[ray as usize].positive, sq, occ)
    }

    /// [`Rules::first_blocker`] with the ray's direction given.
    #[inline(always)]
    pub fn first_blocker_along(&self, ray: u16, positive: bool, sq: usize, occ: B) -> Option<usize> {
        let blockers = self.ray(ray, sq) & occ;
        if blockers.is_empty() {
            None
        } else if positive {
            Some(blockers.lsb())
        } else {
            Some(blockers.msb())
        }
    }

    pub fn type_of_letter(&self, letter: char) -> Option<usize> {
        let up = letter.to_ascii_uppercase();
        self.types.iter().position(|t| t.letter == up)
    }

    pub fn is_king_capture(&self) -> bool {
        self.win == WinCondition::KingCapture
    }
}
