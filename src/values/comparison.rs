//! Comparisons of two groups of pieces, `X=Y` as given to `--compare`: `F=R` asks what a
//! Flying Bomber is worth against a Rook, `F=B+P` against a Bishop and a Pawn.

use super::pieces::Pieces;
use super::ValuesError;

/// Two sides of a comparison as piece letters (upper case, repeated for multiples).
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub x: Vec<char>,
    pub y: Vec<char>,
}

impl Comparison {
    /// Parses `X=Y`, each side one or more piece letters joined by `+`.
    pub fn parse(text: &str, pieces: &Pieces) -> Result<Comparison, ValuesError> {
        let (x, y) = text
            .split_once('=')
            .ok_or_else(|| ValuesError::Comparison(format!("comparison '{text}' must look like X=Y, e.g. F=R")))?;
        let side = |s: &str| -> Result<Vec<char>, ValuesError> {
            let mut out = Vec::new();
            for token in s.split('+').map(str::trim) {
                let mut chars = token.chars();
                let (Some(c), None) = (chars.next(), chars.next()) else {
                    return Err(ValuesError::Comparison(format!(
                        "comparison '{text}': '{token}' is not one piece letter"
                    )));
                };
                let t = pieces.index(c).ok_or_else(|| {
                    let known: String = pieces.types.iter().map(|t| t.letter).collect();
                    ValuesError::Comparison(format!(
                        "comparison '{text}': no piece '{c}' in this variant (pieces: {known})"
                    ))
                })?;
                out.push(pieces.types[t].letter);
            }
            Ok(out)
        };
        let c = Comparison { x: side(x)?, y: side(y)? };
        if c.coefficients(pieces).iter().all(|&a| a == 0) {
            return Err(ValuesError::Comparison(format!("comparison '{text}' compares a group with itself")));
        }
        Ok(c)
    }

    /// `X-Y` as written in tables, e.g. `F-R`, `F-(B+P)`.
    pub fn label(&self) -> String {
        label_of(&self.x, &self.y)
    }

    /// [`Comparison::label`] of a comparison given as text (`X=Y`, letters joined by `+`),
    /// for readers of the tables that hold only the text; text without `=` is returned as is.
    pub fn label_of_text(text: &str) -> String {
        let letters = |s: &str| s.split('+').filter_map(|t| t.trim().chars().next()).collect::<Vec<_>>();
        match text.split_once('=') {
            Some((x, y)) => label_of(&letters(x), &letters(y)),
            None => text.to_string(),
        }
    }

    /// `X=Y` as given on the command line.
    pub fn text(&self) -> String {
        let join = |v: &[char]| v.iter().map(|c| c.to_string()).collect::<Vec<_>>().join("+");
        format!("{}={}", join(&self.x), join(&self.y))
    }

    /// Removal specs (`Board::without`): the side that keeps X lacks Y and vice versa.
    pub fn removal(&self) -> (String, String) {
        let join = |v: &[char]| v.iter().map(|c| c.to_string()).collect::<Vec<_>>().join("+");
        (join(&self.y), join(&self.x))
    }

    /// The measured quantity `value(X) - value(Y)` as coefficients per piece type.
    pub fn coefficients(&self, pieces: &Pieces) -> Vec<i32> {
        let mut a = vec![0; pieces.len()];
        for &c in &self.x {
            a[pieces.index(c).expect("validated at parse")] += 1;
        }
        for &c in &self.y {
            a[pieces.index(c).expect("validated at parse")] -= 1;
        }
        a
    }
}

/// Comparisons that make near-balanced imbalance matches from rough values (e.g. a
/// regression's), in `X=Y` text. Pieces are taken in order of value; each is set against
/// the cheaper pieces already linked, largest first while they fit (as many copies as
/// one side has, `counts`), and the rest in pawns, at most `max_pawns`: `N=P+P+P`, `B=N`,
/// `R=B+P+P`, `Q=R+R`. Near balance the score-to-pawn conversion is most nearly linear,
/// and since every link adds one new piece the least squares determines them all.
pub fn balanced_chain(values: &[(char, f64)], counts: &[(char, usize)], pawn: char, max_pawns: usize) -> Vec<String> {
    let mut sorted: Vec<(char, f64)> = values.iter().copied().filter(|(c, v)| *c != pawn && v.is_finite()).collect();
    sorted.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    let count = |c: char| counts.iter().find(|x| x.0 == c).map_or(0, |x| x.1);
    let mut out = Vec::new();
    for (i, &(letter, v)) in sorted.iter().enumerate() {
        let mut rhs: Vec<String> = vec![];
        let mut rest = v;
        for &(y, vy) in sorted[..i].iter().rev() {
            let mut used = 0;
            // Half a pawn of slack: a piece that overshoots by less than that still fits.
            while used < count(y) && vy > 0.0 && vy <= rest + 0.5 {
                rhs.push(y.to_string());
                rest -= vy;
                used += 1;
            }
        }
        let floor = if rhs.is_empty() { 1.0 } else { 0.0 };
        let pawns = (rest.round().max(floor) as usize).min(max_pawns.max(floor as usize));
        rhs.extend(std::iter::repeat_n(pawn.to_string(), pawns));
        if !rhs.is_empty() {
            out.push(format!("{letter}={}", rhs.join("+")));
        }
    }
    out
}

