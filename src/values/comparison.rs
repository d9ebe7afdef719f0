//! Comparisons of two groups of pieces, `X=Y` as given to `--compare`: `F=R` asks what a
//! Flying Bomber is worth against a Rook, `F=B+P` against a Bishop and a Pawn.

use super::pieces::Pieces;

/// Two sides of a comparison as piece letters (upper case, repeated for multiples).
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub x: Vec<char>,
    pub y: Vec<char>,
}

impl Comparison {
    /// Parses `X=Y`, each side one or more piece letters joined by `+`.
    pub fn parse(text: &str, pieces: &Pieces) -> Result<Comparison, String> {
        let (x, y) = text.split_once('=').ok_or_else(|| format!("comparison '{text}' must look like X=Y, e.g. F=R"))?;
        let side = |s: &str| -> Result<Vec<char>, String> {
            let mut out = Vec::new();
            for token in s.split('+').map(str::trim) {
                let mut chars = token.chars();
                let (Some(c), None) = (chars.next(), chars.next()) else {
                    return Err(format!("comparison '{text}': '{token}' is not one piece letter"));
                };
                let t = pieces.index(c).ok_or_else(|| {
                    let known: String = pieces.types.iter().map(|t| t.letter).collect();
                    format!("comparison '{text}': no piece '{c}' in this variant (pieces: {known})")
                })?;
                out.push(pieces.types[t].letter);
            }
            Ok(out)
        };
        let c = Comparison { x: side(x)?, y: side(y)? };
        if c.coefficients(pieces).iter().all(|&a| a == 0) {
            return Err(format!("comparison '{text}' compares a group with itself"));
        }
        Ok(c)
    }

    /// `X-Y` as written in tables, e.g. `F-R`, `F-B-P`.
    pub fn label(&self) -> String {
        let join = |v: &[char]| v.iter().map(|c| c.to_string()).collect::<Vec<_>>().join("+");
        let y = join(&self.y);
        if self.y.len() > 1 {
            format!("{}-({y})", join(&self.x))
        } else {
            format!("{}-{y}", join(&self.x))
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
        assert!(Comparison::parse("F", &p).unwrap_err().contains("X=Y"));
        assert!(Comparison::parse("F=Z", &p).unwrap_err().contains("no piece 'Z'"));
        assert!(Comparison::parse("F=RR", &p).unwrap_err().contains("one piece letter"));
        assert!(Comparison::parse("R=R", &p).unwrap_err().contains("itself"));
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
        // Every link parses in a real variant.
        let p = Pieces::of(crate::Variant::load("chess", &[]).unwrap()).unwrap();
        for c in balanced_chain(&v, &chess, 'P', 8) {
            Comparison::parse(&c, &p).unwrap();
        }
    }
}
