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
    /// A named movement stands alone: nothing qualifies it.
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
    /// Multi-leg moves turn by quarter turns, which only orthogonal and diagonal atoms
    /// survive as themselves.
    LegAtom {
        letter: char,
        text: String,
    },
    /// A letter that means nothing in that leg of a multi-leg move (legs count from 1).
    LegModifier {
        modifier: char,
        leg: usize,
        text: String,
    },
    /// `p`, `t` or `y` on the last leg, which has nothing to go on to.
    LegFinalMode {
        modifier: char,
        text: String,
    },
    /// More than one leg that may remove a piece before the move lands.
    LegLocusts {
        text: String,
    },
    TooManyLegs {
        legs: usize,
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
                "unknown modifier '{modifier}' in movement \"{text}\" (modifiers: m c p g n i, a between legs, and directions f b v s l r h)"
            ),
            UnknownLetter { letter, text } => write!(
                f,
                "unknown piece letter '{letter}' in movement \"{text}\" (atoms: W F D N A H L C J Z G K, riders R B Q)"
            ),
            Dangling { text } => write!(f, "movement \"{text}\" ends with modifiers but no piece letter"),
            Unclosed { text } => write!(f, "unclosed '<' in movement \"{text}\""),
            UnknownNamed { name, text } => write!(f, "unknown named movement <{name}> in \"{text}\""),
            NamedModifier { name, text } => {
                write!(f, "nothing may qualify the named movement <{name}> in \"{text}\" (write its letters instead)")
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
            LegAtom { letter, text } => write!(
                f,
                "multi-leg move on '{letter}' in \"{text}\": legs need one orthogonal or diagonal atom (W F D A H G R B, or doubled)"
            ),
            LegModifier { modifier, leg, text } => write!(
                f,
                "'{modifier}' means nothing in leg {leg} of \"{text}\" (legs take m c p t y; the first leg absolute directions, later legs f b l r s v)"
            ),
            LegFinalMode { modifier, text } => {
                write!(f, "'{modifier}' on the last leg of \"{text}\": only m and c may end a move")
            }
            LegLocusts { text } => {
                write!(f, "\"{text}\" removes pieces in two legs before landing; a move may remove one (c) on its way")
            }
            TooManyLegs { legs, text } => write!(f, "{legs} legs in \"{text}\"; at most 4"),
        }
    }
}

impl std::error::Error for BetzaError {}