/// One near-balanced match for piece `x` alone: `x` against the single other piece of
/// nearest rough value, the difference made up in whole pawns on the cheaper side
/// (`N=R+P`, `N+P=R`), at most `max_pawns`. None without another piece to set it against.
pub fn balanced_against(x: char, values: &[(char, f64)], pawn: char, max_pawns: usize) -> Option<String> {
    let vx = values.iter().find(|v| v.0 == x && v.1.is_finite())?.1;
    let (y, vy) = values
        .iter()
        .copied()
        .filter(|&(c, v)| c != x && c != pawn && v.is_finite())
        .min_by(|a, b| (a.1 - vx).abs().total_cmp(&(b.1 - vx).abs()).then(a.0.cmp(&b.0)))?;
    let pawns = ((vx - vy).abs().round() as usize).min(max_pawns);
    let extra: String = std::iter::repeat_n(format!("+{pawn}"), pawns).collect();
    Some(if vx >= vy { format!("{x}={y}{extra}") } else { format!("{x}{extra}={y}") })
}

/// The signed piece counts of an `X=Y` text (`N=P+P+P`: N +1, P -3), for telling apart
/// comparisons that measure the same quantity (`B=N` and `N=B` do).
fn signature(text: &str) -> Option<Vec<(char, i32)>> {
    let (x, y) = text.split_once('=')?;
    let mut counts: std::collections::BTreeMap<char, i32> = Default::default();
    for (side, sign) in [(x, 1), (y, -1)] {
        for c in side.split('+').filter_map(|t| t.trim().chars().next()) {
            *counts.entry(c.to_ascii_uppercase()).or_default() += sign;
        }
    }
    Some(counts.into_iter().filter(|&(_, n)| n != 0).collect())
}

/// Whether `text` measures the same quantity as one of `list` (either way round).
pub fn duplicates(text: &str, list: &[String]) -> bool {
    let Some(a) = signature(text) else { return false };
    let negated: Vec<(char, i32)> = a.iter().map(|&(c, n)| (c, -n)).collect();
    list.iter().filter_map(|t| signature(t)).any(|b| b == a || b == negated)
}

/// Up to `want` near-balanced comparisons beside `existing`, each measuring a quantity none
/// of them does, so the least squares has degrees of freedom to test additivity with
/// (a chain alone fits every match exactly). Candidates are each piece against pawns
/// alone, or one or two cheaper pieces present (`counts`) with the difference made up in
/// whole pawns (at most `max_pawns`); nearest balance first, then fewest pawns, each piece
/// the dearer side of one match before any is of two.
pub fn redundant(
    values: &[(char, f64)],
    counts: &[(char, usize)],
    pawn: char,
    max_pawns: usize,
    existing: &[String],
    want: usize,
) -> Vec<String> {
    let pieces: Vec<(char, f64)> =
        values.iter().copied().filter(|&(c, v)| c != pawn && v.is_finite() && v > 0.0).collect();
    let present = |c: char| counts.iter().any(|&(d, n)| d == c && n > 0);
    // (distance from balance, pawns, dearer piece, text)
    let mut candidates: Vec<(f64, usize, char, String)> = vec![];
    let count = |c: char| counts.iter().find(|x| x.0 == c).map_or(0, |x| x.1);
    for &(x, vx) in pieces.iter().filter(|p| present(p.0)) {
        let mut add = |group: &[(char, f64)]| {
            let vy: f64 = group.iter().map(|g| g.1).sum();
            // Half a pawn of slack, as in the chain.
            if vy > vx + 0.5 || group.iter().any(|g| g.0 == x) {
                return;
            }
            let k = (vx - vy).round().max(0.0) as usize;
            if k > max_pawns || (group.is_empty() && k == 0) {
                return;
            }
            let mut rhs: Vec<String> = group.iter().map(|g| g.0.to_string()).collect();
            rhs.extend(std::iter::repeat_n(pawn.to_string(), k));
            candidates.push(((vx - vy - k as f64).abs(), k, x, format!("{x}={}", rhs.join("+"))));
        };
        add(&[]);
        for (i, &y) in pieces.iter().enumerate().filter(|p| present(p.1 .0)) {
            add(&[y]);
            // Two pieces on the cheaper side (a piece twice only if a side has two).
            for &z in pieces[i..].iter().filter(|z| z.0 != y.0 || count(y.0) >= 2) {
                add(&[y, z]);
            }
        }
    }
    candidates.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.3.cmp(&b.3)));
    let mut chosen: Vec<String> = vec![];
    let mut used: Vec<char> = vec![];
    // Two passes: first one match per dearer piece, then any, so the extra equations
    // spread over the pieces before any piece gets a second.
    for spread in [true, false] {
        for (_, _, x, text) in &candidates {
            if chosen.len() >= want {
                return chosen;
            }
            let all: Vec<String> = existing.iter().chain(&chosen).cloned().collect();
            if (spread && used.contains(x)) || duplicates(text, &all) {
                continue;
            }
            used.push(*x);
            chosen.push(text.clone());
        }
    }
    chosen
}

