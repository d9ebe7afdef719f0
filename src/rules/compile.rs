//! Variant config -> compiled [`Rules`].

use super::special::{self, LameLeap, SpecialAtom, SpecialKind};
use super::*;
use crate::variant::betza::{self, Atom, AtomKind, CAPTURE, MOVE};
use crate::variant::config::{PawnCapture, PawnConfig, SetupConfig, VariantConfig};
use std::collections::HashMap;

struct RayBuilder<'g, B> {
    geo: &'g Geometry,
    info: Vec<RayInfo>,
    bits: Vec<B>,
    ids: HashMap<(i32, i32, u32), u16>,
}

impl<B: Bits> RayBuilder<'_, B> {
    fn id(&mut self, dx: i32, dy: i32, range: u32) -> u16 {
        if let Some(&id) = self.ids.get(&(dx, dy, range)) {
            return id;
        }
        let full = if range == 0 { None } else { Some(self.id(dx, dy, 0)) };
        let geo = self.geo;
        let table: Vec<B> = (0..geo.squares())
            .map(|sq| {
                let mut b = B::ZERO;
                if !geo.exists(sq) {
                    return b;
                }
                let mut cur = sq;
                let mut n = 0;
                // Holes stop sliders: a ray never passes a non-existent square.
                while let Some(next) = geo.offset(cur, dx, dy) {
                    b |= B::bit(next);
                    cur = next;
                    n += 1;
                    if range != 0 && n >= range {
                        break;
                    }
                }
                b
            })
            .collect();
        let id = self.info.len() as u16;
        let positive = dy * geo.files as i32 + dx > 0;
        self.info.push(RayInfo { positive, full: full.unwrap_or(id) });
        self.bits.extend(table);
        self.ids.insert((dx, dy, range), id);
        id
    }
}

fn square(geo: &Geometry, name: &str, what: &str) -> Result<usize, String> {
    geo.parse(name).ok_or_else(|| format!("{what}: '{name}' is not a square of this board"))
}

