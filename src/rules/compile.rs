//! Variant config -> compiled [`Rules`].

use super::*;
use crate::variant::betza::{self, AtomKind, CAPTURE, MOVE};
use crate::variant::config::{Landing, PawnCapture, VariantConfig};
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
    let b = &cfg.board;
    let mut geo = Geometry::new(b.files, b.ranks, b.first_rank)?;
    if geo.squares() > B::CAPACITY {
        return Err(format!("board of {} squares needs a wider bitboard", geo.squares()));
    }
    for h in &b.holes {
        let sq = geo.parse_any(h).ok_or_else(|| format!("hole '{h}' is outside the board"))?;
        geo.remove(sq);
    }
    let nsq = geo.squares();
    let exists = (0..nsq).filter(|&s| geo.exists(s)).fold(B::ZERO, |a, s| a | B::bit(s));

    // Piece types.
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
        let bomber = atoms.iter().any(|a| a.kind == AtomKind::Bomber);
        let replaces = match p.replaces.as_deref() {
            None => None,
            Some(r) if r.len() == 1 && "PNBRQK".contains(r) => r.chars().next(),
            Some(r) => {
                return Err(format!("piece {letter}: replaces = \"{r}\" is not an orthodox piece letter (P N B R Q K)"))
            }
        };
        types.push(PieceType { letter: c, name: p.name.clone(), royal: p.royal, pawn: p.pawn, bomber, replaces });
        atoms_of.push(atoms);
    }
    let ntypes = types.len();
    let royals: Vec<usize> = (0..ntypes).filter(|&t| types[t].royal).collect();
    let [king] = royals[..] else {
        return Err("exactly one piece type must be royal".into());
    };
    let pawns: Vec<usize> = (0..ntypes).filter(|&t| types[t].pawn).collect();
    if pawns.len() > 1 {
        return Err("at most one piece type can be the pawn".into());
    }
    let pawn_type = pawns.first().copied();
    if pawn_type.is_some() != cfg.pawn.is_some() {
        return Err("a pawn piece type and a [pawn] section go together".into());
    }
    let bombers: Vec<usize> = (0..ntypes).filter(|&t| types[t].bomber).collect();
    if bombers.len() > 1 {
        return Err("at most one piece type can be a bomber".into());
    }
    let bomber = bombers.first().copied();
    let letter_type = |l: &str| -> Result<usize, String> {
        types
            .iter()
            .position(|t| t.letter.to_string() == l.to_ascii_uppercase())
            .ok_or_else(|| format!("unknown piece letter '{l}'"))
    };

    let mut rb = RayBuilder { geo: &geo, info: Vec::new(), bits: Vec::new(), ids: HashMap::new() };
    let orth = [rb.id(0, 1, 0), rb.id(1, 0, 0), rb.id(0, -1, 0), rb.id(-1, 0, 0)];

    // Leapers and riders per colour; Black's vectors are White's mirrored.
    let mut leap_quiet = vec![B::ZERO; 2 * ntypes * nsq];
    let mut leap_cap = vec![B::ZERO; 2 * ntypes * nsq];
    let mut riders = vec![Vec::new(); 2 * ntypes];
    let mut groups: Vec<AttackGroup> = Vec::new();
    for (t, atoms) in atoms_of.iter().enumerate() {
        for atom in atoms {
            for color in 0..2 {
                for &(dx, dy0) in &atom.vectors {
                    let dy = if color == WHITE { dy0 } else { -dy0 };
                    match atom.kind {
                        AtomKind::Leap => {
                            for sq in 0..nsq {
                                if !geo.exists(sq) {
                                    continue;
                                }
                                if let Some(to) = geo.offset(sq, dx, dy) {
                                    let i = (color * ntypes + t) * nsq + sq;
                                    if atom.mode & MOVE != 0 {
                                        leap_quiet[i] |= B::bit(to);
                                    }
                                    if atom.mode & CAPTURE != 0 {
                                        leap_cap[i] |= B::bit(to);
                                    }
                                }
                            }
                        }
                        AtomKind::Ride { range } => {
                            let ray = rb.id(dx, dy, range);
                            riders[color * ntypes + t].push(RiderAtom { ray, mode: atom.mode });
                            if atom.mode & CAPTURE != 0 {
                                let back = rb.id(-dx, -dy, range);
                                match groups.iter_mut().find(|g| g.ray == back) {
                                    Some(g) => g.types[color] |= 1 << t,
                                    None => {
                                        let mut g = AttackGroup { ray: back, types: [0; 2] };
                                        g.types[color] |= 1 << t;
                                        groups.push(g);
                                    }
                                }
                            }
                        }
                        AtomKind::Bomber => {}
                    }
                }
            }
        }
    }
    let mut leap_cap_rev = vec![B::ZERO; 2 * ntypes * nsq];
    for color in 0..2 {
        for t in 0..ntypes {
            for sq in 0..nsq {
                for to in leap_cap[(color * ntypes + t) * nsq + sq].iter() {
                    leap_cap_rev[(color * ntypes + t) * nsq + to] |= B::bit(sq);
                }
            }
        }
    }
    let leap_attackers =
        (0..ntypes).filter(|&t| (0..2 * nsq).any(|i| leap_cap[(i / nsq * ntypes + t) * nsq + i % nsq].any())).collect();

    let step = (0..nsq)
        .map(|sq| {
            let f = |dx, dy| geo.offset(sq, dx, dy).map_or(NO_SQUARE, |s| s as u8);
            [f(0, 1), f(1, 0), f(0, -1), f(-1, 0)]
        })
        .collect();

    // Pawns.
    let pawn = match &cfg.pawn {
        None => None,
        Some(pc) => {
            let start_idx = geo
                .rank_index(pc.start_rank)
                .ok_or_else(|| format!("pawn start_rank {} is off the board", pc.start_rank))?;
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
            let mut push = [vec![NO_SQUARE; nsq], vec![NO_SQUARE; nsq]];
            let mut captures = [vec![B::ZERO; nsq], vec![B::ZERO; nsq]];
            let mut sideways = vec![B::ZERO; nsq];
            for sq in (0..nsq).filter(|&s| geo.exists(s)) {
                if side_files.contains(&geo.file(sq)) {
                    for dx in [-1, 1] {
                        if let Some(to) = geo.offset(sq, dx, 0) {
                            if !side_files.contains(&geo.file(to)) {
                                sideways[sq] |= B::bit(to);
                            }
                        }
                    }
                }
                for color in 0..2 {
                    let dy = if color == WHITE { 1 } else { -1 };
                    if let Some(to) = geo.offset(sq, 0, dy) {
                        push[color][sq] = to as u8;
                    }
                    let mut c = sideways[sq];
                    match pc.capture {
                        PawnCapture::Diagonal => {
                            for dx in [-1, 1] {
                                if let Some(to) = geo.offset(sq, dx, dy) {
                                    c |= B::bit(to);
                                }
                            }
                        }
                        PawnCapture::Forward => {
                            if let Some(to) = geo.offset(sq, 0, dy) {
                                c |= B::bit(to);
                            }
                        }
                    }
                    captures[color][sq] = c;
                }
            }
            let mut captures_rev = [vec![B::ZERO; nsq], vec![B::ZERO; nsq]];
            for color in 0..2 {
                for sq in 0..nsq {
                    for to in captures[color][sq].iter() {
                        captures_rev[color][to] |= B::bit(sq);
                    }
                }
            }
            let promotion = pc
                .promotion
                .iter()
                .map(|l| if l == "setup" { Ok(Promotion::Setup) } else { letter_type(l).map(Promotion::Type) })
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| format!("pawn promotion: {e}"))?;
            let setwise = pc.capture == PawnCapture::Diagonal && sideways.iter().all(|b| b.is_empty());
            Some(PawnRules {
                multi_step: pc.multi_step.max(1),
                push,
                start: [rank_mask(start_idx), rank_mask(last - start_idx)],
                promo_zone: [rank_mask(promo_idx), rank_mask(last - promo_idx)],
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
    };

    // Castling: one rights bit per letter and colour.
    let mut right_letters: Vec<(u8, char)> = Vec::new();
    let mut castling = Vec::new();
    let mut castle_keep = vec![0xFFu8; nsq];
    for c in &cfg.castling {
        let letter = c.right.chars().next().filter(|l| l.is_ascii_uppercase() && c.right.len() == 1);
        let letter = letter.ok_or_else(|| format!("castling right '{}' must be one upper-case letter", c.right))?;
        let index = match right_letters.iter().position(|&(_, l)| l == letter) {
            Some(i) => i,
            None => {
                right_letters.push((right_letters.len() as u8, letter));
                right_letters.len() - 1
            }
        };
        if index >= 4 {
            return Err("at most four castling-right letters".into());
        }
        let rook_type = letter_type(&c.rook_piece)?;
        for color in 0..2 {
            let m = |name: &str| -> Result<usize, String> {
                let s = square(&geo, name, "castling")?;
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
            castle_keep[kf] &= !(0xF << (color * 4));
            castle_keep[rf] &= !(1 << right);
            castling.push(CastleOption {
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

    let setup = match &cfg.setup {
        None => None,
        Some(s) => {
            let mut slots = [Vec::new(), Vec::new()];
            for name in &s.slots {
                let sq = square(&geo, name, "setup slot")?;
                slots[0].push(sq as u8);
                slots[1].push(geo.mirror(sq) as u8);
            }
            let choices = s.choices.iter().map(|l| letter_type(l)).collect::<Result<Vec<_>, _>>()?;
            let parse_side = |text: &str| -> Result<Vec<usize>, String> {
                text.chars().map(|c| letter_type(&c.to_string())).collect()
            };
            let parts: Vec<&str> = s.default.split('/').collect();
            if parts.len() != 2 {
                return Err(format!("setup default '{}' must look like WW/WW", s.default));
            }
            let default = [parse_side(parts[0])?, parse_side(parts[1])?];
            let pawn_capture = s.pawn_capture_setup.as_deref().map(parse_side).transpose()?;
            Some(SetupRules { slots, choices, default, pawn_capture })
        }
    };

    let mask = |letters: &[String]| -> Result<u16, String> {
        letters.iter().try_fold(0u16, |m, l| Ok(m | 1 << letter_type(l)?))
    };
    let draw = DrawRules {
        no_progress_plies: cfg.draw.no_progress_plies,
        repetitions: cfg.draw.repetitions,
        ply_cap: cfg.draw.ply_cap,
        lone_minors: mask(&cfg.draw.lone_minors)?,
        colour_bound: mask(&cfg.draw.colour_bound)?,
    };

    let option_pieces = cfg
        .options
        .iter()
        .map(|(name, o)| {
            let named: Vec<String> = if o.pieces.is_empty() {
                o.patch.get("pieces").and_then(|p| p.as_table()).map_or(vec![], |t| t.keys().cloned().collect())
            } else {
                o.pieces.clone()
            };
            let letters = named
                .iter()
                .map(|l| letter_type(l).map(|t| types[t].letter))
                .collect::<Result<Vec<char>, String>>()
                .map_err(|e| format!("option '{name}': pieces: {e}"))?;
            Ok((name.clone(), letters))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let RayBuilder { info: ray_info, bits: ray_bits, .. } = rb;
    let mut rules = Rules {
        name: cfg.name.clone(),
        title: cfg.title.clone(),
        description: cfg.description.clone(),
        options: options.iter().map(|s| s.to_string()).collect(),
        option_list: cfg.options.iter().map(|(k, v)| (k.clone(), v.description.clone())).collect(),
        option_pieces,
        geo,
        exists,
        nsq,
        types,
        king,
        pawn_type,
        bomber,
        leap_quiet,
        leap_cap,
        leap_cap_rev,
        leap_attackers,
        riders,
        ray_info,
        ray_bits,
        attack_groups: groups,
        step,
        orth,
        immediate_landing: cfg.rules.bomber_landing == Landing::Immediate,
        pawn,
        castling,
        castle_keep,
        right_letters,
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
    // "Promotion only to lost pieces" counts against the start position's material.
    let board_field = cfg.start.split_whitespace().next().unwrap_or("");
    for c in board_field.chars().filter(|c| c.is_ascii_alphabetic()) {
        let color = if c.is_ascii_uppercase() { WHITE } else { BLACK };
        let t = rules.type_of_letter(c).ok_or_else(|| format!("start position: unknown piece letter '{c}'"))?;
        rules.initial_counts[color][t] += 1;
    }
    Ok(rules)
}
