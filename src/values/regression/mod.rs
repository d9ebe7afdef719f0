//! Estimator 1: piece values by regression on self-play positions (the approach of
//! Tomasev et al. 2020, "Assessing Game Balance with AlphaZero"). The game result is
//! modelled as a logistic function of
//!
//! ```text
//! eta = sum_t beta_t * (count_t(White) - count_t(Black)) + beta_stm * (+1 White to move, -1 Black) + beta_0
//! ```
//!
//! and a piece's value in pawns is `beta_t / beta_pawn`: the material advantage that shifts
//! the winning odds as much as that many pawns. `beta_0` is White's advantage and
//! `beta_stm` the worth of having the move, both also reported in pawns.
//!
//! Intervals: the coefficients' covariance comes from a bootstrap over games (positions of
//! one game share its result, so the model's own standard errors would be far too small),
//! and each ratio's interval from Fieller's theorem on it (`maths::fieller`). A ratio has a
//! bounded 95 % interval only when the pawn's coefficient is significantly above zero; when
//! it is not, every value is marked not supported (`values::support`) instead of printed.

pub mod corpus;
pub mod dataset;

use crate::maths::bootstrap;
use crate::maths::fieller::{self, Ratio, RatioInput};
use crate::maths::logistic::{fit, Grouped, Model};
use crate::values::pieces::Pieces;
use crate::values::scale::{Denominator, Scaled, ScaledKind};
use crate::values::support::Support;
use crate::values::ValuesError;
use dataset::Dataset;

/// Bootstrap replicates unless a caller asks otherwise. A 95 % interval's ends are read in
/// the 2.5 % tails: with 1,000 replicates 25 lie beyond each end, with 100 only 2 or 3.
pub const DEFAULT_REPLICATES: usize = 1000;

#[derive(Clone, Debug)]
pub struct Settings {
    pub model: Model,
    pub replicates: usize,
    pub seed: u64,
    /// Differences to report besides the single values, e.g. `F-R`, so they can be set
    /// beside the imbalance matches' figures: a label and a coefficient per piece type.
    /// Their intervals come from the same bootstrap replicates, so the correlation of the
    /// two values is accounted for.
    pub contrasts: Vec<(String, Vec<i32>)>,
    /// Quantities that divide by something other than the pawn: values on the orthodox
    /// scale and ratios of two pieces (`values::scale`), from the same replicates.
    pub scaled: Vec<Scaled>,
}

/// One estimated quantity in pawns. Without support, `value`, `low`, `high` and `se` are
/// NaN and `note` says why.
#[derive(Clone, Debug)]
pub struct Estimate {
    /// Piece letter, or `white` / `side-to-move` for the two extra terms.
    pub name: String,
    pub value: f64,
    pub low: f64,
    pub high: f64,
    /// Delta-method standard error from the bootstrap covariance (a summary of precision;
    /// the interval is Fieller's).
    pub se: f64,
    pub support: Support,
    pub note: String,
    /// Selected positions in which this piece's count differed between the sides.
    pub varied: usize,
}

#[derive(Clone, Debug)]
pub struct Regression {
    pub estimates: Vec<Estimate>,
    /// Piece letters without an estimate (never unequal in the data).
    pub missing: Vec<char>,
    pub games: usize,
    pub positions: usize,
    /// Bootstrap refits that failed outright (a resample without any variation of some piece).
    pub failed_replicates: usize,
    /// The pawn's coefficient over its bootstrap standard deviation: values in pawns are
    /// supported only above 1.96 (Fieller's condition).
    pub pawn_z: f64,
    pub draw_margin: Option<f64>,
    /// [`Settings::scaled`]'s quantities (those whose pieces all have a coefficient).
    pub scaled: Vec<(ScaledKind, Estimate)>,
}

/// (column, coefficient) pairs of a contrast, or `None` if it involves a type without a
/// column.
fn contrast_weights(coefficients: &[i32], types: &[usize]) -> Option<Vec<(usize, f64)>> {
    let mut out = Vec::new();
    for (t, &a) in coefficients.iter().enumerate() {
        if a != 0 {
            out.push((types.iter().position(|&u| u == t)?, a as f64));
        }
    }
    Some(out)
}

/// Sample covariance of two columns of replicates.
fn covariance(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len() as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    a.iter().zip(b).map(|(x, y)| (x - ma) * (y - mb)).sum::<f64>() / (n - 1.0).max(1.0)
}

/// (column, coefficient) pairs of a linear combination of the fit's coefficients.
type Terms = [(usize, f64)];

