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
