//! Evaluation weights: defaults for any variant, engine config files, `--set` overrides.
//!
//! A variant without a hand-written engine config still plays sensibly: each piece's value
//! is estimated from its mobility on the empty board (see [`estimated_values`]).

use super::layout::{Layout, NONE};
use crate::rules::{Bits, Rules, SpecialKind, NO_SQUARE};
use crate::variant::betza::{CAPTURE, MOVE};

/// Estimated piece values in centipawns (pawn = 100), by type; 0 for the king.
///
/// The estimate averages, over all squares of the empty board, a piece's targets, where a
/// rider's k-th square along a line counts 0.85^(k-1) (distant squares are easily blocked)
/// and a move-only or capture-only target counts half. The weighted mobility M maps to
/// `67 * M^0.906`, a power law through orthodox chess's knight (M = 5.25 -> 300) and
/// queen (M = 17.65 -> 900); it gives B 397 and R 563. A bomber counts as a rook-mover whose
/// captures need an empty landing square (factor 0.85). Hoppers need a screen, so their
/// lines count half (cannon) or 0.3 (grasshopper); a lame leap counts 0.85 for its leg;
/// initial moves count nothing.
pub fn estimated_values<B: Bits>(r: &Rules<B>) -> Vec<f32> {
    let geo = &r.geo;
    let squares: Vec<usize> = (0..r.nsq).filter(|&s| geo.exists(s)).collect();
    let weight = |mode: u8| if mode == MOVE | CAPTURE { 1.0 } else { 0.5 };
    r.types
        .iter()
        .enumerate()
        .map(|(t, pt)| {
            if pt.pawn {
                return 100.0;
            }
            if t == r.king {
                return 0.0;
            }
            let mut total = 0.0f32;
            for &sq in &squares {
                let i = r.idx(0, t, sq);
                let q = r.leap_quiet[i];
                let c = r.leap_cap[i];
                total += (q & c).count() as f32 + 0.5 * ((q ^ c).count() as f32);
                let mut rider = |ray: u16, w: f32| {
                    let squares: Vec<usize> = r.ray(ray, sq).iter().collect();
                    let ordered: Box<dyn Iterator<Item = &usize>> = if r.ray_info[ray as usize].positive {
                        Box::new(squares.iter())
                    } else {
                        Box::new(squares.iter().rev())
                    };
                    for (k, _) in ordered.enumerate() {
                        total += w * 0.85f32.powi(k as i32);
                    }
                };
                for a in &r.riders[t] {
                    rider(a.ray, weight(a.mode));
                }
                let mut lame = 0.0;
                for a in &r.special[t] {
                    match a.kind {
                        SpecialKind::Lame if r.lame[a.lame as usize + sq].to != NO_SQUARE => {
                            lame += 0.85 * weight(a.mode)
                        }
                        SpecialKind::Hop => rider(a.ray, 0.5 * weight(a.mode)),
                        SpecialKind::Grasshop => rider(a.ray, 0.3 * weight(a.mode)),
                        _ => {}
                    }
                }
                if pt.bomber {
                    for &ray in &r.orth {
                        rider(ray, 0.85);
                    }
                }
                total += lame;
            }
            let m = total / squares.len().max(1) as f32;
            (67.0 * m.powf(0.906)).round()
        })
        .collect()
}