pub fn compile<B: Bits>(cfg: &VariantConfig, options: &[&str]) -> Result<Rules<B>, String> {
    // Steps in the order their errors are reported: board, pieces, pawns, castling, setup,
    // draw rules, options, start position.
    let geo = geometry::<B>(cfg)?;
    let nsq = geo.squares();
    let exists = (0..nsq).filter(|&s| geo.exists(s)).fold(B::ZERO, |a, s| a | B::bit(s));
    let (mut types, mut atoms_of) = piece_types(cfg)?;
    let immediate_landing = cfg.rules.leg_fast_path && bomber_fast_path(&mut types, &mut atoms_of);
    let roles = roles(&types, cfg)?;

    let mut rb = RayBuilder::<B> { geo: &geo, info: Vec::new(), bits: Vec::new(), ids: HashMap::new() };
    let orth = [rb.id(0, 1, 0), rb.id(1, 0, 0), rb.id(0, -1, 0), rb.id(-1, 0, 0)];
    let moves = piece_moves(&atoms_of, &mut rb);
    let leap_cap_rev = reverse(&moves.leap_cap, nsq);
    let ntypes = types.len();
    let initial_zone = initial_zone(&geo, cfg);
    let leap_attackers = (0..ntypes)
        .filter(|&t| (0..2 * nsq).any(|i| moves.leap_cap[(i / nsq * ntypes + t) * nsq + i % nsq].any()))
        .collect();
    let step = (0..nsq)
        .map(|sq| {
            let f = |dx, dy| geo.offset(sq, dx, dy).map_or(NO_SQUARE, |s| s as u8);
            [f(0, 1), f(1, 0), f(0, -1), f(-1, 0)]
        })
        .collect();

    let pawn = match &cfg.pawn {
        None => None,
        Some(pc) => Some(pawn_rules(&geo, pc, &types)?),
    };
    let castles = castling(&geo, cfg, &types)?;
    let setup = cfg.setup.as_ref().map(|s| setup_rules(&geo, s, &types)).transpose()?;
    let draw = draw_rules(cfg, &types)?;
    let option_pieces = option_pieces(cfg, &types)?;
    let published = published(cfg, &types)?;
    let headline = headline(cfg, &types)?;

    let RayBuilder { info: ray_info, bits: ray_bits, .. } = rb;
    let bits = &ray_bits;
    let group_rays =
        (0..nsq).flat_map(|sq| moves.groups.iter().map(move |g| bits[g.ray as usize * nsq + sq])).collect();
    let mut rules = Rules {
        name: cfg.name.clone(),
        title: cfg.title.clone(),
        description: cfg.description.clone(),
        options: options.iter().map(|s| s.to_string()).collect(),
        option_list: cfg.options.iter().map(|(k, v)| (k.clone(), v.description.clone())).collect(),
        option_pieces,
        published,
        headline,
        geo,
        exists,
        nsq,
        types,
        king: roles.king,
        pawn_type: roles.pawn,
        bomber: roles.bomber,
        leap_quiet: moves.leap_quiet,
        leap_cap: moves.leap_cap,
        leap_cap_rev,
        leap_attackers,
        riders: moves.riders,
        apart: special_types(&moves.special, ntypes, |_| true).map(|m| m | roles.pawn.map_or(0, |p| 1 << p)),
        special_attackers: special_types(&moves.special, ntypes, |a| a.mode & CAPTURE != 0 && !a.initial),
        special: moves.special,
        lame: moves.lame,
        leg_paths: moves.paths,
        initial_zone,
        ray_info,
        ray_bits,
        line_attackers: [0, 1].map(|c| moves.groups.iter().fold(0, |a, g| a | g.types[c])),
        group_rays,
        attack_groups: moves.groups,
        step,
        orth,
        bomber_lines: Vec::new(),
        immediate_landing,
        pawn,
        castling: castles.options,
        castle_keep: castles.keep,
        right_letters: castles.letters,
        setup,
        win: cfg.rules.win,
        stalemate: cfg.rules.stalemate,
        draw,
        zobrist: Zobrist::new(1 + 2 * MAX_TYPES),
        start_fen: cfg.start.clone(),
        initial_counts: [[0; MAX_TYPES]; 2],
        move_bounds: [[0; MAX_TYPES]; 2],
    };
    rules.move_bounds = super::move_bounds(&rules);
    rules.bomber_lines = super::bomber_lines(&rules);
    rules.initial_counts = initial_counts(&rules, &cfg.start)?;
    Ok(rules)
}

/// The board rectangle less its holes.
fn geometry<B: Bits>(cfg: &VariantConfig) -> Result<Geometry, String> {
    let b = &cfg.board;
    let mut geo = Geometry::new(b.files, b.ranks, b.first_rank)?;
    if geo.squares() > B::CAPACITY {
        return Err(format!("board of {} squares needs a wider bitboard", geo.squares()));
    }
    for h in &b.holes {
        let sq = geo.parse_any(h).ok_or_else(|| format!("hole '{h}' is outside the board"))?;
        geo.remove(sq);
    }
    Ok(geo)
}

/// The piece types in file order, with each one's parsed movement.
fn piece_types(cfg: &VariantConfig) -> Result<(Vec<PieceType>, Vec<Vec<Atom>>), String> {
    if cfg.pieces.len() > MAX_TYPES {
        return Err(format!("at most {MAX_TYPES} piece types"));
    }
    let mut types = Vec::new();
    let mut atoms_of = Vec::new();
    for (letter, p) in &cfg.pieces {
        let mut chars = letter.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return Err(format!("piece letter '{letter}' must be one character"));
        };
        if !c.is_ascii_uppercase() {
            return Err(format!("piece letter '{letter}' must be an upper-case letter"));
        }
        let atoms =
            if p.pawn { vec![] } else { betza::parse(&p.movement).map_err(|e| format!("piece {letter}: {e}"))? };
        let replaces = match p.replaces.as_deref() {
            None => None,
            Some(r) if r.len() == 1 && "PNBRQK".contains(r) => r.chars().next(),
            Some(r) => {
                return Err(format!("piece {letter}: replaces = \"{r}\" is not an orthodox piece letter (P N B R Q K)"))
            }
        };
        let orthodox = if p.pawn || p.royal { None } else { orthodox_moves(&atoms) };
        types.push(PieceType {
            letter: c,
            name: p.name.clone(),
            royal: p.royal,
            pawn: p.pawn,
            bomber: false,
            replaces,
            orthodox,
        });
        atoms_of.push(atoms);
    }
    Ok((types, atoms_of))
}

