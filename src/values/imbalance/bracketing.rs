//! Local pawn pricing played: for each comparison `X=Y`, once its own match has an
//! estimate `d` in pawns, X plays `Y + k` pawns for two or three `k` around `d`, and
//! `bracket::price` interpolates the matches to an even score. The value comes out in
//! pawns of that material context, measured by the same engine configuration as the
//! comparison (its neutral weights, or the external engine), so neither the start
//! position's pawn-odds match nor a change of weights between equations enters it.
//!
//! The `k` follow the estimate: two matches at the whole pawns on either side of it, or
//! three centred on its nearest whole pawn. The comparison's own match is the point
//! `k = 0` and is reused when `0` is among them. A bracket needs the comparison's merged
//! games to choose its `k`, so a shard plays none.

use super::bracket::{self, Point};
use super::calibration::{elo, pair_score, Interval, Measure};
use super::combine::{combine, Combined, Equation};
use super::matches::{slug, Match, MatchResult, Settings};
use crate::stats::Pentanomial;
use crate::values::comparison::Comparison;
use crate::values::pieces::Pieces;
use crate::values::ValuesError;
use serde::Serialize;

/// One match of a bracket.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BracketPoint {
    /// Pawns added to Y's side (negative: to X's side).
    pub pawns: i32,
    /// The match played, `X=Y+P...` with pawns on both sides cancelled.
    pub comparison: String,
    pub games: u64,
    /// Elo of the side with X and its standard error (absent for a lopsided match).
    pub elo: Option<f64>,
    pub elo_se: Option<f64>,
}

/// A comparison priced by its bracket.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Priced {
    /// The comparison's `X=Y` and `X-Y` label.
    pub comparison: String,
    pub label: String,
    pub points: Vec<BracketPoint>,
    /// `value(X) - value(Y)` in local pawns with Fieller's 95 % interval; absent when the
    /// local pawn is not clearly worth something (`note`).
    pub value: Option<Interval>,
    /// The local pawn's Elo and its standard error (the line's slope).
    pub elo_per_pawn: Option<f64>,
    pub elo_per_pawn_se: Option<f64>,
    /// The even score lies between the smallest and largest `k` (interpolated).
    pub bracketed: bool,
    /// Straight-line test over the points (NaN p-value with two points).
    pub chi2: f64,
    pub dof: usize,
    #[serde(serialize_with = "crate::values::support::nan_as_missing")]
    pub p_value: f64,
    pub note: String,
}

/// The `k` of `n` (2 or 3) matches around an estimate of `d` pawns, at most `max_pawns`
/// to either side.
pub fn choose(d: f64, n: u32, max_pawns: i32) -> Vec<i32> {
    let ks: Vec<i32> = if n >= 3 {
        let c = d.round() as i32;
        vec![c - 1, c, c + 1]
    } else {
        let f = d.floor() as i32;
        vec![f, f + 1]
    };
    ks.into_iter().filter(|k| k.abs() <= max_pawns).collect()
}

/// `X=Y` with `k` pawns added to Y's side (to X's if negative), the pawns of both sides
/// netted, so the removals stay as small as the material allows.
pub fn shifted(c: &Comparison, pawn: char, k: i32) -> Comparison {
    let count = |v: &[char]| v.iter().filter(|&&l| l == pawn).count() as i32;
    let net = count(&c.y) - count(&c.x) + k;
    let pieces = |v: &[char]| v.iter().copied().filter(|&l| l != pawn).collect::<Vec<char>>();
    let (mut x, mut y) = (pieces(&c.x), pieces(&c.y));
    let pawns = std::iter::repeat_n(pawn, net.unsigned_abs() as usize);
    if net > 0 {
        y.extend(pawns);
    } else {
        x.extend(pawns);
    }
    Comparison { x, y }
}

fn point(k: i32, c: &Comparison, penta: &Pentanomial) -> BracketPoint {
    let e = pair_score(penta).and_then(elo);
    BracketPoint {
        pawns: k,
        comparison: c.text(),
        games: penta.games(),
        elo: e.map(|e| e.value),
        elo_se: e.map(|e| e.se),
    }
}

