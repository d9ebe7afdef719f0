//! Piece movement in Betza notation, read as Fairy-Stockfish reads it, so that a piece
//! string copied from one of its variant files means the same here.
//!
//! A movement is a sequence of atoms, each an upper-case letter with lower-case modifiers
//! before it:
//! - leapers `W F D N A H L C J Z G` (`L` = `C` is the camel (3,1), `J` = `Z` the zebra
//!   (3,2)) and `K` (= WF); riders `R B Q`; a doubled leaper letter rides (`NN`), and a
//!   number after a letter is a range (`R2`, `N3`);
//! - `m` move only, `c` capture only (both or neither: either);
//! - `p` hops over exactly one piece (a cannon: it lands anywhere beyond the screen up to
//!   and including the next piece), `g` lands right behind the first piece (grasshopper);
//!   both along W and F lines, so `pW` is `pR` as in Fairy-Stockfish;
//! - `n` makes N, A, D and Z lame: the leg squares must be empty (xiangqi horse `nN`,
//!   elephant `nA`); on riders it changes nothing, as there;
//! - `i`: the move is available only from the piece's initial zone (see
//!   `Rules::initial_zone`), and never captures;
//! - directions `f b v s l r h` and their pairs (see [`directions`]).
//!
//! - `a` between groups of modifiers chains legs into one move (see [`legs`]).
//!
//! A name in angle brackets stands for a movement string: `<bomber>` is [`BOMBER`].

mod directions;
mod error;
pub mod legs;

pub use error::BetzaError;
pub use legs::Leg;

/// The Flying Bomber of Flying Bombers Grand Chess (docs/rules/flying-bombers-grand-chess.md
/// §4.2): the quiet rook slide, the overtaking capture landing on any empty square beyond
/// its victim, and the two-square move over a friend, onto an enemy, or through two
/// enemies.
pub const BOMBER: &str = "mRcafmRtafWmcafcW";
/// The same with Immediate Landing: the overtaking capture lands right behind its victim.
pub const BOMBER_IMMEDIATE: &str = "mRcyafmRtafWmcafcW";