/// The Flying Bomber's own generator (`position::bomber`) stands in for the generic
/// multi-leg walk when a type's movement is exactly the bomber's, compared as sets of
/// atoms so the order of its parts does not matter: the first such type becomes the
/// bomber, its atoms left to that generator. Returns whether it lands immediately.
fn bomber_fast_path(types: &mut [PieceType], atoms_of: &mut [Vec<Atom>]) -> bool {
    let set = |a: &[Atom]| {
        let mut v: Vec<String> = a.iter().map(|x| format!("{x:?}")).collect();
        v.sort();
        v.dedup();
        v
    };
    let any = betza::parse(betza::BOMBER).map(|a| set(&a)).unwrap_or_default();
    let immediate = betza::parse(betza::BOMBER_IMMEDIATE).map(|a| set(&a)).unwrap_or_default();
    for (t, atoms) in atoms_of.iter_mut().enumerate() {
        let own = set(atoms);
        if !types[t].pawn && (own == any || own == immediate) {
            types[t].bomber = true;
            atoms.clear();
            return own == immediate;
        }
    }
    false
}

/// The types the rules single out: one royal, at most one pawn and one bomber.
struct Roles {
    king: usize,
    pawn: Option<usize>,
    bomber: Option<usize>,
}

fn roles(types: &[PieceType], cfg: &VariantConfig) -> Result<Roles, String> {
    let having = |f: fn(&PieceType) -> bool| -> Vec<usize> { (0..types.len()).filter(|&t| f(&types[t])).collect() };
    let [king] = having(|t| t.royal)[..] else {
        return Err("exactly one piece type must be royal".into());
    };
    let pawns = having(|t| t.pawn);
    if pawns.len() > 1 {
        return Err("at most one piece type can be the pawn".into());
    }
    let pawn = pawns.first().copied();
    if pawn.is_some() != cfg.pawn.is_some() {
        return Err("a pawn piece type and a [pawn] section go together".into());
    }
    let bombers = having(|t| t.bomber);
    if bombers.len() > 1 {
        return Err("at most one piece type can be a bomber".into());
    }
    Ok(Roles { king, pawn, bomber: bombers.first().copied() })
}

fn letter_type(types: &[PieceType], l: &str) -> Result<usize, String> {
    types
        .iter()
        .position(|t| t.letter.to_string() == l.to_ascii_uppercase())
        .ok_or_else(|| format!("unknown piece letter '{l}'"))
}

/// Leaper targets and rider rays per (colour, type), indexed `(color * ntypes + t) * nsq + sq`
/// for the leapers.
struct PieceMoves<B> {
    leap_quiet: Vec<B>,
    leap_cap: Vec<B>,
    riders: Vec<Vec<RiderAtom>>,
    special: Vec<Vec<SpecialAtom>>,
    lame: Vec<LameLeap<B>>,
    paths: Vec<super::LegPath>,
    /// Capturing rays grouped by the ray that looks back from the target, for attack tests.
    groups: Vec<AttackGroup>,
}