/// Plays the bracket of every comparison in `matches` (the calibration excluded); returns
/// the priced comparisons and the bracket matches' directories. The `k` centre on the
/// comparison's own estimate, or where it has none (the pawn-odds match too weak to
/// convert with, or a lopsided match) on `rough`, its engine-weight difference in pawns:
/// the bracket itself needs no start-position pawn.
pub(super) fn play(
    s: &Settings,
    n: u32,
    matches: &[Match],
    rough: &[f64],
    pawn: char,
    max_pawns: i32,
) -> Result<(Vec<Priced>, Vec<std::path::PathBuf>), ValuesError> {
    let mut priced = vec![];
    let mut dirs = vec![];
    for (parent, &rough) in matches.iter().zip(rough) {
        let Some(c) = &parent.result.comparison else { continue };
        let mut out = Priced {
            comparison: c.text(),
            label: c.label(),
            points: vec![],
            value: None,
            elo_per_pawn: None,
            elo_per_pawn_se: None,
            bracketed: false,
            chi2: f64::NAN,
            dof: 0,
            p_value: f64::NAN,
            note: String::new(),
        };
        let centre = parent.result.pawns.map_or(rough, |d| d.value);
        for k in choose(centre, n, max_pawns) {
            let (p, dir) = play_point(s, parent, c, pawn, k)?;
            out.points.push(p);
            dirs.extend(dir);
        }
        price_points(&mut out);
        let initial = out.points.len();
        while let Some(k) = extension(&out, initial, max_pawns) {
            let (p, dir) = play_point(s, parent, c, pawn, k)?;
            out.points.push(p);
            dirs.extend(dir);
            price_points(&mut out);
        }
        priced.push(out);
    }
    Ok((priced, dirs))
}

/// The next `k` to play when the even score lies outside the pawns played: one beyond
/// the end it lies past, so the price is interpolated rather than extrapolated from a
/// line fitted elsewhere. At most two such matches (then the note says "extrapolated"),
/// none when the price has no interval or `k` would exceed `max_pawns`.
/// `initial` is how many of `ks` the bracket started with.
pub fn next_k(ks: &[i32], initial: usize, value: Option<f64>, max_pawns: i32) -> Option<i32> {
    let (lo, hi) = (*ks.iter().min()?, *ks.iter().max()?);
    let v = value?;
    if ks.len() >= initial + 2 || (lo as f64 <= v && v <= hi as f64) {
        return None;
    }
    let k = if v > hi as f64 { hi + 1 } else { lo - 1 };
    (k.abs() <= max_pawns).then_some(k)
}

fn extension(out: &Priced, initial: usize, max_pawns: i32) -> Option<i32> {
    let ks: Vec<i32> = out.points.iter().map(|p| p.pawns).collect();
    next_k(&ks, initial, out.value.map(|v| v.value), max_pawns)
}

/// Plays X against Y plus `k` pawns with the parent comparison's engine configuration
/// (`k = 0` is the parent's own match, already played).
fn play_point(
    s: &Settings,
    parent: &Match,
    c: &Comparison,
    pawn: char,
    k: i32,
) -> Result<(BracketPoint, Option<std::path::PathBuf>), ValuesError> {
    if k == 0 {
        return Ok((point(0, c, &parent.result.penta), None));
    }
    let moved = shifted(c, pawn, k);
    let (lack_w, lack_b) = moved.removal();
    let result = MatchResult {
        comparison: Some(moved.clone()),
        label: moved.text(),
        engine: parent.result.engine.clone(),
        note: format!("bracket of {} at {k:+} pawns", c.text()),
        ..parent.result.clone()
    };
    let removal = [(lack_w.clone(), lack_b.clone()), (lack_b, lack_w)];
    let dir = s.play.out.join("bracket").join(slug(&c.text())).join(format!("k{k:+}"));
    let mut m = Match::new(s, result, removal, dir)?;
    m.play_to(s, s.max_pairs)?;
    let p = point(k, &moved, &m.result.penta);
    let elo = p.elo.map_or("no finite Elo".to_string(), |e| format!("Elo {e:+.1}"));
    s.play.progress.note(&format!("  {:<12} {:>6} games  {elo}", m.result.label, 2 * m.pairs));
    Ok((p, Some(m.dir)))
}

/// Fits the line through the points played so far and records the price.
fn price_points(out: &mut Priced) {
    let usable: Vec<Point> = out
        .points
        .iter()
        .filter_map(|p| {
            let (value, se) = (p.elo?, p.elo_se?);
            Some(Point { pawns: p.pawns, elo: Measure { value, se } })
        })
        .collect();
    match bracket::price(&usable) {
        Ok(b) => {
            out.value = b.value;
            out.elo_per_pawn = Some(b.elo_per_pawn.value);
            out.elo_per_pawn_se = Some(b.elo_per_pawn.se);
            out.bracketed = b.bracketed;
            (out.chi2, out.dof, out.p_value) = (b.chi2, b.dof, b.p_value);
            out.note = b.note;
            if out.value.is_some() && !b.bracketed {
                out.note = "extrapolated: the even score lies outside the pawns played".into();
            }
        }
        Err(e) => out.note = format!("{e} (lopsided matches have no finite Elo)"),
    }
}