pub const MOVE: u8 = 1;
pub const CAPTURE: u8 = 2;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AtomKind {
    Leap,
    /// Slides along each vector; `range` 0 = unlimited.
    Ride {
        range: u32,
    },
    /// Slides to the first piece, then on beyond it up to and including the next (cannon).
    Hop,
    /// Lands on the square right behind the first piece on the line (grasshopper).
    Grasshop,
    /// A leap whose leg squares must be empty.
    Lame,
    /// A multi-leg move: one path, leg by leg (the atom's `vectors` hold its first step).
    Legs(Vec<Leg>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Atom {
    pub kind: AtomKind,
    /// Step vectors (file delta, rank delta) from White's point of view.
    pub vectors: Vec<(i32, i32)>,
    /// `MOVE | CAPTURE` bits.
    pub mode: u8,
    /// Only from the piece's initial zone.
    pub initial: bool,
}

/// The (long, short) legs of each atom a letter stands for.
fn legs(letter: char) -> Option<&'static [(i32, i32)]> {
    Some(match letter {
        'W' | 'R' => &[(1, 0)],
        'F' | 'B' => &[(1, 1)],
        'D' => &[(2, 0)],
        'N' => &[(2, 1)],
        'A' => &[(2, 2)],
        'H' => &[(3, 0)],
        'C' | 'L' => &[(3, 1)],
        'Z' | 'J' => &[(3, 2)],
        'G' => &[(3, 3)],
        'K' | 'Q' => &[(1, 0), (1, 1)],
        _ => return None,
    })
}

/// What the lower-case letters before an atom said.
#[derive(Default)]
struct Prefix {
    mode: u8,
    /// `p` (false) or `g` (true); `g` wins when both are given, as in Fairy-Stockfish.
    hop: Option<bool>,
    lame: bool,
    initial: bool,
    dirs: directions::Tokens,
    text: String,
}

fn prefix(chars: &[char], i: &mut usize, text: &str) -> Result<Prefix, BetzaError> {
    let mut p = Prefix::default();
    while *i < chars.len() && chars[*i].is_ascii_lowercase() {
        let c = chars[*i];
        match c {
            'm' => p.mode |= MOVE,
            'c' => p.mode |= CAPTURE,
            'p' => p.hop = Some(p.hop == Some(true)),
            'g' => p.hop = Some(true),
            'n' => p.lame = true,
            'i' => p.initial = true,
            _ if directions::is_direction(c) => {
                let (token, used) = directions::token(chars, *i);
                p.dirs.push(token);
                p.text.extend(&chars[*i..*i + used]);
                *i += used;
                continue;
            }
            other => return Err(BetzaError::UnknownModifier { modifier: other, text: text.into() }),
        }
        *i += 1;
    }
    if p.mode == 0 {
        p.mode = MOVE | CAPTURE;
    }
    Ok(p)
}

/// Parses a movement string into atoms.
pub fn parse(text: &str) -> Result<Vec<Atom>, BetzaError> {
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let owned = || text.to_string();
    let mut atoms = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        // A run of modifiers with an `a` in it is a multi-leg move's, read apart.
        let run = chars[i..].iter().take_while(|c| c.is_ascii_lowercase()).count();
        let legged = chars[i..i + run].contains(&'a');
        let groups: Vec<&[char]> = chars[i..i + run].split(|&c| c == 'a').collect();
        let p = if legged {
            i += run;
            Prefix { mode: MOVE | CAPTURE, ..Prefix::default() }
        } else {
            prefix(&chars, &mut i, text)?
        };
        if i >= chars.len() {
            return Err(BetzaError::Dangling { text: owned() });
        }
        if chars[i] == '<' {
            let end =
                chars[i..].iter().position(|&c| c == '>').ok_or_else(|| BetzaError::Unclosed { text: owned() })?;
            let name: String = chars[i + 1..i + end].iter().collect();
            i += end + 1;
            if name != "bomber" {
                return Err(BetzaError::UnknownNamed { name, text: owned() });
            }
            if run > 0 {
                return Err(BetzaError::NamedModifier { name, text: owned() });
            }
            atoms.extend(parse(BOMBER)?);
            continue;
        }
        let letter = chars[i];
        i += 1;
        let legs = legs(letter).ok_or_else(|| BetzaError::UnknownLetter { letter, text: owned() })?;
        let mut range_text = String::new();
        while i < chars.len() && chars[i].is_ascii_digit() {
            range_text.push(chars[i]);
            i += 1;
        }
        let range: Option<u32> = if range_text.is_empty() {
            None
        } else {
            Some(range_text.parse().map_err(|_| BetzaError::BadRange { text: owned() })?)
        };
        // A doubled letter (NN, WW) rides.
        let doubled = range.is_none() && i < chars.len() && chars[i] == letter;
        if doubled {
            i += 1;
        }
        let rider = matches!(letter, 'R' | 'B' | 'Q') || doubled || range.is_some_and(|r| r != 1);
        if legged {
            atoms.extend(legs::atoms(&groups, letter, legs, rider, range.unwrap_or(0), text)?);
            continue;
        }
        let kind = match p.hop {
            Some(grass) => {
                if legs.iter().any(|&(long, _)| long != 1) {
                    return Err(BetzaError::HopperAtom { letter, text: owned() });
                }
                if range.is_some() || (doubled && !matches!(letter, 'R' | 'B' | 'Q')) {
                    return Err(BetzaError::HopperRange { letter, text: owned() });
                }
                if p.lame {
                    return Err(BetzaError::LameHopper { text: owned() });
                }
                if grass {
                    AtomKind::Grasshop
                } else {
                    AtomKind::Hop
                }
            }
            None if rider => AtomKind::Ride { range: range.unwrap_or(0) },
            None if p.lame => {
                if !matches!(letter, 'N' | 'A' | 'D' | 'Z' | 'J') {
                    return Err(BetzaError::LameAtom { letter, text: owned() });
                }
                AtomKind::Lame
            }
            None => AtomKind::Leap,
        };
        let mut mode = p.mode;
        if p.initial {
            mode &= MOVE;
            if mode == 0 {
                return Err(BetzaError::InitialCapture { text: owned() });
            }
        }
        let before = atoms.len();
        for &(a, b) in legs {
            let vectors = directions::selects(a, b, &p.dirs, legs.len() == 1);
            if !vectors.is_empty() {
                atoms.push(Atom { kind: kind.clone(), vectors, mode, initial: p.initial });
            }
        }
        if atoms.len() == before {
            return Err(BetzaError::NoDirection { dirs: p.text, letter, text: owned() });
        }
    }
    if atoms.is_empty() {
        return Err(BetzaError::Empty);
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
        assert_eq!(parse("<bomber>").unwrap(), parse(BOMBER).unwrap());
    }

    #[test]
    fn errors_name_the_problem() {
        assert!(parse("X").unwrap_err().to_string().contains("'X'"));
        assert!(parse("mx").is_err());
        assert!(parse("<rocket>").unwrap_err().to_string().contains("rocket"));
        assert!(parse("m").is_err());
        assert!(matches!(parse("pN"), Err(BetzaError::HopperAtom { letter: 'N', .. })));
        assert!(matches!(parse("pR2"), Err(BetzaError::HopperRange { .. })));
        assert!(matches!(parse("nC"), Err(BetzaError::LameAtom { letter: 'C', .. })));
        assert!(matches!(parse("icN"), Err(BetzaError::InitialCapture { .. })));
        assert!(matches!(parse("hN"), Err(BetzaError::NoDirection { .. })));
        assert!(matches!(parse("p<bomber>"), Err(BetzaError::NamedModifier { .. })));
        assert!(matches!(parse("m<bomber>"), Err(BetzaError::NamedModifier { .. })));
        assert!(matches!(parse("fmWfceF"), Err(BetzaError::UnknownModifier { modifier: 'e', .. })));
    }

    #[test]
    fn fairy_stockfish_constructs() {
        assert_eq!(parse("L").unwrap(), parse("C").unwrap());
        assert_eq!(parse("J").unwrap(), parse("Z").unwrap());
        let cannon = parse("mRcpR").unwrap();
        assert_eq!((cannon[0].kind.clone(), cannon[0].mode), (AtomKind::Ride { range: 0 }, MOVE));
        assert_eq!((cannon[1].kind.clone(), cannon[1].mode), (AtomKind::Hop, CAPTURE));
        assert_eq!(parse("pW").unwrap(), parse("pR").unwrap());
        let grass = parse("gQ").unwrap();
        assert!(grass.iter().all(|a| a.kind == AtomKind::Grasshop) && count("gQ") == 8);
        assert_eq!(parse("nN").unwrap()[0].kind, AtomKind::Lame);
        // Lameness means nothing to a rider.
        assert_eq!(parse("nR").unwrap(), parse("R").unwrap());
        let pawn = parse("ifmnDfmWfcF").unwrap();
        assert_eq!((pawn[0].kind.clone(), pawn[0].mode, pawn[0].initial), (AtomKind::Lame, MOVE, true));
        assert_eq!(pawn[0].vectors, vec![(0, 2)]);
        // An initial move's capture half is dropped.
        assert_eq!(parse("iN").unwrap()[0].mode, MOVE);
        assert_eq!(count("fsW"), 3);
        assert_eq!(count("fsK"), 4);
        assert_eq!(count("fN"), 2);
        assert_eq!(count("fhN"), 4);
    }
}