fn piece_moves<B: Bits>(atoms_of: &[Vec<Atom>], rb: &mut RayBuilder<'_, B>) -> PieceMoves<B> {
    let geo = rb.geo;
    let (ntypes, nsq) = (atoms_of.len(), geo.squares());
    let mut m = PieceMoves {
        leap_quiet: vec![B::ZERO; 2 * ntypes * nsq],
        leap_cap: vec![B::ZERO; 2 * ntypes * nsq],
        riders: vec![Vec::new(); 2 * ntypes],
        special: vec![Vec::new(); 2 * ntypes],
        lame: Vec::new(),
        paths: Vec::new(),
        groups: Vec::new(),
    };
    for (t, atoms) in atoms_of.iter().enumerate() {
        for atom in atoms {
            for color in 0..2 {
                for &(dx0, dy0) in &atom.vectors {
                    // Black's vectors are White's turned half round, so that left and right
                    // are each side's own (Fairy-Stockfish's reading of `l`, `r`, `h`).
                    let (dx, dy) = if color == WHITE { (dx0, dy0) } else { (-dx0, -dy0) };
                    if atom.initial || !matches!(atom.kind, AtomKind::Leap | AtomKind::Ride { .. }) {
                        let sign = if color == WHITE { 1 } else { -1 };
                        let s = special_atom(atom, dx, dy, sign, rb, &mut m.lame, &mut m.paths);
                        m.special[color * ntypes + t].push(s);
                        continue;
                    }
                    match atom.kind {
                        AtomKind::Leap => {
                            for sq in (0..nsq).filter(|&s| geo.exists(s)) {
                                if let Some(to) = geo.offset(sq, dx, dy) {
                                    let i = (color * ntypes + t) * nsq + sq;
                                    if atom.mode & MOVE != 0 {
                                        m.leap_quiet[i] |= B::bit(to);
                                    }
                                    if atom.mode & CAPTURE != 0 {
                                        m.leap_cap[i] |= B::bit(to);
                                    }
                                }
                            }
                        }
                        AtomKind::Ride { range } => {
                            let ray = rb.id(dx, dy, range);
                            let RayInfo { positive, full } = rb.info[ray as usize];
                            m.riders[color * ntypes + t].push(RiderAtom { ray, mode: atom.mode, positive, full });
                            if atom.mode & CAPTURE != 0 {
                                let back = rb.id(-dx, -dy, range);
                                match m.groups.iter_mut().find(|g| g.ray == back) {
                                    Some(g) => g.types[color] |= 1 << t,
                                    None => {
                                        let positive = rb.info[back as usize].positive;
                                        let mut g = AttackGroup { ray: back, positive, types: [0; 2] };
                                        g.types[color] |= 1 << t;
                                        m.groups.push(g);
                                    }
                                }
                            }
                        }
                        AtomKind::Hop | AtomKind::Grasshop | AtomKind::Lame | AtomKind::Legs(_) => {}
                    }
                }
            }
        }
    }
    m
}