/// `scale * sum a_j beta_j / sum d_j beta_j` with Fieller's interval, from the point fit
/// and the bootstrap refits' coefficients; `den_name` names the divisor in the note when
/// it is not clearly above zero.
fn scaled_estimate(
    name: String,
    (num_w, den_w, scale): (&Terms, &Terms, f64),
    point: &[f64],
    reps: &[Vec<f64>],
    den_name: &str,
    varied: usize,
) -> Estimate {
    let combine = |w: &[(usize, f64)], b: &[f64]| w.iter().map(|&(j, a)| a * b[j]).sum::<f64>();
    let nums: Vec<f64> = reps.iter().map(|b| combine(num_w, b)).collect();
    let dens: Vec<f64> = reps.iter().map(|b| combine(den_w, b)).collect();
    let input = RatioInput {
        num: combine(num_w, point),
        den: combine(den_w, point),
        var_num: covariance(&nums, &nums),
        var_den: covariance(&dens, &dens),
        cov: covariance(&nums, &dens),
    };
    let unsupported = |note: String| Estimate {
        name: name.clone(),
        value: f64::NAN,
        low: f64::NAN,
        high: f64::NAN,
        se: f64::NAN,
        support: Support::NotEnoughData,
        note,
        varied,
    };
    match fieller::ratio(input, crate::stats::normal_quantile(0.975)) {
        Ratio::Bounded { value, low, high, se } if input.den > 0.0 => Estimate {
            name,
            value: scale * value,
            low: scale * low,
            high: scale * high,
            se: scale * se,
            support: Support::Supported,
            note: String::new(),
            varied,
        },
        Ratio::Bounded { .. } if den_name == PAWN => unsupported(format!(
            "more pawns went with worse results ({:.1} standard errors below zero): no unit to measure in",
            -input.den / input.var_den.sqrt()
        )),
        Ratio::Bounded { .. } => unsupported(format!("{den_name} went with worse results: no unit to measure in")),
        Ratio::Unbounded { den_z } => unsupported(format!(
            "{den_name} is {den_z:.2} standard errors from zero, under the 1.96 a bounded 95 % interval needs"
        )),
    }
}

/// [`Settings::scaled`]'s quantities from the refits: a quantity whose numerator involves
/// a type without a coefficient is left out; the anchor keeps the types that have one.
fn scaled_estimates(s: &Settings, data: &Dataset, point: &[f64], reps: &[Vec<f64>]) -> Vec<(ScaledKind, Estimate)> {
    let col = |t: usize| data.types.iter().position(|&u| u == t);
    let mut out = vec![];
    for q in &s.scaled {
        let mut num = vec![];
        let mut whole = true;
        for (t, &a) in q.num.iter().enumerate().filter(|(_, a)| **a != 0.0) {
            match col(t) {
                Some(j) => num.push((j, a)),
                None => whole = false,
            }
        }
        let (den, scale, den_name) = match &q.den {
            Denominator::Piece(t) => match col(*t) {
                Some(j) => (vec![(j, 1.0)], 1.0, "the other piece's coefficient".to_string()),
                None => continue,
            },
            Denominator::Anchor(textbook) => {
                let kept: Vec<(usize, f64)> = textbook
                    .iter()
                    .enumerate()
                    .filter(|(_, v)| **v > 0.0)
                    .filter_map(|(t, &v)| Some((col(t)?, v)))
                    .collect();
                let total: f64 = kept.iter().map(|k| k.1).sum();
                (kept.iter().map(|k| (k.0, 1.0)).collect(), total, "the orthodox pieces' summed coefficient".into())
            }
        };
        if !whole || den.is_empty() {
            continue;
        }
        let varied = num.iter().map(|&(j, _)| data.varied[j]).min().unwrap_or(0);
        let mut e = scaled_estimate(q.label.clone(), (&num, &den, scale), point, reps, &den_name, varied);
        // A piece is worth something: an interval of its value or ratio that reaches zero
        // says these games cannot price it, and a bound below zero is no figure to quote.
        if q.kind != ScaledKind::Difference && e.support.is_supported() && e.low <= 0.0 {
            e.note = format!(
                "the 95 % interval [{:.2}, {:.2}] reaches zero: these games cannot tell the piece from a worthless one",
                e.low, e.high
            );
            (e.value, e.low, e.high, e.se, e.support) =
                (f64::NAN, f64::NAN, f64::NAN, f64::NAN, Support::NotEnoughData);
        }
        out.push((q.kind, e));
    }
    out
}

/// The estimate `sum a_j beta_j / beta_pawn` of `weights`, from the point fit and the
/// bootstrap refits' coefficients.
fn ratio_estimate(
    name: String,
    weights: &[(usize, f64)],
    point: &[f64],
    reps: &[Vec<f64>],
    pawn_col: usize,
    varied: usize,
) -> Estimate {
    scaled_estimate(name, (weights, &[(pawn_col, 1.0)], 1.0), point, reps, PAWN, varied)
}

/// The divisor of values in pawns, as notes name it.
const PAWN: &str = "the pawn's coefficient";

