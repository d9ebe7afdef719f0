//! Roots of monotone functions of one variable.

/// The root of a function that falls from positive to negative on the open interval
/// `(lo, hi)`, such as one with a pole at each end.
///
/// Bisection: it needs no derivative and cannot diverge, and it never evaluates `f` at the ends
/// themselves, where a pole would give an infinity or NaN. It runs until the midpoint can no
/// longer be told apart from an end in `f64` (or the interval is 1e-18 of its starting width).
/// A NaN value of `f` is treated as positive (the root is taken to lie further right); an
/// interval that is empty or not finite gives its midpoint, or `lo`.
pub fn decreasing_root(f: impl Fn(f64) -> f64, lo: f64, hi: f64) -> f64 {
    let (mut lo, mut hi) = (lo, hi);
    if lo.partial_cmp(&hi) != Some(std::cmp::Ordering::Less) || !lo.is_finite() || !hi.is_finite() {
        return if lo.is_finite() && hi.is_finite() { 0.5 * (lo + hi) } else { lo };
    }
    // Halving stops at adjacent floats, or at 1e-18 of the starting width: a root near 0
    // would otherwise be chased down through every exponent to the subnormals, a thousand
    // halvings that change nothing the callers can see.
    let floor = (hi - lo) * 1e-18;
    for _ in 0..2100 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi || hi - lo <= floor {
            break;
        }
        let v = f(mid);
        if v == 0.0 {
            return mid;
        }
        if v < 0.0 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::decreasing_root;

    #[test]
    fn finds_the_root_between_two_poles() {
        // 1/x + 1/(x - 1) - 1/2 falls from +inf at 0 to -inf at 1; its root solves
        // x^2 - 5x + 2 = 0 in (0, 1): (5 - sqrt 17) / 2.
        let f = |x: f64| 1.0 / x + 1.0 / (x - 1.0) - 0.5;
        let want = (5.0 - 17f64.sqrt()) / 2.0;
        assert!((decreasing_root(f, 0.0, 1.0) - want).abs() < 1e-15);
    }

    #[test]
    fn degenerate_intervals_do_not_loop_or_panic() {
        assert_eq!(decreasing_root(|x| -x, 2.0, 2.0), 2.0);
        assert_eq!(decreasing_root(|x| -x, 3.0, 1.0), 2.0);
        assert!(decreasing_root(|x| -x, f64::NEG_INFINITY, 1.0).is_infinite());
    }
}