/// The special atom for step (dx, dy) of `atom` (a hopper, a lame leap, a multi-leg path
/// or an initial move); `sign` turns a multi-leg path's later legs as (dx, dy) was.
#[allow(clippy::too_many_arguments)]
fn special_atom<B: Bits>(
    atom: &Atom,
    dx: i32,
    dy: i32,
    sign: i32,
    rb: &mut RayBuilder<'_, B>,
    lame: &mut Vec<LameLeap<B>>,
    paths: &mut Vec<super::LegPath>,
) -> SpecialAtom {
    let (kind, ray) = match atom.kind {
        AtomKind::Leap => (SpecialKind::Slide, rb.id(dx, dy, 1)),
        AtomKind::Ride { range } => (SpecialKind::Slide, rb.id(dx, dy, range)),
        AtomKind::Hop => (SpecialKind::Hop, rb.id(dx, dy, 0)),
        AtomKind::Grasshop => (SpecialKind::Grasshop, rb.id(dx, dy, 0)),
        AtomKind::Lame => (SpecialKind::Lame, rb.id(dx, dy, 1)),
        AtomKind::Legs(_) => (SpecialKind::Legs, rb.id(dx, dy, 1)),
    };
    let mut mode = atom.mode;
    let mut path = 0;
    if let AtomKind::Legs(legs) = &atom.kind {
        let mut p = super::LegPath { n: legs.len() as u8, ..Default::default() };
        for (i, l) in legs.iter().enumerate() {
            let (x, y) = l.step;
            p.legs[i] = super::LegStep { step: rb.id(sign * x, sign * y, 1), range: l.range, mode: l.mode };
            // A path that removes a piece on its way captures, whatever its last leg does.
            if i + 1 < legs.len() && l.mode & CAPTURE != 0 {
                mode |= CAPTURE;
            }
        }
        path = paths.len() as u32;
        paths.push(p);
    }
    let mut s = SpecialAtom {
        kind,
        mode,
        initial: atom.initial,
        ray,
        back: rb.id(-dx, -dy, 0),
        step: rb.id(dx, dy, 1),
        back_step: rb.id(-dx, -dy, 1),
        lame: 0,
        path,
    };
    if kind == SpecialKind::Lame {
        s.lame = lame.len() as u32;
        lame.extend(special::lame_block::<B>(rb.geo, dx, dy));
    }
    s
}

/// Per colour, the types with a special atom that `wanted` accepts.
fn special_types(special: &[Vec<SpecialAtom>], ntypes: usize, wanted: fn(&SpecialAtom) -> bool) -> [u16; 2] {
    let mut out = [0u16; 2];
    for (i, atoms) in special.iter().enumerate() {
        if atoms.iter().any(wanted) {
            out[i / ntypes.max(1)] |= 1 << (i % ntypes.max(1));
        }
    }
    out
}

/// Fairy-Stockfish's double-step region, where initial moves start: the pawns' start rank,
/// else the second rank, each side's own.
fn initial_zone<B: Bits>(geo: &Geometry, cfg: &VariantConfig) -> [B; 2] {
    let start = cfg.pawn.as_ref().map_or(geo.first_rank + 1, |p| p.start_rank);
    // A pawn start rank off the board is refused with the pawn rules.
    let Some(idx) = geo.rank_index(start) else { return [B::ZERO; 2] };
    let last = geo.ranks as i32 - 1;
    let rank =
        |r: i32| (0..geo.squares()).filter(|&s| geo.exists(s) && geo.rank(s) == r).fold(B::ZERO, |a, s| a | B::bit(s));
    [rank(idx), rank(last - idx)]
}

/// Per-square target tables turned around: which squares reach each square. `table` is
/// blocks of `nsq` entries, each block reversed on its own.
fn reverse<B: Bits>(table: &[B], nsq: usize) -> Vec<B> {
    let mut rev = vec![B::ZERO; table.len()];
    for (block, targets) in rev.chunks_mut(nsq).zip(table.chunks(nsq)) {
        for (sq, to_set) in targets.iter().enumerate() {
            for to in to_set.iter() {
                block[to] |= B::bit(sq);
            }
        }
    }
    rev
}

