//! From match scores to pawns. A match result is a score of the side with X; on the
//! logistic Elo scale the advantages of several imbalances add up roughly linearly, so a
//! comparison's Elo divided by the Elo of a one-pawn handicap (the calibration match) is
//! the comparison's value in pawns. We measure the Elo of a pawn per variant instead of
//! assuming a figure (H. G. Muller reports about 15 % score per pawn on 8x8 at his engines'
//! strength; it depends on the variant, the engine and the search depth).
//!
//! Uncertainties: the score's standard error comes from the per-pair (pentanomial)
//! variance, the Elo's from the slope of the logistic curve at that score (delta method),
//! and a value in pawns, a ratio of two Elo figures, gets Fieller's interval
//! (`maths::fieller`), which carries the calibration's uncertainty and is bounded only when
//! the pawn's Elo is clearly above zero. (The delta method's symmetric ratio interval
//! missed below far more often than above when simulated.)

use crate::maths::fieller::{self, Ratio, RatioInput};
use crate::stats::{normal_quantile, score_to_elo, Pentanomial};
use crate::values::ValuesError;

/// Two-sided 95 % normal quantile (1.96).
pub fn z95() -> f64 {
    normal_quantile(0.975)
}

/// A quantity with its standard error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measure {
    pub value: f64,
    pub se: f64,
}

/// A point estimate with a 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Interval {
    pub value: f64,
    pub se: f64,
    pub low: f64,
    pub high: f64,
}

impl Interval {
    pub fn normal(m: Measure) -> Interval {
        let h = z95() * m.se;
        Interval { value: m.value, se: m.se, low: m.value - h, high: m.value + h }
    }

    /// Half the width: the "±" figure.
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// Mean score per game and its standard error from game pairs. For the error only, empty
/// outcome cells get the stats module's tiny pseudo-count, so a sample in which every
/// pair scored the same (all draws, say) still has a positive error instead of claiming
/// certainty.
pub fn pair_score(p: &Pentanomial) -> Option<Measure> {
    let mean = p.sample()?.mean();
    let counts = p.counts().map(|c| c as f64);
    let s = crate::stats::ScoreSample::regularized(&counts, 2)?;
    Some(Measure { value: mean, se: s.std_error() })
}

/// Logistic Elo of a score with its standard error by the delta method:
/// `d elo / d score = 400 / (ln 10 * s * (1 - s))`. `None` for a 0 % or 100 % score,
/// whose Elo is infinite: such a comparison is too lopsided to measure.
pub fn elo(score: Measure) -> Option<Measure> {
    let s = score.value;
    if !(s > 0.0 && s < 1.0) {
        return None;
    }
    let slope = 400.0 / (std::f64::consts::LN_10 * s * (1.0 - s));
    Some(Measure { value: score_to_elo(s), se: score.se * slope })
}

/// `x / pawn` with Fieller's 95 % interval for a ratio of independent estimates; an error
/// saying why when the pawn's worth is not clearly positive (no bounded interval exists).
pub fn in_pawns(x: Measure, pawn: Measure) -> Result<Interval, ValuesError> {
    let input =
        RatioInput { num: x.value, den: pawn.value, var_num: x.se * x.se, var_den: pawn.se * pawn.se, cov: 0.0 };
    match fieller::ratio(input, z95()) {
        Ratio::Bounded { value, low, high, se } if pawn.value > 0.0 => Ok(Interval { value, se, low, high }),
        Ratio::Bounded { .. } => Err(ValuesError::Calibration(format!(
            "the side with the extra pawn scored less ({:+.1} Elo): no unit to convert to",
            pawn.value
        ))),
        Ratio::Unbounded { den_z } => Err(ValuesError::Calibration(format!(
            "the pawn-odds match puts the pawn only {den_z:.2} standard errors above zero (a bounded 95 % \
             interval needs 1.96)"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::GameResult::{Draw, Loss, Win};

    #[test]
    fn elo_slope_matches_a_numerical_derivative() {
        let m = elo(Measure { value: 0.6, se: 0.01 }).unwrap();
        let numeric = (score_to_elo(0.6 + 1e-6) - score_to_elo(0.6 - 1e-6)) / 2e-6;
        assert!((m.value - 70.437).abs() < 1e-2);
        assert!((m.se - 0.01 * numeric).abs() < 1e-6);
        assert!(elo(Measure { value: 1.0, se: 0.0 }).is_none());
    }

    #[test]
    fn pair_scores_use_pair_variance() {
        let p = Pentanomial::from_pairs([(Win, Draw), (Draw, Draw), (Loss, Draw), (Win, Win)]);
        let m = pair_score(&p).unwrap();
        // Pair scores 0.75, 0.5, 0.25, 1: mean 0.625, population variance 0.078125.
        assert!((m.value - 0.625).abs() < 1e-9);
        let se = (0.078125f64 / 4.0).sqrt();
        assert!((m.se / se - 1.0).abs() < 1e-3, "{} vs {se}", m.se);
        let all_draws = Pentanomial::from_pairs([(Draw, Draw); 10]);
        assert!(pair_score(&all_draws).unwrap().se > 0.0);
    }

    #[test]
    fn ratio_interval_includes_the_calibration_error() {
        let x = Measure { value: 50.0, se: 10.0 };
        let exact_pawn = in_pawns(x, Measure { value: 100.0, se: 0.0 }).unwrap();
        assert!((exact_pawn.value - 0.5).abs() < 1e-12);
        assert!((exact_pawn.se - 0.1).abs() < 1e-12);
        assert!((exact_pawn.high - 0.5 - z95() * 0.1).abs() < 1e-12);
        let noisy = in_pawns(x, Measure { value: 100.0, se: 20.0 }).unwrap();
        // Delta-method summary sqrt(0.1^2 + 0.5^2 * 0.2^2) = sqrt(0.02); the ends are
        // Fieller's, wider than the exact pawn's and stretched upwards (the pawn could be
        // worth less than measured).
        assert!((noisy.se - 0.02f64.sqrt()).abs() < 1e-12);
        assert!(noisy.low < exact_pawn.low && noisy.high > exact_pawn.high);
        assert!(noisy.high - noisy.value > noisy.value - noisy.low, "{noisy:?}");
        assert!(in_pawns(x, Measure { value: 0.0, se: 1.0 }).is_err());
        // A pawn 1.5 standard errors from zero: no bounded interval, and the message says so.
        let weak = in_pawns(x, Measure { value: 30.0, se: 20.0 }).unwrap_err().to_string();
        assert!(weak.contains("1.50 standard errors"), "{weak}");
        assert!(in_pawns(x, Measure { value: -100.0, se: 10.0 }).unwrap_err().to_string().contains("scored less"));
    }
}