pub fn estimate(pieces: &Pieces, data: &Dataset, s: &Settings) -> Result<Regression, ValuesError> {
    let pawn_col = data
        .types
        .iter()
        .position(|&t| t == pieces.pawn)
        .ok_or_else(|| ValuesError::Fit("the pawn never varies".into()))?;
    let n = data.games.len();
    let point =
        fit(s.model, &Grouped { x: data.x.clone(), counts: data.counts(&vec![1.0; n]) }).map_err(ValuesError::Fit)?;
    let point_beta = point.beta.to_vec();
    let refit = |w: &[f64]| -> Option<Vec<f64>> {
        fit(s.model, &Grouped { x: data.x.clone(), counts: data.counts(w) }).ok().map(|f| f.beta.to_vec())
    };
    let (reps, failed) = bootstrap::run(n, s.replicates, s.seed, refit);
    if reps.len() < 2 {
        return Err(ValuesError::Fit(format!(
            "only {} of {} bootstrap refits succeeded ({failed} failed); more games are needed",
            reps.len(),
            s.replicates
        )));
    }
    let pawn_reps: Vec<f64> = reps.iter().map(|b| b[pawn_col]).collect();
    let pawn_z = point_beta[pawn_col] / covariance(&pawn_reps, &pawn_reps).sqrt();
    let mut names: Vec<String> = data.types.iter().map(|&t| pieces.types[t].letter.to_string()).collect();
    names.push("side-to-move".into());
    names.push("white".into());
    let mut estimates = Vec::new();
    for (j, name) in names.into_iter().enumerate() {
        let varied = if j < data.types.len() { data.varied[j] } else { data.positions };
        estimates.push(ratio_estimate(name, &[(j, 1.0)], &point_beta, &reps, pawn_col, varied));
    }
    for (label, coefficients) in &s.contrasts {
        // A contrast needs every type it involves to have a coefficient.
        let Some(weights) = contrast_weights(coefficients, &data.types) else { continue };
        let varied = weights.iter().map(|&(j, _)| data.varied[j]).min().unwrap_or(0);
        estimates.push(ratio_estimate(label.clone(), &weights, &point_beta, &reps, pawn_col, varied));
    }
    Ok(Regression {
        estimates,
        missing: data.constant.iter().map(|&t| pieces.types[t].letter).collect(),
        games: n,
        positions: data.positions,
        failed_replicates: failed,
        pawn_z,
        draw_margin: point.theta,
        scaled: scaled_estimates(s, data, &point_beta, &reps),
    })
}

/// One quantity under two position selections of the same games: the phase filter's
/// effect on a value (`values::study::sensitivity`).
#[derive(Clone, Debug)]
pub struct Shift {
    pub name: String,
    /// The estimate under the first selection and under the second.
    pub base: Estimate,
    pub other: Estimate,
    /// `other - base` in pawns with its 95 % interval (BCa over a paired bootstrap of
    /// games), NaN unless both values are supported.
    pub difference: (f64, f64, f64),
}

/// Groups of games left out in turn by the jackknife behind the difference's BCa interval.
const JACKKNIFE_GROUPS: usize = 20;

