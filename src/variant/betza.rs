//! Piece movement in a Betza-style notation, as Fairy-Stockfish users write it.
//!
//! Supported: leapers `W F D N A H C Z G` and `K` (= WF), riders `R B Q` (= WW, FF, WWFF),
//! doubled leaper letters as riders (`NN` nightrider), a range after a rider (`B4`, `R2`),
//! the modifiers `m` (move only) and `c` (capture only), and directions `f b l r v s`
//! (pairs such as `fl` select one diagonal). Named movements that no letter expresses are
//! written in angle brackets: `<bomber>` is the Flying Bomber of Flying Bombers Grand Chess
//! (quiet rook slide, overtaking and helicopter captures).

pub const MOVE: u8 = 1;
pub const CAPTURE: u8 = 2;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AtomKind {
    Leap,
    /// Slides along each vector; `range` 0 = unlimited.
    Ride {
        range: u32,
    },
    Bomber,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Atom {
    pub kind: AtomKind,
    /// Step vectors (file delta, rank delta) from White's point of view.
    pub vectors: Vec<(i32, i32)>,
    /// `MOVE | CAPTURE` bits.
    pub mode: u8,
}

fn base(letter: char) -> Option<Vec<(i32, i32)>> {
    let (a, b) = match letter {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'N' => (2, 1),
        'A' => (2, 2),
        'H' => (3, 0),
        'C' => (3, 1),
        'Z' => (3, 2),
        'G' => (3, 3),
        _ => return None,
    };
    Some(symmetric(a, b))
}

fn symmetric(a: i32, b: i32) -> Vec<(i32, i32)> {
    let mut v = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let p = (x * sx, y * sy);
                if !v.contains(&p) {
                    v.push(p);
                }
            }
        }
    }
    v
}

/// Keeps the vectors selected by direction letters (empty = all).
fn filter(vectors: Vec<(i32, i32)>, dirs: &str) -> Vec<(i32, i32)> {
    if dirs.is_empty() {
        return vectors;
    }
    let chars: Vec<char> = dirs.chars().collect();
    // Group into specs: a vertical letter followed by a horizontal one (or the reverse)
    // is one oblique/diagonal direction; doubled letters narrow oblique leapers.
    let mut specs: Vec<(char, Option<char>)> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if i + 1 < chars.len() {
            let d = chars[i + 1];
            let vert = |x: char| x == 'f' || x == 'b';
            let horiz = |x: char| x == 'l' || x == 'r';
            if (vert(c) && horiz(d)) || (horiz(c) && vert(d)) || (c == d && (vert(c) || horiz(c))) {
                specs.push((c, Some(d)));
                i += 2;
                continue;
            }
        }
        specs.push((c, None));
        i += 1;
    }
    let one = |c: char, (x, y): (i32, i32)| match c {
        'f' => y > 0,
        'b' => y < 0,
        'l' => x < 0,
        'r' => x > 0,
        'v' => x == 0 || y.abs() > x.abs(),
        's' => y == 0 || x.abs() > y.abs(),
        _ => false,
    };
    vectors
        .into_iter()
        .filter(|&v| {
            specs.iter().any(|&(a, b)| match b {
                None => one(a, v),
                Some(b) if a == b => one(a, v) && if a == 'f' || a == 'b' { one('v', v) } else { one('s', v) },
                Some(b) => one(a, v) && one(b, v),
            })
        })
        .collect()
}

