//! Multi-leg moves, XBetza's `a` as the Interactive Diagram reads it, with two documented
//! extensions (`t` and `y` combined with another mode).
//!
//! The lower-case letters before the atom are split at each `a` into one group per leg;
//! the atom letter after them serves every leg. Each group gives its leg's mode and
//! directions:
//! - a leg that is not the last ends on an empty square (`m`, the default), on an enemy it
//!   removes and goes on from (`c`, a locust capture), on any piece it jumps (`p`), or on
//!   a piece of its own side it jumps (`t`, fairylab's); letters combine (`mc`);
//! - the last leg moves (`m`), captures (`c`) or either (neither given);
//! - `y` after a leg swaps rider and leaper for the legs that follow (`cyafmR`: slide to
//!   an enemy, then one step); alone it is XBetza's `y`, a move to an empty square;
//! - the first leg's directions are the absolute ones of a plain atom; a later leg's are
//!   relative to the leg before it: `f` straight on, `b` back, `l` `r` a quarter turn,
//!   `s` both turns, `v` on or back; none means all four.
//!
//! The atom is one orthogonal or diagonal letter, whose quarter turns are atoms of the
//! same kind (`W F D A H G R B`); a rider's legs slide (up to its range), a leaper's leap.

use super::{directions, Atom, AtomKind, BetzaError, CAPTURE, MOVE};

/// Leg modes beyond `MOVE` (ends on an empty square) and `CAPTURE` (on an enemy).
pub const HOP: u8 = 4;
pub const FRIEND: u8 = 8;
/// At most this many legs: enough for every move written so far, and a bound the compiled
/// walk can keep on the stack.
pub const MAX_LEGS: usize = 4;

/// One leg, from White's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Leg {
    pub step: (i32, i32),
    pub ride: bool,
    /// Steps a riding leg may take at most (0: unlimited).
    pub range: u32,
    /// `MOVE | CAPTURE | HOP | FRIEND` bits: what the square it ends on may hold.
    pub mode: u8,
}

/// What one group of letters says about its leg.
struct Group {
    mode: u8,
    swap: bool,
    absolute: directions::Tokens,
    relative: Vec<char>,
}

fn group(chars: &[char], leg: usize, last: bool, text: &str) -> Result<Group, BetzaError> {
    let mut g = Group { mode: 0, swap: false, absolute: Vec::new(), relative: Vec::new() };
    let mut i = 0;
    let refuse = |modifier: char| BetzaError::LegModifier { modifier, leg: leg + 1, text: text.into() };
    while i < chars.len() {
        let c = chars[i];
        match c {
            'm' => g.mode |= MOVE,
            'c' => g.mode |= CAPTURE,
            'p' | 't' | 'y' if last => return Err(BetzaError::LegFinalMode { modifier: c, text: text.into() }),
            'p' => g.mode |= HOP,
            't' => g.mode |= FRIEND,
            'y' => g.swap = true,
            _ if leg == 0 && directions::is_direction(c) => {
                let (token, used) = directions::token(chars, i);
                g.absolute.push(token);
                i += used;
                continue;
            }
            'f' | 'b' | 'l' | 'r' | 's' | 'v' if leg > 0 => g.relative.push(c),
            other => return Err(refuse(other)),
        }
        i += 1;
    }
    if g.mode == 0 {
        g.mode = if last { MOVE | CAPTURE } else { MOVE };
    }
    Ok(g)
}

/// The steps a later leg may take after a leg along `prev`, by its relative directions.
fn turns(prev: (i32, i32), relative: &[char]) -> Vec<(i32, i32)> {
    let (x, y) = prev;
    let (f, b, l, r) = ((x, y), (-x, -y), (-y, x), (y, -x));
    let mut out = Vec::new();
    let all = ['f', 'b', 'l', 'r'];
    for &c in if relative.is_empty() { &all[..] } else { relative } {
        let steps: &[(i32, i32)] = match c {
            'f' => &[f],
            'b' => &[b],
            'l' => &[l],
            'r' => &[r],
            's' => &[l, r],
            _ => &[f, b],
        };
        for &s in steps {
            if !out.contains(&s) {
                out.push(s);
            }
        }
    }
    out
}

