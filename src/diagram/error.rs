//! Why a diagram cannot be drawn.

use crate::FenError;
use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub enum DiagramError {
    /// The variant has no piece with this letter.
    UnknownPiece { letter: char, known: String },
    /// The demonstration board does not fit the variant's board or rules.
    Board(String),
    /// The FEN given to place the piece.
    Fen(FenError),
    /// No square of that name on the board.
    NoSuchSquare(String),
    /// No piece on the square whose moves were asked for.
    EmptySquare(String),
}

impl fmt::Display for DiagramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiagramError::UnknownPiece { letter, known } => {
                write!(f, "no piece '{letter}' in this variant (its pieces: {known})")
            }
            DiagramError::Board(m) => write!(f, "cannot set up the diagram: {m}"),
            DiagramError::Fen(e) => write!(f, "bad FEN: {e}"),
            DiagramError::NoSuchSquare(s) => write!(f, "no square {s} on this board"),
            DiagramError::EmptySquare(s) => write!(f, "no piece on {s}: give the square of the piece to show"),
        }
    }
}

impl std::error::Error for DiagramError {}

impl From<FenError> for DiagramError {
    fn from(e: FenError) -> DiagramError {
        DiagramError::Fen(e)
    }
}
