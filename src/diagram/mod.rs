//! Diagrams drawn from the compiled rules: a variant's start position, and one piece's
//! moves from a square with its quiet moves, captures, and for captures that land away
//! from their victims (the Flying Bomber's overtaking and helicopter captures) the
//! landing squares and the pieces removed. `fairylab show` writes them; reports embed
//! them.

mod error;
pub mod live;
mod scene;
pub mod svg;

pub use error::DiagramError;
pub use svg::Marks;

use crate::{Board, Variant};

/// The start position.
pub fn start_position(v: Variant) -> String {
    svg::render(&v.start_position(), &Marks::default(), &format!("{}: start position", v.title()))
}

/// Where a piece's moves are shown from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Placement {
    /// The piece (upper case: White's) alone near the centre with a fixed set of targets
    /// (see [`demo_board`]).
    Demo(char),
    /// The moves of the piece on `square` in `fen`.
    Fen { fen: String, square: String },
}

/// A board that shows a piece's moves: the piece on a central square, White to move,
/// enemy men three squares ahead (an overtaking capture with room to land beyond), one
/// and two squares to the right (a double capture), two squares to the left behind a
/// man of its own (a capture over a friend), a knight's leap and two diagonal steps away
/// (leapers' and diagonal captures), and both kings where the start position has them.
pub fn demo_board(v: Variant, piece: char) -> Result<Board, DiagramError> {
    scene::demo(v, piece)
}

/// A piece's moves as a diagram, and the marks drawn.
pub fn piece_moves(v: Variant, placement: &Placement) -> Result<(String, Marks), DiagramError> {
    let (board, square, letter) = match placement {
        Placement::Demo(letter) => {
            let board = scene::demo(v, *letter)?;
            (board, scene::centre(v)?.to_string(), *letter)
        }
        Placement::Fen { fen, square } => {
            let board = v.parse_fen(fen)?;
            let letter = board.piece_at(square).ok_or_else(|| DiagramError::EmptySquare(square.clone()))?;
            (board, square.clone(), letter)
        }
    };
    let marks = scene::marks(&board, &square);
    let name = v
        .piece_kinds()
        .into_iter()
        .find(|k| k.letter == letter.to_ascii_uppercase())
        .map_or_else(|| letter.to_string(), |k| format!("{} ({})", k.name, k.letter));
    let options = if v.options().is_empty() { String::new() } else { format!(", {}", v.options().join(" + ")) };
    let title = format!("{}{options}: the {name} from {square}", v.title());
    Ok((svg::render(&board, &marks, &title), marks))
}
