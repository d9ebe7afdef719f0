//! The demonstration board of a piece and the marks of its moves.

use super::{DiagramError, Marks};
use crate::{Board, Square, Variant};

/// Where the demonstrated piece stands: the middle of the board (left and below the
/// centre on even sizes), or the nearest square to it where that is a hole.
pub(super) fn centre(v: Variant) -> Result<Square, DiagramError> {
    centre_cell(v).map(|c| c.2)
}

/// The centre as (file, rank index, square).
fn centre_cell(v: Variant) -> Result<(usize, usize, Square), DiagramError> {
    let (files, ranks) = v.board_size();
    let (cf, cr) = ((files as i32 - 1) / 2, (ranks as i32 - 1) / 2);
    let mut best: Option<(i32, (usize, usize, Square))> = None;
    for r in 0..ranks {
        for f in 0..files {
            if let Some(sq) = v.square_at(f, r) {
                let d = (f as i32 - cf).abs() + (r as i32 - cr).abs();
                if best.is_none_or(|b| d < b.0) {
                    best = Some((d, (f, r, sq)));
                }
            }
        }
    }
    best.map(|b| b.1).ok_or_else(|| DiagramError::Board("the board has no squares".into()))
}

/// Enemy men around the piece, by (file, rank) offset, and the one man of its own.
const ENEMIES: [(i32, i32); 6] = [(0, 3), (1, 0), (2, 0), (-2, 0), (1, 2), (-2, -2)];
const FRIEND: (i32, i32) = (-1, 0);

pub(super) fn demo(v: Variant, piece: char) -> Result<Board, DiagramError> {
    let kinds = v.piece_kinds();
    let letter = piece.to_ascii_uppercase();
    if !kinds.iter().any(|k| k.letter == letter) {
        let known: String = kinds.iter().map(|k| k.letter).collect();
        return Err(DiagramError::UnknownPiece { letter: piece, known });
    }
    // The men are pawns where the game has them, else its first piece that is neither
    // royal nor the one shown.
    let man = kinds
        .iter()
        .find(|k| k.pawn)
        .or_else(|| kinds.iter().find(|k| !k.royal && k.letter != letter))
        .map_or(letter, |k| k.letter);
    let (files, ranks) = v.board_size();
    let mut grid: Vec<Vec<Option<char>>> = vec![vec![None; files]; ranks];
    let (cf, cr, _) = centre_cell(v)?;
    let mut put = |df: i32, dr: i32, c: char| {
        let (f, r) = (cf as i32 + df, cr as i32 + dr);
        if f >= 0 && r >= 0 && v.square_at(f as usize, r as usize).is_some() {
            let cell = &mut grid[r as usize][f as usize];
            if cell.is_none() {
                *cell = Some(c);
            }
        }
    };
    put(0, 0, letter);
    put(FRIEND.0, FRIEND.1, man);
    for (df, dr) in ENEMIES {
        put(df, dr, man.to_ascii_lowercase());
    }
    // Both kings where the start position has them (a game without royal pieces has none).
    let start = v.start_position();
    for r in 0..ranks {
        for f in 0..files {
            let Some(sq) = v.square_at(f, r) else { continue };
            if let Some(p) = start.piece_at(&sq.to_string()) {
                let royal = kinds.iter().any(|k| k.royal && k.letter == p.to_ascii_uppercase());
                if royal && grid[r][f].is_none() {
                    grid[r][f] = Some(p);
                }
            }
        }
    }
    let mut rows = vec![];
    for r in (0..ranks).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for (f, cell) in grid[r].iter().enumerate() {
            let c = match (v.square_at(f, r), cell) {
                (None, _) => Some('*'),
                (Some(_), Some(c)) => Some(*c),
                (Some(_), None) => None,
            };
            match c {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        row += &empty.to_string();
                        empty = 0;
                    }
                    row.push(c);
                }
            }
        }
        if empty > 0 {
            row += &empty.to_string();
        }
        rows.push(row);
    }
    // The start FEN's fields after the en passant square (counters, setup choices) carry
    // over; the side to move is White and no castling is left.
    let rest: Vec<&str> = v.start_fen().split_whitespace().skip(4).collect();
    let fen = format!("{} w - - {}", rows.join("/"), rest.join(" "));
    v.parse_fen(fen.trim()).map_err(|e| DiagramError::Board(format!("{fen}: {e}")))
}

/// The moves of the piece on `square`, sorted into the diagram's marks.
pub(super) fn marks(board: &Board, square: &str) -> Marks {
    let mut m = Marks::default();
    let push = |list: &mut Vec<Square>, sq: Square| {
        if !list.contains(&sq) {
            list.push(sq);
        }
    };
    for mv in board.legal_moves() {
        if mv.from().to_string() != square {
            continue;
        }
        m.from = Some(mv.from());
        let to = mv.to();
        let victims = mv.victims();
        if victims.is_empty() {
            push(&mut m.quiet, to);
            continue;
        }
        if victims.contains(&to) {
            push(&mut m.capture, to);
        } else {
            push(&mut m.landing, to);
        }
        for sq in victims.into_iter().filter(|&s| s != to) {
            push(&mut m.victims, sq);
        }
    }
    m
}
