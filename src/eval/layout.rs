//! The named features of a variant's evaluation and the per-square tables they use.
//!
//! The evaluation is linear in its weights: `eval = sum(w_i * f_i(position))`, with the
//! phase (middlegame/endgame) folded into the feature values. Names are stable strings
//! (`value.F.mg`, `mobility.N.eg`, `pawn.passed.eg`) so tools can read, write and fit them.

use crate::rules::{Bits, Rules, MAX_TYPES};

/// Feature indices of a middlegame/endgame pair.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pair {
    pub mg: usize,
    pub eg: usize,
}

pub const NONE: usize = usize::MAX;
pub const NO_STOP: usize = usize::MAX;

#[derive(Clone, Debug)]
pub struct Layout {
    pub names: Vec<String>,
    pub value: [Pair; MAX_TYPES],
    pub center: [Pair; MAX_TYPES],
    pub advance: [Pair; MAX_TYPES],
    pub mobility: [Pair; MAX_TYPES],
    /// Pieces on a file without pawns, and on one without own pawns (sliders' files).
    pub open: [Pair; MAX_TYPES],
    pub semiopen: [Pair; MAX_TYPES],
    pub passed: Pair,
    pub doubled: Pair,
    pub isolated: Pair,
    pub shelter: usize,
    pub tropism: usize,
    pub tempo: usize,
    /// Two or more pieces of a colour-bound type (the bishop pair), per type.
    pub pair: [Pair; MAX_TYPES],
    /// Enemy pieces attacked by a pawn, by a lesser piece, and attacked but undefended.
    pub threat_pawn: Pair,
    pub threat_lesser: Pair,
    pub hanging: Pair,
    /// Attacks on the enemy king's zone (piece-square hits) and the number of attackers,
    /// squared (a few attackers together are worth more than their sum).
    pub king_attack: usize,
    pub king_attackers2: usize,
    /// Castling options still available to the side.
    pub castling: usize,
    /// Passed pawns by the square of their progress (a pawn near promotion is worth far
    /// more than the linear `pawn.passed` term says), with the stop square blocked, and
    /// (endgame only) by how much nearer the own king is to the stop square than the enemy's.
    pub passed_rank2: Pair,
    pub passed_blocked: Pair,
    pub passed_king: usize,
    /// Pawns defended by an own pawn, and pawns with an own pawn beside them (phalanx).
    pub supported: Pair,
    pub phalanx: Pair,
    /// Per type: pieces on an outpost (enemy half, defended by an own pawn, out of reach
    /// of enemy pawns).
    pub outpost: [Pair; MAX_TYPES],
    /// Per type: a piece's bonus by the rank it stands on (counted from its own side) and by
    /// its file (mirrored, so the a- and h-files share one weight): a per-square table in
    /// compact form, few enough weights for Texel tuning to fit. Indexed `t * ranks + rank`
    /// and `t * file_buckets + bucket`.
    pub rank_pst: Vec<Pair>,
    pub file_pst: Vec<Pair>,
    /// Indexed `(t * ranks + rank) * file_buckets + bucket`.
    pub square_pst: Vec<Pair>,
    pub ranks: usize,
    pub file_buckets: usize,
    /// Per colour and square: the rank counted from that colour's side; per square: the
    /// mirrored file bucket.
    pub rel_rank: [Vec<u8>; 2],
    pub file_bucket: Vec<u8>,
    /// Per colour: the squares of the far half of the board.
    pub enemy_half: [u128; 2],
    /// Per square: the squares beside it on the same rank.
    pub beside: Vec<u128>,
    /// Per colour and square: the square a pawn there would step to next (`NO_STOP` if none).
    pub stop: [Vec<usize>; 2],
    /// Per square: file and rank, for king distances.
    pub coords: Vec<(i8, i8)>,
    /// Squares from which a piece could check the enemy king and that no enemy piece
    /// guards, counted per piece able to go there; only types whose attacks are symmetric
    /// (a piece on a attacks b exactly when one on b attacks a), so that the squares are
    /// the ones the type attacks from the king's square.
    pub safe_checks: usize,
    /// Hits on the enemy king's zone times the number of pieces making them: an attack
    /// by several pieces is worth more than the sum of its hits. Zero unless tuned.
    pub king_danger: usize,
    /// Per type, the square root of each piece's mobility: the first free squares matter
    /// more than the tenth. Zero unless tuned.
    pub mobility_root: [Pair; MAX_TYPES],
    /// A passed pawn's progress when nothing stands on its file ahead of it. Zero unless tuned.
    pub passed_free: Pair,
    /// King safety beyond counting hits (zero unless tuned; middlegame only):
    /// - `king.weak`: squares of the enemy king's zone a side attacks and no enemy piece
    ///   but the king defends, and `king.weak.attackers` the same times the attackers;
    /// - `king.danger2`: the square of `king.danger`'s value over 64, the fast growth of
    ///   an attack once several pieces join;
    /// - `king.checks.attackers`: safe checks times the attackers on the zone;
    /// - `king.storm`: enemy pawns on the king's and the adjacent files up to three ranks
    ///   ahead of it; `king.open`: those files without an own pawn.
    pub king_weak: usize,
    pub king_weak_attackers: usize,
    pub king_danger2: usize,
    pub king_checks_attackers: usize,
    pub king_storm: usize,
    pub king_open: usize,
    /// Per victim type: enemy pieces of that type attacked by a pawn or a lesser piece
    /// (`threat.on.Q`): a threat on a queen is worth more than one on a knight. Zero
    /// unless tuned.
    pub threat_on: [Pair; MAX_TYPES],
    /// Fairy-Stockfish's classical pawn, piece and threat knowledge (zero unless tuned):
    /// - `pawn.backward`: a pawn, not isolated, with no own pawn beside or behind it on the
    ///   adjacent files up to its stop square's rank, whose stop square an enemy pawn holds
    ///   or attacks; `pawn.weak.unopposed`: an isolated or backward pawn with no enemy pawn
    ///   ahead on its file (a target for rooks);
    /// - `threat.push`: enemy pieces (not pawns or the king) that a pawn's step to a safe,
    ///   empty square would attack; `threat.safe_pawn`: those attacked now by a pawn that
    ///   stands safe (unattacked, or defended);
    /// - `threat.restricted`: squares both sides attack that the enemy does not hold
    ///   strongly (by a pawn, or twice where the side attacks once);
    /// - `behind_pawn.N`: pieces with a pawn (either side's) on the square in front;
    /// - `pawns.colour.B`: per colour-bound type, own pawns on the piece's square colour,
    ///   times one plus the own blocked pawns on the central files;
    /// - `space` (middlegame only): central squares on the side's first ranks, not
    ///   attacked by enemy pawns and not holding its own, those behind its pawns and not
    ///   attacked counted twice, times the square of its piece count less three plus the
    ///   blocked pawns (up to nine), over 256 (Fairy-Stockfish divides by 16; 256 keeps the
    ///   feature near the others' size, since a fit steps in weight units).
    pub backward: Pair,
    pub weak_unopposed: Pair,
    pub threat_push: Pair,
    pub threat_safe_pawn: Pair,
    pub restricted: Pair,
    pub behind_pawn: [Pair; MAX_TYPES],
    pub colour_pawns: [Pair; MAX_TYPES],
    pub space: usize,
    /// `threat.queen.next`: squares from which a lesser piece of the side that already
    /// bears on them would attack an enemy piece of the most valuable type, and that are
    /// safe to go to (no enemy pawn attacks them, and the side defends them if the enemy
    /// attacks them). Zero unless tuned.
    pub threat_next: Pair,
    /// The most valuable non-royal type (the queen), `NONE` if none.
    pub queen_type: usize,
    /// Per square parity (file + rank even: 0): the squares of that colour.
    pub square_colour: [u128; 2],
    /// The central files: all but the outer quarter on each side.
    pub central: u128,
    /// Per colour: the space squares (central files, the side's ranks 2 up to below the
    /// middle).
    pub space_area: [u128; 2],
    /// Per colour and square: up to three squares behind it on its file.
    pub rear: [Vec<u128>; 2],
    /// Per colour and square: files within one of it, one to three ranks ahead.
    pub storm: [Vec<u128>; 2],
    pub symmetric: [bool; MAX_TYPES],
    /// Per type: the non-pawn, non-royal types worth clearly less (bit per type).
    pub lesser: [u32; MAX_TYPES],
    /// Per square: 1 in the centre, 0 in the farthest corner.
    pub centrality: Vec<f32>,
    /// Per colour and square: 0 on the side's first rank, 1 on the last.
    pub progress: [Vec<f32>; 2],
    /// Per colour and square: squares ahead on the same and the adjacent files.
    pub front_span: [Vec<u128>; 2],
    /// Per colour and square: squares ahead on the same file.
    pub front_file: [Vec<u128>; 2],
    /// Per square: the adjacent files (all ranks).
    pub adjacent_files: Vec<u128>,
    /// Per square: its own file (all ranks).
    pub file: Vec<u128>,
    /// Per colour and square: the squares in front of a king (shelter).
    pub shield: [Vec<u128>; 2],
    /// Per square: squares within king distance 2 (tropism zone).
    pub near: Vec<u128>,
    /// Per square: the square and its neighbours (the king zone).
    pub zone: Vec<u128>,
}