/// Fits both datasets (the same games under two selections, in the same order) on every
/// bootstrap replicate, so that the difference of a value between the selections gets an
/// interval from the same resampled games: the two fits share most positions and are
/// strongly correlated, which two separate intervals would ignore.
pub fn shift(pieces: &Pieces, base: &Dataset, other: &Dataset, s: &Settings) -> Result<Vec<Shift>, ValuesError> {
    let n = base.games.len();
    if other.games.len() != n {
        return Err(ValuesError::Games(format!(
            "the two selections hold {n} and {} games: not the same games",
            other.games.len()
        )));
    }
    let pawn = |d: &Dataset| {
        d.types.iter().position(|&t| t == pieces.pawn).ok_or_else(|| ValuesError::Fit("the pawn never varies".into()))
    };
    let (pawn_a, pawn_b) = (pawn(base)?, pawn(other)?);
    let fit_one = |d: &Dataset, w: &[f64]| -> Option<Vec<f64>> {
        fit(s.model, &Grouped { x: d.x.clone(), counts: d.counts(w) }).ok().map(|f| f.beta.to_vec())
    };
    let both = |w: &[f64]| Some((fit_one(base, w)?, fit_one(other, w)?));
    let (point_a, point_b) =
        both(&vec![1.0; n]).ok_or_else(|| ValuesError::Fit("the regression does not fit these games".into()))?;
    let (reps, failed) = bootstrap::run(n, s.replicates, s.seed, both);
    if reps.len() < 2 {
        return Err(ValuesError::Fit(format!(
            "only {} of {} paired bootstrap refits succeeded ({failed} failed)",
            reps.len(),
            s.replicates
        )));
    }
    let groups = JACKKNIFE_GROUPS.min(n);
    let jack: Vec<(Vec<f64>, Vec<f64>)> =
        (0..groups).filter_map(|g| both(&bootstrap::leave_group_out(n, groups, g))).collect();
    let (reps_a, reps_b): (Vec<Vec<f64>>, Vec<Vec<f64>>) = reps.into_iter().unzip();
    let mut out = vec![];
    for (j, &t) in base.types.iter().enumerate().filter(|&(_, &t)| t != pieces.pawn) {
        // A type the other selection never sees unequal has no value there: not shown.
        let Some(k) = other.types.iter().position(|&u| u == t) else { continue };
        let name = pieces.types[t].letter.to_string();
        let a = ratio_estimate(name.clone(), &[(j, 1.0)], &point_a, &reps_a, pawn_a, base.varied[j]);
        let b = ratio_estimate(name.clone(), &[(k, 1.0)], &point_b, &reps_b, pawn_b, other.varied[k]);
        let diff = |x: &[f64], y: &[f64]| y[k] / y[pawn_b] - x[j] / x[pawn_a];
        let difference = if a.support.is_supported() && b.support.is_supported() {
            let point = diff(&point_a, &point_b);
            let replicates: Vec<f64> = reps_a.iter().zip(&reps_b).map(|(x, y)| diff(x, y)).collect();
            let jackknife: Vec<f64> = jack.iter().map(|(x, y)| diff(x, y)).collect();
            let (low, high) = bootstrap::bca_95(&replicates, point, &jackknife);
            if point.is_finite() && low.is_finite() && high.is_finite() && low <= point && point <= high {
                (point, low, high)
            } else {
                (f64::NAN, f64::NAN, f64::NAN)
            }
        } else {
            (f64::NAN, f64::NAN, f64::NAN)
        };
        out.push(Shift { name, base: a, other: b, difference });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use dataset::{GameData, Observation};

    /// Games whose result follows a knight worth 3 pawns (logistic, pawn coefficient 0.5),
    /// two positions each with the game's material; every `drop`-th game's positions left
    /// out (0: none), as a stricter phase filter drops whole stretches of games.
    fn games(pieces: &Pieces, n: usize, drop: usize, seed: u64) -> Vec<GameData> {
        let mut rng = Rng::new(seed);
        let knight = pieces.index('N').unwrap();
        (0..n)
            .map(|g| {
                let mut diff = vec![0; pieces.len()];
                diff[knight] = rng.below(3) as i32 - 1;
                diff[pieces.pawn] = rng.below(5) as i32 - 2;
                let eta = 0.5 * (3.0 * diff[knight] as f64 + diff[pieces.pawn] as f64);
                let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                let white_score = if u < 1.0 / (1.0 + (-eta).exp()) { 1.0 } else { 0.0 };
                let o = |white_to_move| Observation { diff: diff.clone(), white_to_move };
                let observations = if drop > 0 && g % drop == 0 { vec![] } else { vec![o(true), o(false)] };
                GameData { observations, white_score }
            })
            .collect()
    }

    #[test]
    fn a_selection_of_the_same_games_moves_no_value_and_the_paired_interval_is_narrow() {
        let p = Pieces::of(crate::Variant::load("chess", &[]).unwrap()).unwrap();
        // The same games, every position or a third of the games left out: the same
        // model in both, so the knight's value moves by sampling noise only.
        let all = Dataset::build(&p, &games(&p, 1500, 0, 5)).unwrap();
        let fewer = Dataset::build(&p, &games(&p, 1500, 3, 5)).unwrap();
        let s = Settings { model: Model::Logistic, replicates: 300, seed: 9, contrasts: vec![], scaled: vec![] };
        let shifts = shift(&p, &all, &fewer, &s).unwrap();
        assert_eq!(shifts.iter().map(|x| x.name.as_str()).collect::<Vec<_>>(), ["N"], "the pawn is the unit");
        let n = &shifts[0];
        assert!((n.base.value - 3.0).abs() < 0.6 && n.other.support.is_supported(), "{:?}", n.base);
        let (d, low, high) = n.difference;
        assert!(low < 0.0 && 0.0 < high && low <= d && d <= high, "{:?}", n.difference);
        assert!((d - (n.other.value - n.base.value)).abs() < 1e-9);
        // Two thirds of the games are in both fits: the paired interval is much narrower
        // than the two values' own intervals would suggest (independent fits: about 0.7
        // of their summed widths; paired: about 0.3).
        let separate = (n.base.high - n.base.low) + (n.other.high - n.other.low);
        assert!(high - low < 0.5 * separate, "{:?} against {separate}", n.difference);
        // Other games: refused.
        let other = Dataset::build(&p, &games(&p, 1000, 0, 5)).unwrap();
        assert!(shift(&p, &all, &other, &s).is_err());
    }
}
