//! Direction modifiers as Fairy-Stockfish reads them.
//!
//! Letters are grouped into two-letter tokens: a letter followed by the same letter, or a
//! vertical (`f b v h`) next to a horizontal (`r l s h`), is one token (`fl`, `lf`, `fh`,
//! `hr`); any other letter stands alone and counts as doubled (`f` is `ff`). Each token
//! selects some of the eight images of an atom (a, b) (a the longer leg), as listed in
//! [`selects`]; a token in no list selects nothing (`hh`, `vs`). For a single orthogonal
//! atom (W, D, H, R, and their doubled riders) a mixed token is read as its two letters
//! alone, so `fsW` is forward and sideways rather than nothing.

/// Direction tokens of a movement prefix, in order.
pub type Tokens = Vec<[char; 2]>;

const VERTICAL: &str = "fbvh";
const HORIZONTAL: &str = "rlsh";

pub fn is_direction(c: char) -> bool {
    VERTICAL.contains(c) || HORIZONTAL.contains(c)
}

/// Reads one token starting at `chars[i]` (a direction letter); returns it and how many
/// letters it took.
pub fn token(chars: &[char], i: usize) -> ([char; 2], usize) {
    let c = chars[i];
    if let Some(&d) = chars.get(i + 1) {
        let pairs = d == c
            || (VERTICAL.contains(c) && HORIZONTAL.contains(d))
            || (HORIZONTAL.contains(c) && VERTICAL.contains(d));
        if pairs {
            return ([c, d], 2);
        }
    }
    ([c, c], 1)
}

/// The eight images of atom (a, b) as (file, rank) steps, each with the tokens selecting
/// it. Written out rather than derived so that the table reads as the reference does.
fn images(a: i32, b: i32) -> [((i32, i32), &'static [&'static str]); 8] {
    [
        ((b, a), &["ff", "vv", "rf", "rv", "fh", "rh", "hr"]),
        ((-b, -a), &["bb", "vv", "lb", "lv", "bh", "lh", "hr"]),
        ((a, -b), &["rr", "ss", "br", "bs", "bh", "rh", "hr"]),
        ((-a, b), &["ll", "ss", "fl", "fs", "fh", "lh", "hr"]),
        ((a, b), &["rr", "ss", "fr", "fs", "fh", "rh", "hl"]),
        ((-a, -b), &["ll", "ss", "bl", "bs", "bh", "lh", "hl"]),
        ((b, -a), &["bb", "vv", "rb", "rv", "bh", "rh", "hl"]),
        ((-b, a), &["ff", "vv", "lf", "lv", "fh", "lh", "hl"]),
    ]
}

/// The steps of atom (a, b) that `tokens` select (all eight images when there are no
/// tokens), without repeats. `lone_orthogonal` marks an atom letter that is one orthogonal
/// atom, whose mixed tokens split into their letters.
pub fn selects(a: i32, b: i32, tokens: &[[char; 2]], lone_orthogonal: bool) -> Vec<(i32, i32)> {
    let mut wanted: Vec<String> = Vec::new();
    for &[x, y] in tokens {
        if lone_orthogonal && b == 0 && x != y {
            wanted.push([x, x].iter().collect());
            wanted.push([y, y].iter().collect());
        } else {
            wanted.push([x, y].iter().collect());
        }
    }
    let mut out = Vec::new();
    for (step, names) in images(a, b) {
        let chosen = wanted.is_empty() || names.iter().any(|n| wanted.iter().any(|w| w == n));
        if chosen && !out.contains(&step) {
            out.push(step);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sel(a: i32, b: i32, dirs: &str, lone: bool) -> Vec<(i32, i32)> {
        let chars: Vec<char> = dirs.chars().collect();
        let mut tokens = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let (t, n) = token(&chars, i);
            tokens.push(t);
            i += n;
        }
        let mut v = selects(a, b, &tokens, lone);
        v.sort();
        v
    }

    #[test]
    fn a_single_letter_is_doubled() {
        // fN is the two narrow forward leaps, as ffN.
        assert_eq!(sel(2, 1, "f", false), vec![(-1, 2), (1, 2)]);
        assert_eq!(sel(2, 1, "s", false), vec![(-2, -1), (-2, 1), (2, -1), (2, 1)]);
        assert_eq!(sel(1, 1, "f", false), vec![(-1, 1), (1, 1)]);
    }

    #[test]
    fn pairs_and_h() {
        assert_eq!(sel(2, 1, "fh", false), vec![(-2, 1), (-1, 2), (1, 2), (2, 1)]);
        assert_eq!(sel(2, 1, "fs", false), vec![(-2, 1), (2, 1)]);
        assert_eq!(sel(2, 1, "hr", false).len(), 4);
        assert_eq!(sel(1, 1, "fl", false), vec![(-1, 1)]);
        assert!(sel(2, 1, "h", false).is_empty());
        assert!(sel(2, 1, "vs", false).is_empty());
    }

    #[test]
    fn lone_orthogonal_atoms_split_mixed_tokens() {
        assert_eq!(sel(1, 0, "fs", true), vec![(-1, 0), (0, 1), (1, 0)]);
        // Within a king the same token is one direction per atom.
        assert_eq!(sel(1, 0, "fs", false), vec![(-1, 0), (1, 0)]);
    }
}