/// The atoms of one multi-leg move: `groups` are the letter groups between the `a`s, the
/// atom `letter` has the single leg shape `(a, b)`, rides when `rider`, up to `range`.
pub fn atoms(
    groups: &[&[char]],
    letter: char,
    shape: &[(i32, i32)],
    rider: bool,
    range: u32,
    text: &str,
) -> Result<Vec<Atom>, BetzaError> {
    let &[(a, b)] = shape else { return Err(BetzaError::LegAtom { letter, text: text.into() }) };
    if b != 0 && a != b {
        return Err(BetzaError::LegAtom { letter, text: text.into() });
    }
    if groups.len() > MAX_LEGS {
        return Err(BetzaError::TooManyLegs { legs: groups.len(), text: text.into() });
    }
    let n = groups.len();
    let parsed: Vec<Group> =
        groups.iter().enumerate().map(|(i, g)| group(g, i, i + 1 == n, text)).collect::<Result<_, _>>()?;
    // A move removes at most one piece before it lands: the move encoding has room for one.
    if parsed[..n - 1].iter().filter(|g| g.mode & CAPTURE != 0).count() > 1 {
        return Err(BetzaError::LegLocusts { text: text.into() });
    }
    let first = directions::selects(a, b, &parsed[0].absolute, b == 0);
    if first.is_empty() {
        let dirs = groups[0].iter().filter(|c| directions::is_direction(**c)).collect();
        return Err(BetzaError::NoDirection { dirs, letter, text: text.into() });
    }
    let mut paths: Vec<Vec<Leg>> = Vec::new();
    let mut ride = rider;
    let mut partial: Vec<Vec<Leg>> = Vec::new();
    for (i, g) in parsed.iter().enumerate() {
        let range = if ride { range } else { 1 };
        if i == 0 {
            partial = first.iter().map(|&step| vec![Leg { step, ride, range, mode: g.mode }]).collect();
        } else {
            let mut next = Vec::new();
            for p in &partial {
                for step in turns(p.last().unwrap().step, &g.relative) {
                    let mut q = p.clone();
                    q.push(Leg { step, ride, range, mode: g.mode });
                    next.push(q);
                }
            }
            partial = next;
        }
        if g.swap {
            ride = !ride;
        }
    }
    for p in partial {
        if !paths.contains(&p) {
            paths.push(p);
        }
    }
    let mode = parsed[n - 1].mode;
    Ok(paths
        .into_iter()
        .map(|legs| Atom { vectors: vec![legs[0].step], kind: AtomKind::Legs(legs), mode, initial: false })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    fn legs(text: &str) -> Vec<Vec<Leg>> {
        parse(text)
            .unwrap()
            .into_iter()
            .filter_map(|a| match a.kind {
                AtomKind::Legs(l) => Some(l),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn an_overtaking_capture_slides_to_its_victim_then_on() {
        let runs = legs("cafmR");
        assert_eq!(runs.len(), 4);
        let north = runs.iter().find(|l| l[0].step == (0, 1)).unwrap();
        assert_eq!(
            north[..],
            [
                Leg { step: (0, 1), ride: true, range: 0, mode: CAPTURE },
                Leg { step: (0, 1), ride: true, range: 0, mode: MOVE }
            ]
        );
        // y swaps the rider for a leaper after the capture: land right behind the victim.
        let imm = legs("cyafmR");
        assert!(imm.iter().all(|l| l[0].ride && !l[1].ride && l[1].range == 1));
    }

    #[test]
    fn later_legs_turn_relative_to_the_one_before() {
        let bent = legs("masW");
        assert_eq!(bent.len(), 8);
        assert!(bent.iter().all(|l| l[0].step.0 * l[1].step.0 + l[0].step.1 * l[1].step.1 == 0));
        assert_eq!(legs("mabW").iter().filter(|l| l[1].step == (-l[0].step.0, -l[0].step.1)).count(), 4);
        assert_eq!(legs("maW").len(), 16);
        assert_eq!(legs("mafsW").len(), 12);
        assert_eq!(
            legs("ftafmW"),
            vec![vec![
                Leg { step: (0, 1), ride: false, range: 1, mode: FRIEND },
                Leg { step: (0, 1), ride: false, range: 1, mode: MOVE },
            ]]
        );
        assert_eq!(legs("mcafcF").len(), 4);
    }

    #[test]
    fn malformed_legs_are_refused_by_name() {
        assert!(matches!(parse("cafmN"), Err(BetzaError::LegAtom { letter: 'N', .. })));
        assert!(matches!(parse("cafmQ"), Err(BetzaError::LegAtom { letter: 'Q', .. })));
        assert!(matches!(parse("cafpR"), Err(BetzaError::LegFinalMode { modifier: 'p', .. })));
        assert!(matches!(parse("cacafR"), Err(BetzaError::LegLocusts { .. })));
        assert!(matches!(parse("mamamamamW"), Err(BetzaError::TooManyLegs { legs: 5, .. })));
        assert!(matches!(parse("mafhR"), Err(BetzaError::LegModifier { modifier: 'h', leg: 2, .. })));
        assert!(matches!(parse("gafR"), Err(BetzaError::LegModifier { modifier: 'g', leg: 1, .. })));
        assert!(matches!(parse("ma"), Err(BetzaError::Dangling { .. })));
        assert!(parse("cafmR").is_ok());
    }
}