/// Parses a movement string into atoms.
pub fn parse(text: &str) -> Result<Vec<Atom>, String> {
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut atoms = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let mut mode = 0u8;
        let mut dirs = String::new();
        while i < chars.len() && chars[i].is_ascii_lowercase() {
            match chars[i] {
                'm' => mode |= MOVE,
                'c' => mode |= CAPTURE,
                'f' | 'b' | 'l' | 'r' | 'v' | 's' => dirs.push(chars[i]),
                other => return Err(format!("unknown modifier '{other}' in movement \"{text}\"")),
            }
            i += 1;
        }
        if mode == 0 {
            mode = MOVE | CAPTURE;
        }
        if i >= chars.len() {
            return Err(format!("movement \"{text}\" ends with modifiers but no piece letter"));
        }
        if chars[i] == '<' {
            let end = chars[i..]
                .iter()
                .position(|&c| c == '>')
                .ok_or_else(|| format!("unclosed '<' in movement \"{text}\""))?;
            let name: String = chars[i + 1..i + end].iter().collect();
            i += end + 1;
            match name.as_str() {
                "bomber" => atoms.push(Atom { kind: AtomKind::Bomber, vectors: symmetric(1, 0), mode }),
                _ => return Err(format!("unknown named movement <{name}> in \"{text}\"")),
            }
            continue;
        }
        let letter = chars[i];
        i += 1;
        let mut range_text = String::new();
        while i < chars.len() && chars[i].is_ascii_digit() {
            range_text.push(chars[i]);
            i += 1;
        }
        let range: Option<u32> = if range_text.is_empty() {
            None
        } else {
            Some(range_text.parse().map_err(|_| format!("bad range in \"{text}\""))?)
        };
        let mut push = |kind: AtomKind, vectors: Vec<(i32, i32)>| {
            let vectors = filter(vectors, &dirs);
            atoms.push(Atom { kind, vectors, mode });
        };
        match letter {
            'K' => {
                push(AtomKind::Leap, base('W').unwrap());
                push(AtomKind::Leap, base('F').unwrap());
            }
            'R' | 'B' | 'Q' => {
                let r = range.unwrap_or(0);
                if letter != 'B' {
                    push(AtomKind::Ride { range: r }, base('W').unwrap());
                }
                if letter != 'R' {
                    push(AtomKind::Ride { range: r }, base('F').unwrap());
                }
            }
            _ => {
                let v =
                    base(letter).ok_or_else(|| format!("unknown piece letter '{letter}' in movement \"{text}\""))?;
                // A doubled letter (NN, WW) makes the leaper a rider.
                let doubled = i < chars.len() && chars[i] == letter;
                if doubled {
                    i += 1;
                }
                match (doubled, range) {
                    (false, None) => push(AtomKind::Leap, v),
                    (false, Some(1)) => push(AtomKind::Leap, v),
                    (_, r) => push(AtomKind::Ride { range: r.unwrap_or(0) }, v),
                }
            }
        }
    }
    if atoms.is_empty() {
        return Err("empty movement".into());
    }
    Ok(atoms)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(text: &str) -> usize {
        parse(text).unwrap().iter().map(|a| a.vectors.len()).sum()
    }

    #[test]
    fn standard_pieces() {
        assert_eq!(count("K"), 8);
        assert_eq!(count("Q"), 8);
        assert_eq!(count("N"), 8);
        assert_eq!(count("NC"), 16);
        assert_eq!(parse("R").unwrap()[0].kind, AtomKind::Ride { range: 0 });
        assert_eq!(parse("NN").unwrap()[0].kind, AtomKind::Ride { range: 0 });
    }

    #[test]
    fn modifiers_and_ranges() {
        let earl = parse("RmB4").unwrap();
        assert_eq!(earl[1].mode, MOVE);
        assert_eq!(earl[1].kind, AtomKind::Ride { range: 4 });
        let pawn = parse("fmWfcF").unwrap();
        assert_eq!(pawn[0].vectors, vec![(0, 1)]);
        let mut caps = pawn[1].vectors.clone();
        caps.sort();
        assert_eq!(caps, vec![(-1, 1), (1, 1)]);
        assert_eq!(parse("flF").unwrap()[0].vectors, vec![(-1, 1)]);
        assert_eq!(parse("<bomber>").unwrap()[0].kind, AtomKind::Bomber);
    }

    #[test]
    fn errors_name_the_problem() {
        assert!(parse("X").unwrap_err().contains("'X'"));
        assert!(parse("mx").is_err());
        assert!(parse("<rocket>").unwrap_err().contains("rocket"));
        assert!(parse("m").is_err());
    }
}