fn pawn_rules<B: Bits>(geo: &Geometry, pc: &PawnConfig, types: &[PieceType]) -> Result<PawnRules<B>, String> {
    let nsq = geo.squares();
    let start_idx =
        geo.rank_index(pc.start_rank).ok_or_else(|| format!("pawn start_rank {} is off the board", pc.start_rank))?;
    let promo_idx = geo
        .rank_index(pc.promotion_rank)
        .ok_or_else(|| format!("pawn promotion_rank {} is off the board", pc.promotion_rank))?;
    let rank_mask =
        |r: i32| (0..nsq).filter(|&s| geo.exists(s) && geo.rank(s) == r).fold(B::ZERO, |a, s| a | B::bit(s));
    let last = geo.ranks as i32 - 1;
    let side_files: Vec<i32> = pc
        .sideways_files
        .iter()
        .map(|f| match f.as_bytes() {
            [c] if c.is_ascii_lowercase() && ((c - b'a') as usize) < geo.files => Ok((c - b'a') as i32),
            _ => Err(format!("sideways file '{f}' is not a file of this board")),
        })
        .collect::<Result<_, _>>()?;
    let sideways = sideways_steps::<B>(geo, &side_files);
    let (push, captures) = pawn_steps(geo, pc.capture, &sideways);
    let captures_rev = [reverse(&captures[0], nsq), reverse(&captures[1], nsq)];
    let promotion = pc
        .promotion
        .iter()
        .map(|l| if l == "setup" { Ok(Promotion::Setup) } else { letter_type(types, l).map(Promotion::Type) })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("pawn promotion: {e}"))?;
    let setwise = pc.capture == PawnCapture::Diagonal && sideways.iter().all(|b| b.is_empty());
    Ok(PawnRules {
        multi_step: pc.multi_step.max(1),
        push,
        start: [rank_mask(start_idx), rank_mask(last - start_idx)],
        // Pawns that promote to nothing never promote: they stay on the last rank, as
        // Fairy-Stockfish's `promotionPawnTypes = -` has them.
        promo_zone: if promotion.is_empty() {
            [B::ZERO; 2]
        } else {
            [rank_mask(promo_idx), rank_mask(last - promo_idx)]
        },
        captures,
        captures_rev,
        forward_capture: pc.capture == PawnCapture::Forward,
        en_passant: pc.en_passant,
        sideways,
        promotion,
        only_lost: pc.promotion_only_lost,
        setwise,
        capture_from: [
            (0..nsq).filter(|&s| geo.file(s) > 0).fold(B::ZERO, |a, s| a | B::bit(s)),
            (0..nsq).filter(|&s| geo.file(s) < geo.files as i32 - 1).fold(B::ZERO, |a, s| a | B::bit(s)),
        ],
    })
}

/// Sideways pawn steps: from a sideways file to a neighbouring file that is not one.
fn sideways_steps<B: Bits>(geo: &Geometry, side_files: &[i32]) -> Vec<B> {
    let mut sideways = vec![B::ZERO; geo.squares()];
    for sq in (0..geo.squares()).filter(|&s| geo.exists(s) && side_files.contains(&geo.file(s))) {
        for dx in [-1, 1] {
            if let Some(to) = geo.offset(sq, dx, 0) {
                if !side_files.contains(&geo.file(to)) {
                    sideways[sq] |= B::bit(to);
                }
            }
        }
    }
    sideways
}

type PawnSteps<B> = ([Vec<u8>; 2], [Vec<B>; 2]);

/// Per colour and square: the one-step push target, and the capture targets (sideways
/// steps capture too).
fn pawn_steps<B: Bits>(geo: &Geometry, capture: PawnCapture, sideways: &[B]) -> PawnSteps<B> {
    let nsq = geo.squares();
    let mut push = [vec![NO_SQUARE; nsq], vec![NO_SQUARE; nsq]];
    let mut captures = [vec![B::ZERO; nsq], vec![B::ZERO; nsq]];
    for sq in (0..nsq).filter(|&s| geo.exists(s)) {
        for color in 0..2 {
            let dy = if color == WHITE { 1 } else { -1 };
            if let Some(to) = geo.offset(sq, 0, dy) {
                push[color][sq] = to as u8;
            }
            let dxs: &[i32] = match capture {
                PawnCapture::Diagonal => &[-1, 1],
                PawnCapture::Forward => &[0],
            };
            let mut c = sideways[sq];
            for &dx in dxs {
                if let Some(to) = geo.offset(sq, dx, dy) {
                    c |= B::bit(to);
                }
            }
            captures[color][sq] = c;
        }
    }
    (push, captures)
}

struct Castles<B> {
    options: Vec<CastleOption<B>>,
    /// Per square, the rights that survive a move from or to it.
    keep: Vec<u8>,
    /// (index, letter) of each rights letter; one rights bit per letter and colour.
    letters: Vec<(u8, char)>,
}

