//! The sentence each report section opens with: what its 95 % intervals allow one to say,
//! and nothing more. An undefined interval gives "not enough data", never a guess.

use super::figures::Interval;
use std::cmp::Ordering;

pub const NOT_ENOUGH: &str = "not enough data";

fn defined(i: &Interval) -> bool {
    i.is_defined() && i.low <= i.high
}

/// Where an interval lies against zero: above, below, or straddling it (Equal); None when
/// it is undefined. An end exactly at zero counts as straddling: zero is not excluded.
pub fn sign(i: &Interval) -> Option<Ordering> {
    if !defined(i) {
        None
    } else if i.low > 0.0 {
        Some(Ordering::Greater)
    } else if i.high < 0.0 {
        Some(Ordering::Less)
    } else {
        Some(Ordering::Equal)
    }
}

/// Which of two separately measured intervals is higher, when they do not overlap; Equal
/// when they overlap (the data cannot tell them apart); None when either is undefined.
pub fn separated(a: &Interval, b: &Interval) -> Option<Ordering> {
    if !defined(a) || !defined(b) {
        None
    } else if a.low > b.high {
        Some(Ordering::Greater)
    } else if a.high < b.low {
        Some(Ordering::Less)
    } else {
        Some(Ordering::Equal)
    }
}

/// The largest distance from zero the interval allows: "the same within ±x".
fn reach(i: &Interval) -> f64 {
    i.low.abs().max(i.high.abs())
}

/// For an interval around zero that reaches much further on one side, the two one-sided
/// bounds in words (`side(upper, -lower)`): "within ±79" alone hides that the data rule
/// out more than 9 on the other side. Empty when the two sides are within a factor of 1.5.
fn lopsided(i: &Interval, side: impl Fn(f64, f64) -> String) -> String {
    let (up, down) = (i.high.max(0.0), (-i.low).max(0.0));
    if up.max(down) > 1.5 * up.min(down) {
        side(up, down)
    } else {
        String::new()
    }
}

pub fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
}

/// White's advantage in Elo, worded.
pub fn balance(elo: &Interval) -> String {
    match sign(elo) {
        None => format!("Balance: {NOT_ENOUGH} to say which side is favoured."),
        Some(Ordering::Equal) => format!(
            "Balanced within ±{:.1} Elo: the 95 % interval of White's advantage, [{:+.1}, {:+.1}], includes zero{}.",
            reach(elo),
            elo.low,
            elo.high,
            lopsided(elo, |hi, lo| format!(" (White's edge at most {hi:.1} Elo, Black's at most {lo:.1})"))
        ),
        Some(Ordering::Greater) => {
            format!("White favoured by {:.1} Elo (95 % interval {:.1} to {:.1}).", elo.value, elo.low, elo.high)
        }
        Some(Ordering::Less) => {
            format!("Black favoured by {:.1} Elo (95 % interval {:.1} to {:.1}).", -elo.value, -elo.high, -elo.low)
        }
    }
}

/// A measured difference `a − b` in pawns, worded with the two pieces' names.
pub fn difference(a: &str, b: &str, diff: &Interval) -> String {
    let s = match sign(diff) {
        None => format!("{NOT_ENOUGH} to compare {a} and {b}."),
        Some(Ordering::Equal) => format!(
            "{a} and {b} are worth the same within ±{:.2} pawns (the 95 % interval of the difference, [{:+.2}, {:+.2}], includes zero{}).",
            reach(diff),
            diff.low,
            diff.high,
            lopsided(diff, |hi, lo| format!(": {a} is worth at most {hi:.2} more, {b} at most {lo:.2} more"))
        ),
        Some(Ordering::Greater) => format!(
            "{a} is worth more than {b} by {:.2} pawns (95 % interval {:.2} to {:.2}).",
            diff.value, diff.low, diff.high
        ),
        Some(Ordering::Less) => format!(
            "{a} is worth less than {b} by {:.2} pawns (95 % interval {:.2} to {:.2}).",
            -diff.value, -diff.high, -diff.low
        ),
    };
    capitalise(&s)
}

