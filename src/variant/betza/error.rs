//! Why a movement string was refused.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BetzaError {
    Empty,
    UnknownModifier {
        modifier: char,
        text: String,
    },
    UnknownLetter {
        letter: char,
        text: String,
    },
    /// Modifiers at the end with no atom letter after them.
    Dangling {
        text: String,
    },
    Unclosed {
        text: String,
    },
    UnknownNamed {
        name: String,
        text: String,
    },
    /// Only `m` and `c` apply to a named movement.
    NamedModifier {
        name: String,
        text: String,
    },
    BadRange {
        text: String,
    },
    /// `p` and `g` hop along W and F lines only.
    HopperAtom {
        letter: char,
        text: String,
    },
    HopperRange {
        letter: char,
        text: String,
    },
    /// `n` makes N, A, D and Z (J) lame; no other leaper has a defined leg.
    LameAtom {
        letter: char,
        text: String,
    },
    /// `n` together with `p` or `g`.
    LameHopper {
        text: String,
    },
    /// `i` with `c` alone: initial moves never capture.
    InitialCapture {
        text: String,
    },
    /// The direction letters select none of the atom's moves (`hN`, `vsN`).
    NoDirection {
        dirs: String,
        letter: char,
        text: String,
    },
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use BetzaError::*;
        match self {
            Empty => f.write_str("empty movement"),
            UnknownModifier { modifier, text } => write!(
                f,
                "unknown modifier '{modifier}' in movement \"{text}\" (modifiers: m c p g n i and directions f b v s l r h)"
            ),
            UnknownLetter { letter, text } => write!(
                f,
                "unknown piece letter '{letter}' in movement \"{text}\" (atoms: W F D N A H L C J Z G K, riders R B Q)"
            ),
            Dangling { text } => write!(f, "movement \"{text}\" ends with modifiers but no piece letter"),
            Unclosed { text } => write!(f, "unclosed '<' in movement \"{text}\""),
            UnknownNamed { name, text } => write!(f, "unknown named movement <{name}> in \"{text}\""),
            NamedModifier { name, text } => {
                write!(f, "only m and c may qualify the named movement <{name}> in \"{text}\"")
            }
            BadRange { text } => write!(f, "bad range in \"{text}\""),
            HopperAtom { letter, text } => write!(
                f,
                "'{letter}' cannot hop in \"{text}\": p and g apply to moves along W and F lines (W F K R B Q)"
            ),
            HopperRange { letter, text } => {
                write!(f, "a hopper takes no range or doubling: '{letter}' in \"{text}\"")
            }
            LameAtom { letter, text } => write!(
                f,
                "'{letter}' cannot be lame in \"{text}\": n applies to the leapers N, A, D and Z (J), whose legs are defined"
            ),
            LameHopper { text } => write!(f, "n does not combine with p or g in \"{text}\""),
            InitialCapture { text } => {
                write!(f, "initial moves (i) never capture, so 'ic' without 'm' is empty in \"{text}\"")
            }
            NoDirection { dirs, letter, text } => {
                write!(f, "directions '{dirs}' select none of {letter}'s moves in \"{text}\"")
            }
        }
    }
}

impl std::error::Error for BetzaError {}