/// `X-Y`, with a several-piece `Y` in brackets (`Q-(R+R+P)`): the label of the tables.
fn label_of(x: &[char], y: &[char]) -> String {
    let join = |v: &[char]| v.iter().map(|c| c.to_string()).collect::<Vec<_>>().join("+");
    if y.len() > 1 {
        format!("{}-({})", join(x), join(y))
    } else {
        format!("{}-{}", join(x), join(y))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    #[test]
    fn parses_sides_and_coefficients() {
        let p = Pieces::of(Variant::load("flying-bombers-grand", &[]).unwrap()).unwrap();
        let c = Comparison::parse("F=B+P", &p).unwrap();
        assert_eq!(c.label(), "F-(B+P)");
        assert_eq!(c.removal(), ("B+P".to_string(), "F".to_string()));
        let a = c.coefficients(&p);
        assert_eq!(a[p.index('F').unwrap()], 1);
        assert_eq!(a[p.index('B').unwrap()], -1);
        assert_eq!(a[p.index('P').unwrap()], -1);
        assert_eq!(Comparison::parse("f=r", &p).unwrap().text(), "F=R");
        assert!(Comparison::parse("F", &p).unwrap_err().to_string().contains("X=Y"));
        assert!(Comparison::parse("F=Z", &p).unwrap_err().to_string().contains("no piece 'Z'"));
        assert!(Comparison::parse("F=RR", &p).unwrap_err().to_string().contains("one piece letter"));
        assert!(Comparison::parse("R=R", &p).unwrap_err().to_string().contains("itself"));
        assert!(Comparison::parse("K=R", &p).is_err());
    }

    #[test]
    fn chain_links_each_piece_to_cheaper_ones() {
        let v = [('Q', 9.2), ('N', 3.1), ('P', 1.0), ('R', 4.6), ('B', 3.3)];
        let chess = [('N', 2), ('B', 2), ('R', 2), ('Q', 1)];
        assert_eq!(balanced_chain(&v, &chess, 'P', 4), ["N=P+P+P", "B=N", "R=B+P", "Q=R+R"]);
        // One rook per side: the queen takes a rook, then a bishop, then pawns.
        let one_rook = [('N', 2), ('B', 2), ('R', 1), ('Q', 1)];
        assert_eq!(balanced_chain(&v, &one_rook, 'P', 4), ["N=P+P+P", "B=N", "R=B+P", "Q=R+B+P"]);
        // One piece alone: against its nearest neighbour, pawns on the cheaper side.
        assert_eq!(balanced_against('N', &v, 'P', 4).as_deref(), Some("N=B"));
        assert_eq!(balanced_against('R', &v, 'P', 4).as_deref(), Some("R=B+P"));
        assert_eq!(balanced_against('N', &[('N', 3.0), ('R', 5.1)], 'P', 4).as_deref(), Some("N+P+P=R"));
        assert_eq!(balanced_against('Q', &v, 'P', 4).as_deref(), Some("Q=R+P+P+P+P"));
        assert_eq!(balanced_against('B', &[('B', 3.3), ('P', 1.0)], 'P', 4), None);
        assert_eq!(balanced_against('Z', &v, 'P', 4), None);
        // Too few pawns: links are capped; a worthless first piece still needs one pawn.
        assert_eq!(balanced_chain(&[('X', 0.2), ('Y', 9.0)], &[], 'P', 3), ["X=P", "Y=P+P+P"]);
        assert!(balanced_chain(&[('P', 1.0)], &chess, 'P', 8).is_empty());
        // Redundant matches: new quantities only, nearest balance first, spread over pieces.
        let chain = balanced_chain(&v, &chess, 'P', 4);
        let extra = redundant(&v, &chess, 'P', 4, &chain, 3);
        assert_eq!(extra, ["Q=N+N+P+P+P", "B=P+P+P", "R=N+P"]);
        for e in &extra {
            assert!(!duplicates(e, &chain), "{e} repeats a chain link");
        }
        assert!(duplicates("N=B", &["B=N".to_string()]) && duplicates("B=N", &["B=N".to_string()]));
        assert!(!duplicates("B=N+P", &["B=N".to_string()]));
        // Every link parses in a real variant.
        let p = Pieces::of(crate::Variant::load("chess", &[]).unwrap()).unwrap();
        for c in balanced_chain(&v, &chess, 'P', 8) {
            Comparison::parse(&c, &p).unwrap();
        }
    }
}