impl Layout {
    pub fn new<B: Bits>(r: &Rules<B>) -> Layout {
        let mut names = Vec::new();
        let mut add = |name: String| {
            names.push(name);
            names.len() - 1
        };
        let pair = |add: &mut dyn FnMut(String) -> usize, base: String| Pair {
            mg: add(format!("{base}.mg")),
            eg: add(format!("{base}.eg")),
        };
        let unset = Pair { mg: NONE, eg: NONE };
        let mut value = [unset; MAX_TYPES];
        let mut center = [unset; MAX_TYPES];
        let mut advance = [unset; MAX_TYPES];
        let mut mobility = [unset; MAX_TYPES];
        let mut open = [unset; MAX_TYPES];
        let mut semiopen = [unset; MAX_TYPES];
        for (t, pt) in r.types.iter().enumerate() {
            let l = pt.letter;
            if t != r.king {
                value[t] = pair(&mut add, format!("value.{l}"));
            }
            center[t] = pair(&mut add, format!("pst.{l}.center"));
            advance[t] = pair(&mut add, format!("pst.{l}.advance"));
            if !pt.pawn {
                mobility[t] = pair(&mut add, format!("mobility.{l}"));
            }
        }
        // After every per-type name, so that earlier names keep their indices.
        if r.pawn_type.is_some() {
            for (t, pt) in r.types.iter().enumerate() {
                if t != r.king && !pt.pawn {
                    open[t] = pair(&mut add, format!("open.{}", pt.letter));
                    semiopen[t] = pair(&mut add, format!("semiopen.{}", pt.letter));
                }
            }
        }
        let passed = pair(&mut add, "pawn.passed".into());
        let doubled = pair(&mut add, "pawn.doubled".into());
        let isolated = pair(&mut add, "pawn.isolated".into());
        let shelter = add("king.shelter".into());
        let tropism = add("king.tropism".into());
        let tempo = add("tempo".into());
        // Added after every older name, so that their indices stay put.
        let mut pair_w = [unset; MAX_TYPES];
        for (t, pt) in r.types.iter().enumerate() {
            if t != r.king && !pt.pawn && colour_bound(r, t) {
                pair_w[t] = pair(&mut add, format!("pair.{}", pt.letter));
            }
        }
        let threat_pawn = if r.pawn_type.is_some() { pair(&mut add, "threat.pawn".into()) } else { unset };
        let threat_lesser = pair(&mut add, "threat.lesser".into());
        let hanging = pair(&mut add, "threat.hanging".into());
        let king_attack = add("king.attack".into());
        let king_attackers2 = add("king.attackers2".into());
        let castling = if r.castling.is_empty() { NONE } else { add("king.castling".into()) };
        let (passed_rank2, passed_blocked, passed_king) = if r.pawn_type.is_some() {
            (
                pair(&mut add, "pawn.passed.rank2".into()),
                pair(&mut add, "pawn.passed.blocked".into()),
                add("pawn.passed.king".into()),
            )
        } else {
            (unset, unset, NONE)
        };
        let (supported, phalanx) = if r.pawn_type.is_some() {
            (pair(&mut add, "pawn.supported".into()), pair(&mut add, "pawn.phalanx".into()))
        } else {
            (unset, unset)
        };
        let mut outpost = [unset; MAX_TYPES];
        if r.pawn_type.is_some() {
            for (t, pt) in r.types.iter().enumerate() {
                if t != r.king && !pt.pawn {
                    outpost[t] = pair(&mut add, format!("outpost.{}", pt.letter));
                }
            }
        }
        let geo = &r.geo;
        let (ranks, file_buckets) = (geo.ranks, geo.files.div_ceil(2));
        let mut rank_pst = Vec::with_capacity(r.ntypes() * ranks);
        let mut file_pst = Vec::with_capacity(r.ntypes() * file_buckets);
        for pt in &r.types {
            for k in 1..=ranks {
                rank_pst.push(pair(&mut add, format!("pst.{}.rank{k}", pt.letter)));
            }
            for k in 1..=file_buckets {
                file_pst.push(pair(&mut add, format!("pst.{}.file{k}", pt.letter)));
            }
        }
        let safe_checks = add("king.safe_checks".into());
        // Per type, relative rank and folded file: what the rank and file terms, which
        // add up, cannot say (a knight on the rim of the third rank, a pawn in the centre
        // of the fourth). Added last, so every older name keeps its index.
        let mut square_pst = Vec::with_capacity(r.ntypes() * ranks * file_buckets);
        for pt in &r.types {
            for k in 1..=ranks {
                for f in 1..=file_buckets {
                    square_pst.push(pair(&mut add, format!("pst.{}.r{k}f{f}", pt.letter)));
                }
            }
        }
        // Added after the square terms, so that every older name keeps its index.
        let king_danger = add("king.danger".into());
        let mut mobility_root = [unset; MAX_TYPES];
        for (t, pt) in r.types.iter().enumerate() {
            if !pt.pawn {
                mobility_root[t] = pair(&mut add, format!("mobility.{}.root", pt.letter));
            }
        }
        let passed_free = if r.pawn_type.is_some() { pair(&mut add, "pawn.passed.free".into()) } else { unset };
        // Added last, so that every older name keeps its index.
        let king_weak = add("king.weak".into());
        let king_weak_attackers = add("king.weak.attackers".into());
        let king_danger2 = add("king.danger2".into());
        let king_checks_attackers = add("king.checks.attackers".into());
        let (king_storm, king_open) =
            if r.pawn_type.is_some() { (add("king.storm".into()), add("king.open".into())) } else { (NONE, NONE) };
        let mut threat_on = [unset; MAX_TYPES];
        for (t, pt) in r.types.iter().enumerate() {
            if t != r.king && !pt.pawn {
                threat_on[t] = pair(&mut add, format!("threat.on.{}", pt.letter));
            }
        }
        let (backward, weak_unopposed, threat_push, threat_safe_pawn) = if r.pawn_type.is_some() {
            (
                pair(&mut add, "pawn.backward".into()),
                pair(&mut add, "pawn.weak.unopposed".into()),
                pair(&mut add, "threat.push".into()),
                pair(&mut add, "threat.safe_pawn".into()),
            )
        } else {
            (unset, unset, unset, unset)
        };
        let restricted = pair(&mut add, "threat.restricted".into());
        let mut behind_pawn = [unset; MAX_TYPES];
        let mut colour_pawns = [unset; MAX_TYPES];
        let mut space = NONE;
        if r.pawn_type.is_some() {
            for (t, pt) in r.types.iter().enumerate() {
                if t != r.king && !pt.pawn {
                    behind_pawn[t] = pair(&mut add, format!("behind_pawn.{}", pt.letter));
                }
            }
            for (t, pt) in r.types.iter().enumerate() {
                if pair_w[t].mg != NONE {
                    colour_pawns[t] = pair(&mut add, format!("pawns.colour.{}", pt.letter));
                }
            }
            space = add("space".into());
        }
        let threat_next = pair(&mut add, "threat.queen.next".into());
        let mut symmetric = [false; MAX_TYPES];
        for (t, s) in symmetric.iter_mut().enumerate().take(r.ntypes()) {
            // Lame leaps look symmetric on the empty board but not with a leg blocked.
            let special = r.special[t]
                .iter()
                .chain(&r.special[r.ntypes() + t])
                .any(|a| a.mode & crate::variant::betza::CAPTURE != 0);
            *s = t != r.king && !r.types[t].pawn && Some(t) != r.bomber && !special && attacks_symmetric(r, t);
        }
        let est = super::weights::estimated_values(r);
        let queen_type = (0..r.ntypes())
            .filter(|&t| t != r.king && !r.types[t].pawn)
            .max_by(|&a, &b| est[a].total_cmp(&est[b]))
            .unwrap_or(NONE);
        let mut lesser = [0u32; MAX_TYPES];
        for t in 0..r.ntypes() {
            for u in 0..r.ntypes() {
                if u != r.king && !r.types[u].pawn && (t == r.king || est[u] + 50.0 < est[t]) {
                    lesser[t] |= 1 << u;
                }
            }
        }

        let n = r.nsq;
        let (w, h) = (geo.files as i32, geo.ranks as i32);
        let (cx, cy) = ((w - 1) as f32 / 2.0, (h - 1) as f32 / 2.0);
        let centrality = (0..n)
            .map(|s| {
                let dx = (geo.file(s) as f32 - cx).abs() / cx.max(1.0);
                let dy = (geo.rank(s) as f32 - cy).abs() / cy.max(1.0);
                1.0 - (dx + dy) / 2.0
            })
            .collect();
        let progress = [
            (0..n).map(|s| geo.rank(s) as f32 / (h - 1).max(1) as f32).collect(),
            (0..n).map(|s| (h - 1 - geo.rank(s)) as f32 / (h - 1).max(1) as f32).collect(),
        ];
        let mask = |f: &dyn Fn(i32, i32) -> bool| -> u128 {
            (0..n).filter(|&s| geo.exists(s) && f(geo.file(s), geo.rank(s))).fold(0u128, |a, s| a | 1u128 << s)
        };
        let mut front_span = [vec![0; n], vec![0; n]];
        let mut front_file = [vec![0; n], vec![0; n]];
        let mut shield = [vec![0; n], vec![0; n]];
        let mut storm = [vec![0; n], vec![0; n]];
        let mut adjacent_files = vec![0; n];
        let mut file = vec![0; n];
        let mut near = vec![0; n];
        let mut zone = vec![0; n];
        let mut rear = [vec![0; n], vec![0; n]];
        let square_colour = [0, 1].map(|p| mask(&|f2, r2| (f2 + r2).rem_euclid(2) == p));
        let quarter = w / 4;
        let central = mask(&|f2, _| f2 >= quarter && f2 < w - quarter);
        let space_area = [0, 1].map(|c| {
            mask(&|f2, r2| {
                let rel = if c == 0 { r2 } else { h - 1 - r2 };
                f2 >= quarter && f2 < w - quarter && rel >= 1 && 2 * rel < h - 1
            })
        });
        let stop = [0, 1].map(|c: i32| {
            (0..n).map(|s| geo.offset(s, 0, 1 - 2 * c).filter(|&t| geo.exists(t)).unwrap_or(NO_STOP)).collect()
        });
        let enemy_half = [0, 1].map(|c| mask(&|_, r2| 2 * if c == 0 { r2 } else { h - 1 - r2 } >= h));
        let beside = (0..n)
            .map(|s| {
                let (f, rk) = (geo.file(s), geo.rank(s));
                mask(&|f2, r2| (f2 - f).abs() == 1 && r2 == rk)
            })
            .collect();
        let rel_rank = [0, 1].map(|c| {
            (0..n)
                .map(|s| {
                    let rk = geo.rank(s).clamp(0, h - 1);
                    (if c == 0 { rk } else { h - 1 - rk }) as u8
                })
                .collect()
        });
        let file_bucket = (0..n)
            .map(|s| {
                let f = geo.file(s).clamp(0, w - 1);
                f.min(w - 1 - f) as u8
            })
            .collect();
        let coords = (0..n).map(|s| (geo.file(s) as i8, geo.rank(s) as i8)).collect();
        for s in 0..n {
            let (f, rk) = (geo.file(s), geo.rank(s));
            for c in 0..2 {
                let ahead = |r2: i32| if c == 0 { r2 > rk } else { r2 < rk };
                let dir = if c == 0 { 1 } else { -1 };
                front_span[c][s] = mask(&|f2, r2| (f2 - f).abs() <= 1 && ahead(r2));
                front_file[c][s] = mask(&|f2, r2| f2 == f && ahead(r2));
                shield[c][s] = mask(&|f2, r2| (f2 - f).abs() <= 1 && (r2 == rk + dir || r2 == rk + 2 * dir));
                storm[c][s] = mask(&|f2, r2| (f2 - f).abs() <= 1 && (1..=3).contains(&((r2 - rk) * dir)));
                rear[c][s] = mask(&|f2, r2| f2 == f && (1..=3).contains(&((rk - r2) * dir)));
            }
            adjacent_files[s] = mask(&|f2, _| (f2 - f).abs() == 1);
            file[s] = mask(&|f2, _| f2 == f);
            near[s] = mask(&|f2, r2| (f2 - f).abs() <= 2 && (r2 - rk).abs() <= 2);
            zone[s] = mask(&|f2, r2| (f2 - f).abs() <= 1 && (r2 - rk).abs() <= 1);
        }
        Layout {
            names,
            value,
            center,
            advance,
            mobility,
            open,
            semiopen,
            passed,
            doubled,
            isolated,
            shelter,
            tropism,
            tempo,
            pair: pair_w,
            threat_pawn,
            threat_lesser,
            hanging,
            king_attack,
            king_attackers2,
            castling,
            passed_rank2,
            passed_blocked,
            passed_king,
            supported,
            phalanx,
            outpost,
            rank_pst,
            file_pst,
            square_pst,
            ranks,
            file_buckets,
            rel_rank,
            file_bucket,
            enemy_half,
            beside,
            stop,
            coords,
            safe_checks,
            king_danger,
            mobility_root,
            passed_free,
            king_weak,
            king_weak_attackers,
            king_danger2,
            king_checks_attackers,
            king_storm,
            king_open,
            threat_on,
            backward,
            weak_unopposed,
            threat_push,
            threat_safe_pawn,
            restricted,
            behind_pawn,
            colour_pawns,
            space,
            threat_next,
            queen_type,
            square_colour,
            central,
            space_area,
            rear,
            storm,
            symmetric,
            lesser,
            centrality,
            progress,
            front_span,
            front_file,
            adjacent_files,
            file,
            shield,
            near,
            zone,
        }
    }

