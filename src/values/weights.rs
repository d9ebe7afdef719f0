//! The engine's own piece values, and how the estimators keep them from steering the
//! answer.
//!
//! The engine plays with material weights (`value.F = 450`, ...). In an imbalance match
//! those weights decide which trades each side accepts: if the engine thinks the Bomber is
//! worth less than the Rook, the Bomber's side will avoid trading it for a Rook and the
//! other side will seek that trade, which pushes the result towards the engine's prior.
//! *Neutral* weights remove that pull: for a comparison `X=Y` the engine is given weights
//! under which X and Y are worth exactly the same, so the imbalance is 0 in its eyes and
//! the result measures what the pieces do on the board, not what the engine believes.
//!
//! One engine configuration per study. Neutral weights make each comparison's engine a
//! little different from the pawn-odds match's, so the Elo of an equation may be on
//! another scale than the unit it is divided by. We keep them (they remove a pull of the
//! prior that is measured and large, the scale shift is not known to be) and make the
//! difference visible and avoidable instead of switching them off silently:
//!
//! * `--scale-check` (`imbalance::scale_check`) plays the pawn-odds match again under
//!   each comparison's weights and tests one Elo per pawn for all of them (chi-square,
//!   largest relative shift), so a report can state the sensitivity;
//! * a bracketed comparison (`--bracket`, `imbalance::bracketing`) measures its pawn with
//!   the comparison's own weights, so its price never mixes configurations;
//! * `--no-neutral` plays every match, calibration included, with one configuration, and
//!   an external engine (`--engine`) always does (its evaluation is not ours to change).
//!
//! For the regression, where every piece type is estimated at once, no single setting is
//! neutral. There the weights can be *jittered*: each side of each game gets its own
//! random scaling of every non-pawn value (seeded per game), so the data come from many
//! priors around the default rather than from one.

use super::comparison::Comparison;
use super::pieces::Pieces;
use super::ValuesError;
use crate::eval::EngineConfig;
use crate::rng::Rng;
use crate::Variant;

/// The engine's (middlegame, endgame) value of every piece type in `Pieces` order, with
/// `settings` applied over the variant's default engine.
pub fn material(variant: Variant, pieces: &Pieces, settings: &[(String, f32)]) -> Result<Vec<(f32, f32)>, ValuesError> {
    let cfg = EngineConfig::for_variant(variant.name()).map_err(ValuesError::Engine)?;
    let ev = match variant {
        Variant::Narrow(r) => cfg.evaluator(r, settings).map_err(ValuesError::Engine)?,
        Variant::Wide(r) => cfg.evaluator(r, settings).map_err(ValuesError::Engine)?,
    };
    pieces
        .types
        .iter()
        .map(|t| {
            let get = |phase: &str| {
                ev.weight(&format!("value.{}.{phase}", t.letter))
                    .ok_or_else(|| ValuesError::Engine(format!("no weight value.{}", t.letter)))
            };
            Ok((get("mg")?, get("eg")?))
        })
        .collect()
}

fn set(letter: char, v: (f32, f32)) -> [(String, f32); 2] {
    [(format!("value.{letter}.mg"), v.0), (format!("value.{letter}.eg"), v.1)]
}

/// Weight settings under which both sides of `c` are worth the same to the engine, or
/// `None` when no single non-pawn piece stands alone on a side (then changing one weight
/// cannot balance the sides without touching the pawn, the unit, or pieces on both sides).
pub fn neutral(c: &Comparison, pieces: &Pieces, base: &[(f32, f32)]) -> Option<Vec<(String, f32)>> {
    let a = c.coefficients(pieces);
    let sum = |sign: i32| {
        a.iter().enumerate().filter(|(_, &k)| k * sign > 0).fold((0.0, 0.0), |acc, (t, &k)| {
            let n = k.abs() as f32;
            (acc.0 + n * base[t].0, acc.1 + n * base[t].1)
        })
    };
    let single = |sign: i32| -> Option<usize> {
        let on_side: Vec<usize> = (0..a.len()).filter(|&t| a[t] * sign > 0).collect();
        (on_side.len() == 1 && a[on_side[0]].abs() == 1 && on_side[0] != pieces.pawn).then_some(on_side[0])
    };
    let letter = |t: usize| pieces.types[t].letter;
    match (single(1), single(-1)) {
        (Some(x), Some(y)) => {
            let mean = ((base[x].0 + base[y].0) / 2.0, (base[x].1 + base[y].1) / 2.0);
            Some(set(letter(x), mean).into_iter().chain(set(letter(y), mean)).collect())
        }
        (Some(x), None) => Some(set(letter(x), sum(-1)).to_vec()),
        (None, Some(y)) => Some(set(letter(y), sum(1)).to_vec()),
        (None, None) => None,
    }
}

/// Every non-pawn value scaled by its own factor, uniform in `[1 - f, 1 + f]`.
pub fn jitter(pieces: &Pieces, base: &[(f32, f32)], rng: &mut Rng, fraction: f64) -> Vec<(String, f32)> {
    let mut out = Vec::new();
    for (t, info) in pieces.types.iter().enumerate() {
        if t == pieces.pawn {
            continue;
        }
        let u = rng.next_u64() as f64 / u64::MAX as f64;
        let k = (1.0 + fraction * (2.0 * u - 1.0)) as f32;
        out.extend(set(info.letter, (base[t].0 * k, base[t].1 * k)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neutral_weights_balance_the_compared_sides() {
        let v = Variant::load("chess", &[]).unwrap();
        let p = Pieces::of(v).unwrap();
        let base = material(v, &p, &[]).unwrap();
        let (n, b, r, pawn) = (p.index('N').unwrap(), p.index('B').unwrap(), p.index('R').unwrap(), p.pawn);
        let after = |c: &str| {
            let s = neutral(&Comparison::parse(c, &p).unwrap(), &p, &base).unwrap();
            material(v, &p, &s).unwrap()
        };
        let m = after("B=N");
        assert_eq!(m[n], m[b]);
        assert_eq!(m[n].0, (base[n].0 + base[b].0) / 2.0, "both at their mean");
        assert_eq!(m[r], base[r], "other pieces keep their weights");
        let m = after("R=N+P+P");
        assert_eq!(m[r].0, m[n].0 + 2.0 * m[pawn].0);
        let m = after("N+P+P=R");
        assert_eq!(m[r].0, m[n].0 + 2.0 * m[pawn].0);
        assert!(neutral(&Comparison::parse("N+B=R+P", &p).unwrap(), &p, &base).is_none());
    }

    #[test]
    fn jitter_stays_in_its_band_and_leaves_the_pawn() {
        let v = Variant::load("chess", &[]).unwrap();
        let p = Pieces::of(v).unwrap();
        let base = material(v, &p, &[]).unwrap();
        let s = jitter(&p, &base, &mut Rng::new(3), 0.2);
        assert_eq!(s.len(), 2 * (p.len() - 1));
        let m = material(v, &p, &s).unwrap();
        for t in 0..p.len() {
            let ratio = m[t].0 / base[t].0;
            assert!((0.8..=1.2).contains(&ratio), "{ratio}");
        }
        assert_eq!(m[p.pawn], base[p.pawn]);
        assert_ne!(m, base);
    }
}