/// Default weights for a variant: estimated material plus small generic positional terms.
pub fn default_weights<B: Bits>(r: &Rules<B>, l: &Layout) -> Vec<f32> {
    let values = estimated_values(r);
    let mut w = vec![0.0; l.len()];
    let mut set = |i: usize, v: f32| {
        if i != NONE {
            w[i] = v;
        }
    };
    for t in 0..r.ntypes() {
        set(l.value[t].mg, values[t]);
        set(l.value[t].eg, values[t]);
        if t == r.king {
            set(l.center[t].mg, -30.0);
            set(l.center[t].eg, 40.0);
        } else if r.types[t].pawn {
            set(l.center[t].mg, 20.0);
            set(l.advance[t].eg, 40.0);
        } else {
            set(l.center[t].mg, (values[t] * 0.08).min(40.0));
            set(l.center[t].eg, (values[t] * 0.04).min(20.0));
            set(l.mobility[t].mg, 3.0);
            set(l.mobility[t].eg, 3.0);
        }
    }
    set(l.passed.mg, 10.0);
    set(l.passed.eg, 80.0);
    set(l.doubled.mg, -10.0);
    set(l.doubled.eg, -20.0);
    set(l.isolated.mg, -10.0);
    set(l.isolated.eg, -15.0);
    set(l.shelter, 12.0);
    set(l.tropism, -10.0);
    set(l.tempo, 10.0);
    for t in 0..r.ntypes() {
        set(l.pair[t].mg, 30.0);
        set(l.pair[t].eg, 50.0);
    }
    set(l.threat_pawn.mg, 60.0);
    set(l.threat_pawn.eg, 40.0);
    set(l.threat_lesser.mg, 35.0);
    set(l.threat_lesser.eg, 25.0);
    set(l.hanging.mg, 25.0);
    set(l.hanging.eg, 15.0);
    set(l.king_attack, 6.0);
    set(l.king_attackers2, 4.0);
    set(l.castling, 12.0);
    // With `pawn.passed` this gives, on 8 ranks, about 0.5, 0.8, 1.1 and 1.4 pawns on the
    // 4th to 7th rank in the endgame: closer to the steep rise of published rank tables.
    set(l.passed_rank2.mg, 15.0);
    set(l.passed_rank2.eg, 100.0);
    set(l.passed_blocked.mg, -5.0);
    set(l.passed_blocked.eg, -20.0);
    set(l.passed_king, 12.0);
    set(l.supported.mg, 10.0);
    set(l.supported.eg, 8.0);
    set(l.phalanx.mg, 6.0);
    set(l.phalanx.eg, 4.0);
    for t in 0..r.ntypes() {
        // Pieces that slide along files want them free of pawns, the more so the cheaper
        // the piece (published figures: a rook about 0.35 pawns on an open file in the
        // middlegame, a queen little).
        if t != r.king && !r.types[t].pawn && slides_along_files(r, t) {
            let k = (600.0 / values[t].max(1.0)).min(1.0);
            set(l.open[t].mg, 35.0 * k);
            set(l.open[t].eg, 12.0 * k);
            set(l.semiopen[t].mg, 15.0 * k);
            set(l.semiopen[t].eg, 5.0 * k);
        }
        // Minor pieces gain most from a square no pawn can chase them off.
        if values[t] < 450.0 {
            set(l.outpost[t].mg, 30.0);
            set(l.outpost[t].eg, 15.0);
        }
    }
    w
}

/// Whether type `t` rides at least two squares up or down a file (from a central square of
/// the empty board).
fn slides_along_files<B: Bits>(r: &Rules<B>, t: usize) -> bool {
    let geo = &r.geo;
    let Some(sq) = geo.at(geo.files as i32 / 2, geo.ranks as i32 / 2 - 1) else { return false };
    let far = [geo.offset(sq, 0, 2), geo.offset(sq, 0, -2)];
    r.riders[t].iter().any(|a| far.iter().flatten().any(|&f| r.ray(a.ray, sq).has(f))) || Some(t) == r.bomber
}

/// Applies `name = value` settings: a full name (`value.F.mg`) sets one weight, a name
/// without `.mg`/`.eg` (`value.F`) sets both halves.
pub fn apply(l: &Layout, w: &mut [f32], name: &str, value: f32) -> Result<(), String> {
    if !value.is_finite() {
        return Err(format!("weight {name}: value is not a finite number"));
    }
    if let Some(i) = l.index(name) {
        w[i] = value;
        return Ok(());
    }
    let (mg, eg) = (l.index(&format!("{name}.mg")), l.index(&format!("{name}.eg")));
    match (mg, eg) {
        (Some(a), Some(b)) => {
            w[a] = value;
            w[b] = value;
            Ok(())
        }
        _ => Err(format!("unknown evaluation weight '{name}' (see `fairylab weights --variant ...`)")),
    }
}

/// Parses `name=value` as given to `--set`.
pub fn parse_setting(s: &str) -> Result<(String, f32), String> {
    let (name, value) = s.split_once('=').ok_or_else(|| format!("setting '{s}' must look like name=value"))?;
    let v: f32 = value.trim().parse().map_err(|_| format!("setting '{s}': '{value}' is not a number"))?;
    Ok((name.trim().to_string(), v))
}