    /// King (Chebyshev) distance between two squares.
    #[inline]
    pub fn distance(&self, a: usize, b: usize) -> i32 {
        let ((fa, ra), (fb, rb)) = (self.coords[a], self.coords[b]);
        ((fa - fb).abs().max((ra - rb).abs())) as i32
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    pub fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }
}

/// Whether, on the empty board and for both colours, a piece of type `t` on a square
/// attacks another exactly when one on the other attacks the first.
fn attacks_symmetric<B: Bits>(r: &Rules<B>, t: usize) -> bool {
    let attacks = |color: usize, s: usize| {
        let mut a = r.leap_cap[r.idx(color, t, s)];
        for atom in &r.riders[color * r.ntypes() + t] {
            if atom.mode & crate::variant::betza::CAPTURE != 0 {
                a |= r.ray(atom.ray, s);
            }
        }
        a
    };
    (0..2).all(|c| (0..r.nsq).filter(|&s| r.geo.exists(s)).all(|s| attacks(c, s).iter().all(|u| attacks(c, u).has(s))))
}

/// Whether every move of type `t` keeps it on squares of one colour (the bishop), checked
/// from every square of the empty board.
fn colour_bound<B: Bits>(r: &Rules<B>, t: usize) -> bool {
    let geo = &r.geo;
    if Some(t) == r.bomber {
        return false;
    }
    let parity = |s: usize| (geo.file(s) + geo.rank(s)).rem_euclid(2);
    let mut any = false;
    for s in (0..r.nsq).filter(|&s| geo.exists(s)) {
        let i = r.idx(0, t, s);
        let mut targets = r.leap_quiet[i] | r.leap_cap[i];
        for a in &r.riders[t] {
            targets |= r.ray(a.ray, s);
        }
        for a in &r.special[t] {
            targets |= match a.kind {
                crate::rules::SpecialKind::Lame => r.lame[a.lame as usize + s].to_set(),
                _ => r.ray(a.ray, s),
            };
        }
        for u in targets.iter() {
            any = true;
            if parity(u) != parity(s) {
                return false;
            }
        }
    }
    any
}