/// The bracketed differences combined by least squares into values of whole pieces, in
/// local pawns (the pawn fixed at 1): what a designer quotes when the pawn is priced where
/// each trade happens. `None` without two priced comparisons.
pub fn combined(priced: &[Priced], pieces: &Pieces) -> Option<Result<Combined, ValuesError>> {
    let mut unit = vec![0; pieces.len()];
    unit[pieces.pawn] = 1;
    let mut equations = vec![];
    for p in priced {
        // A bracket match below MIN_GAMES prices nothing (its table row says so): it
        // does not enter the combination either.
        if p.points.iter().any(|x| x.games < crate::stats::MIN_GAMES) {
            continue;
        }
        let (Some(v), Ok(c)) = (p.value, Comparison::parse(&p.comparison, pieces)) else { continue };
        equations.push(Equation { coefficients: c.coefficients(pieces), elo: Measure { value: v.value, se: v.se } });
    }
    // The unit as an equation known a thousand times better than any match, so the
    // combination's ratio to it is the value itself (and not so much better that the
    // normal matrix looks singular to the Cholesky factorisation).
    let best = equations.iter().map(|e| e.elo.se).fold(f64::INFINITY, f64::min);
    equations.push(Equation { coefficients: unit, elo: Measure { value: 1.0, se: 1e-3 * best } });
    (equations.len() > 2).then(|| combine(&equations, pieces.len(), pieces.pawn))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pawns_played_surround_the_estimate() {
        assert_eq!(choose(1.7, 2, 4), [1, 2]);
        assert_eq!(choose(1.7, 3, 4), [1, 2, 3]);
        assert_eq!(choose(-0.4, 2, 4), [-1, 0]);
        assert_eq!(choose(0.2, 3, 4), [-1, 0, 1]);
        // Never more pawns than a side can give.
        assert_eq!(choose(3.6, 3, 4), [3, 4]);
        // An even score beyond the pawns played: one more match past that end, twice at most.
        assert_eq!(next_k(&[0, 1, 2], 3, Some(2.1), 4), Some(3));
        assert_eq!(next_k(&[0, 1], 2, Some(-0.5), 4), Some(-1));
        assert_eq!(next_k(&[0, 1, 2, 3], 3, Some(4.2), 4), Some(4));
        assert_eq!(next_k(&[0, 1, 2, 3, 4], 3, Some(5.2), 8), None);
        assert_eq!(next_k(&[2, 3, 4], 3, Some(4.5), 4), None);
        assert_eq!(next_k(&[0, 1, 2], 3, Some(1.5), 4), None);
        assert_eq!(next_k(&[0, 1, 2], 3, None, 4), None);
    }

    #[test]
    fn shifted_comparisons_net_the_pawns() {
        let p = Pieces::of(crate::Variant::load("chess", &[]).unwrap()).unwrap();
        let c = |t: &str| Comparison::parse(t, &p).unwrap();
        assert_eq!(shifted(&c("R=N"), 'P', 2).text(), "R=N+P+P");
        assert_eq!(shifted(&c("R=N"), 'P', -1).text(), "R+P=N");
        assert_eq!(shifted(&c("R=N+P+P"), 'P', -1).text(), "R=N+P");
        assert_eq!(shifted(&c("N+P=R"), 'P', 1).text(), "N=R");
        // The measured quantity moves by exactly k pawns.
        let a = c("Q=R+B+P").coefficients(&p);
        let b = shifted(&c("Q=R+B+P"), 'P', 2).coefficients(&p);
        assert_eq!(b[p.pawn], a[p.pawn] - 2);
    }

    #[test]
    fn bracketed_differences_combine_into_piece_values() {
        let p = Pieces::of(crate::Variant::load("chess", &[]).unwrap()).unwrap();
        let priced = |comparison: &str, value: f64, se: f64| Priced {
            comparison: comparison.into(),
            label: String::new(),
            points: vec![],
            value: Some(Interval { value, se, low: value - 2.0 * se, high: value + 2.0 * se }),
            elo_per_pawn: None,
            elo_per_pawn_se: None,
            bracketed: true,
            chi2: f64::NAN,
            dof: 0,
            p_value: f64::NAN,
            note: String::new(),
        };
        let all = [
            priced("N=P+P+P", 0.58, 0.13),
            priced("B=N", 0.47, 0.22),
            priced("R=N+P+P", 0.48, 0.19),
            priced("Q=R+N+P", 2.1, 0.21),
        ];
        let c = combined(&all, &p).unwrap().unwrap();
        let v = |l: char| c.values[p.index(l).unwrap()].unwrap();
        assert!((v('N').value - 3.58).abs() < 1e-4, "{:?}", v('N'));
        assert!((v('Q').value - (3.58 + 2.48 + 3.58 + 1.0 + 2.1)).abs() < 1e-3, "{:?}", v('Q'));
        assert!(v('N').low < 3.58 && 3.58 < v('N').high);
        assert!(combined(&all[..1], &p).is_none());
    }
}