fn castling<B: Bits>(geo: &Geometry, cfg: &VariantConfig, types: &[PieceType]) -> Result<Castles<B>, String> {
    let mut out = Castles { options: Vec::new(), keep: vec![0xFFu8; geo.squares()], letters: Vec::new() };
    for c in &cfg.castling {
        let letter = c.right.chars().next().filter(|l| l.is_ascii_uppercase() && c.right.len() == 1);
        let letter = letter.ok_or_else(|| format!("castling right '{}' must be one upper-case letter", c.right))?;
        let index = match out.letters.iter().position(|&(_, l)| l == letter) {
            Some(i) => i,
            None => {
                out.letters.push((out.letters.len() as u8, letter));
                out.letters.len() - 1
            }
        };
        if index >= 4 {
            return Err("at most four castling-right letters".into());
        }
        let rook_type = letter_type(types, &c.rook_piece)?;
        for color in 0..2 {
            let m = |name: &str| -> Result<usize, String> {
                let s = square(geo, name, "castling")?;
                Ok(if color == WHITE { s } else { geo.mirror(s) })
            };
            let (kf, kt, rf, rt) = (m(&c.king_from)?, m(&c.king_to)?, m(&c.rook_from)?, m(&c.rook_to)?);
            let mut empty = B::ZERO;
            for s in &c.empty {
                empty |= B::bit(m(s)?);
            }
            // King and rook may stand on their own path; they are lifted before moving.
            empty &= !(B::bit(kf) | B::bit(rf));
            let mut transit = Vec::new();
            for s in &c.safe {
                let s = m(s)?;
                if s != kf && s != kt {
                    transit.push(s as u8);
                }
            }
            let right = (color * 4 + index) as u8;
            out.keep[kf] &= !(0xF << (color * 4));
            out.keep[rf] &= !(1 << right);
            out.options.push(CastleOption {
                color,
                right,
                king_from: kf as u8,
                king_to: kt as u8,
                rook_from: rf as u8,
                rook_to: rt as u8,
                rook_type,
                empty,
                transit,
            });
        }
    }
    Ok(out)
}

fn setup_rules(geo: &Geometry, s: &SetupConfig, types: &[PieceType]) -> Result<SetupRules, String> {
    let mut slots = [Vec::new(), Vec::new()];
    for name in &s.slots {
        let sq = square(geo, name, "setup slot")?;
        slots[0].push(sq as u8);
        slots[1].push(geo.mirror(sq) as u8);
    }
    let choices = s.choices.iter().map(|l| letter_type(types, l)).collect::<Result<Vec<_>, _>>()?;
    let parse_side = |text: &str| -> Result<Vec<usize>, String> {
        text.chars().map(|c| letter_type(types, &c.to_string())).collect()
    };
    let parts: Vec<&str> = s.default.split('/').collect();
    if parts.len() != 2 {
        return Err(format!("setup default '{}' must look like WW/WW", s.default));
    }
    let default = [parse_side(parts[0])?, parse_side(parts[1])?];
    let pawn_capture = s.pawn_capture_setup.as_deref().map(parse_side).transpose()?;
    Ok(SetupRules { slots, choices, default, pawn_capture })
}

fn draw_rules(cfg: &VariantConfig, types: &[PieceType]) -> Result<DrawRules, String> {
    let mask = |letters: &[String]| -> Result<u16, String> {
        letters.iter().try_fold(0u16, |m, l| Ok(m | 1 << letter_type(types, l)?))
    };
    Ok(DrawRules {
        no_progress_plies: cfg.draw.no_progress_plies,
        repetitions: cfg.draw.repetitions,
        ply_cap: cfg.draw.ply_cap,
        lone_minors: mask(&cfg.draw.lone_minors)?,
        colour_bound: mask(&cfg.draw.colour_bound)?,
    })
}