/// Two values measured separately (no interval of their difference): only non-overlap
/// counts as a difference.
pub fn compare(a: &str, av: &Interval, b: &str, bv: &Interval, unit: &str) -> String {
    let s = match separated(av, bv) {
        None => format!("{NOT_ENOUGH} to compare {a} and {b}."),
        Some(Ordering::Equal) => format!(
            "{a} ({:.2}) and {b} ({:.2}) cannot be told apart: their 95 % intervals overlap.",
            av.value, bv.value
        ),
        Some(o) => {
            let word = if o == Ordering::Greater { "more" } else { "less" };
            format!(
                "{a} is worth {word} than {b} ({:.2} against {:.2} {unit}; the 95 % intervals do not overlap).",
                av.value, bv.value
            )
        }
    };
    capitalise(&s)
}

/// A tuned engine against the default one.
pub fn strength(config: &str, elo: &Interval) -> String {
    match sign(elo) {
        None => format!("{NOT_ENOUGH} to say whether `{config}` is stronger."),
        Some(Ordering::Equal) => format!(
            "`{config}` and the default engine are equally strong within ±{:.1} Elo (the interval includes zero).",
            reach(elo)
        ),
        Some(Ordering::Greater) => {
            format!("`{config}` is stronger by {:.1} Elo (95 % interval {:.1} to {:.1}).", elo.value, elo.low, elo.high)
        }
        Some(Ordering::Less) => format!(
            "`{config}` is weaker by {:.1} Elo (95 % interval {:.1} to {:.1}).",
            -elo.value, -elo.high, -elo.low
        ),
    }
}

/// The cause a phase refit tests.
pub(super) const PHASE_CAUSE: &str = "the phase";

/// The cause the fit on the games' start material tests.
pub(super) const START_CAUSE: &str = "what the material goes on to win or lose";

/// Whether a cause accounts for a unit gap: the factor `main` of the regression against
/// `refit`, that of the regression refitted with the cause taken away (`cause`: "the
/// phase" for the fuller board); `whose` names the main factor's source ("the report's").
pub(super) fn gap_verdict(
    main: &crate::values::agreement::Scale,
    refit: &crate::values::agreement::Scale,
    whose: &str,
    cause: &str,
) -> String {
    let includes = |x: f64, low: f64, high: f64| low <= x && x <= high;
    let closer = refit.factor.ln().abs() < main.factor.ln().abs();
    if includes(1.0, main.low, main.high) {
        // No gap to account for: the refit is context, not a verdict on its cause.
        "neither factor differs from 1 beyond its errors".into()
    } else if (refit.factor - 1.0) * (main.factor - 1.0) < 0.0
        && refit.factor.ln().abs() >= main.factor.ln().abs() / 2.0
    {
        // Past 1 by half the gap or more: the refit changes the values by more than the gap,
        // so whatever it takes away is not the gap's whole story, even where its interval
        // still holds 1.
        format!(
            "on the other side of 1, so {cause} moves the values by more than the gap and does not explain it alone"
        )
    } else if closer && includes(1.0, refit.low, refit.high) && !includes(main.factor, refit.low, refit.high) {
        format!("closer to 1, consistent with it and clear of {whose} factor, so {cause} accounts for the gap")
    } else if closer && includes(1.0, refit.low, refit.high) {
        format!("closer to 1 and consistent with it, so {cause} may account for the gap (the refit's interval also holds {whose} factor)")
    } else if includes(refit.factor, main.low, main.high) {
        // A refit that moves the factor by less than its errors has not shown its cause at work.
        format!("within the interval of {whose} factor and still away from 1, so {cause} does not account for the gap")
    } else if closer {
        format!("closer to 1, so {cause} accounts for part of the gap")
    } else {
        format!("no closer to 1, so {cause} does not account for the gap")
    }
}