/// Per option, the pieces whose worth it changes: those it lists, else those it patches.
fn option_pieces(cfg: &VariantConfig, types: &[PieceType]) -> Result<Vec<(String, Vec<char>)>, String> {
    cfg.options
        .iter()
        .map(|(name, o)| {
            let named: Vec<String> = if o.pieces.is_empty() {
                o.patch.get("pieces").and_then(|p| p.as_table()).map_or(vec![], |t| t.keys().cloned().collect())
            } else {
                o.pieces.clone()
            };
            let letters = named
                .iter()
                .map(|l| letter_type(types, l).map(|t| types[t].letter))
                .collect::<Result<Vec<char>, String>>()
                .map_err(|e| format!("option '{name}': pieces: {e}"))?;
            Ok((name.clone(), letters))
        })
        .collect()
}

/// Published figures, checked: a score is a fraction, a value a positive number of pawns
/// of a piece the variant has.
fn published(cfg: &VariantConfig, types: &[PieceType]) -> Result<crate::variant::config::Published, String> {
    let p = &cfg.published;
    for b in &p.balance {
        if !(b.white_score > 0.0 && b.white_score < 1.0) {
            return Err(format!(
                "published balance '{}': white_score {} must be a fraction between 0 and 1",
                b.source, b.white_score
            ));
        }
    }
    for v in &p.values {
        for (letter, &value) in &v.pieces {
            letter_type(types, letter).map_err(|e| format!("published values '{}': {e}", v.source))?;
            if !(value.is_finite() && value > 0.0) {
                return Err(format!(
                    "published values '{}': {letter} = {value} must be a positive number of pawns",
                    v.source
                ));
            }
        }
    }
    Ok(p.clone())
}

/// The orthodox piece whose moves `atoms` are, compared as sets of atoms, so `RB` is a
/// queen as much as `Q` is.
fn orthodox_moves(atoms: &[Atom]) -> Option<char> {
    let set = |a: &[Atom]| {
        let mut v: Vec<String> = a.iter().map(|x| format!("{x:?}")).collect();
        v.sort();
        v.dedup();
        v
    };
    let own = set(atoms);
    ['N', 'B', 'R', 'Q'].into_iter().find(|c| betza::parse(&c.to_string()).is_ok_and(|o| set(&o) == own))
}

/// `[report] headline`: each `X=Y` names two piece types of the variant, neither royal nor
/// the pawn, and not the same.
fn headline(cfg: &VariantConfig, types: &[PieceType]) -> Result<Vec<(char, char)>, String> {
    cfg.report
        .headline
        .iter()
        .map(|h| {
            let bad = |why: &str| format!("[report] headline '{h}': {why}");
            let (a, b) = h.split_once('=').ok_or_else(|| bad("write it as X=Y, two piece letters"))?;
            let one = |s: &str| -> Result<char, String> {
                let t = letter_type(types, s.trim()).map_err(|e| bad(&e))?;
                if types[t].royal || types[t].pawn {
                    return Err(bad(&format!("{} is royal or the pawn; compare two other pieces", types[t].letter)));
                }
                Ok(types[t].letter)
            };
            let (x, y) = (one(a)?, one(b)?);
            if x == y {
                return Err(bad("compares a piece with itself"));
            }
            Ok((x, y))
        })
        .collect()
}

/// Pieces per colour and type in the start position: "promotion only to lost pieces"
/// counts against them.
fn initial_counts<B: Bits>(rules: &Rules<B>, start: &str) -> Result<[[u8; MAX_TYPES]; 2], String> {
    let mut counts = [[0; MAX_TYPES]; 2];
    let board_field = start.split_whitespace().next().unwrap_or("");
    for c in board_field.chars().filter(|c| c.is_ascii_alphabetic()) {
        let color = if c.is_ascii_uppercase() { WHITE } else { BLACK };
        let t = rules.type_of_letter(c).ok_or_else(|| format!("start position: unknown piece letter '{c}'"))?;
        counts[color][t] += 1;
    }
    Ok(counts)
}
