//! A game's moves replayed under the variant's rules, one record per move: which piece
//! moved, where it landed, what it removed and the position after it. The report's game
//! viewer, its PGN comments and the play page read games through it, so what they show is
//! what the rules did, not what the move's text suggests (a bomber's `e4e6` may take one
//! piece or two).

use crate::{Board, Error, Square};

#[derive(Clone)]
pub struct Ply {
    /// The move as written (machine notation).
    pub text: String,
    /// The moving piece's letter (upper case: White's).
    pub piece: char,
    pub from: Square,
    pub to: Square,
    /// The squares whose pieces the move removed, with their letters.
    pub taken: Vec<(Square, char)>,
    pub after: Board,
}

impl Ply {
    /// A capture that lands beyond its only victim (a bomber's overtaking capture).
    pub fn overtakes(&self) -> bool {
        self.taken.len() == 1 && self.taken[0].0 != self.to && !self.en_passant()
    }

    /// A capture that removes two pieces (the bomber's helicopter capture).
    pub fn double(&self) -> bool {
        self.taken.len() >= 2
    }

    fn en_passant(&self) -> bool {
        self.taken.len() == 1 && self.piece.eq_ignore_ascii_case(&'P') && self.taken[0].0 != self.to
    }

    /// The squares the move emptied besides its landing square, as words ("takes e5 and
    /// e6"), or nothing for a move that takes on its landing square or takes nothing: the
    /// part of a multi-square capture its text leaves out.
    pub fn removal_note(&self) -> String {
        if self.taken.is_empty() || (self.taken.len() == 1 && self.taken[0].0 == self.to) {
            return String::new();
        }
        let squares: Vec<String> = self.taken.iter().map(|(s, _)| s.to_string()).collect();
        format!("takes {}", squares.join(" and "))
    }
}

/// Replays `moves` from `start`; an illegal move is an error naming its ply.
pub fn replay(start: &Board, moves: &[String]) -> Result<Vec<Ply>, Error> {
    let mut board = *start;
    let mut out = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let mv = board.parse_move(text).map_err(|e| Error::Position(format!("ply {}: {e}", i + 1)))?;
        let name = |sq: Square| sq.to_string();
        let piece = board.piece_at(&name(mv.from())).unwrap_or('?');
        let taken = mv.victims().into_iter().map(|sq| (sq, board.piece_at(&name(sq)).unwrap_or('?'))).collect();
        let after = board.play(mv)?;
        out.push(Ply { text: text.clone(), piece, from: mv.from(), to: mv.to(), taken, after });
        board = after;
    }
    Ok(out)
}

/// Every piece on the board with its square, rank by rank from White's side.
pub fn placement(board: &Board) -> Vec<(Square, char)> {
    let v = board.variant();
    let (files, ranks) = v.board_size();
    let mut out = vec![];
    for r in 0..ranks {
        for f in 0..files {
            if let Some(sq) = v.square_at(f, r) {
                if let Some(p) = board.piece_at(&sq.to_string()) {
                    out.push((sq, p));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    #[test]
    fn a_bombers_double_capture_removes_both_pieces_and_says_so() {
        let v = Variant::load("flying-bombers-grand", &[]).unwrap();
        // A bomber on e4 with enemy pawns on e5 and e6: the hop to e6 takes both.
        let start = v.parse_fen("4k5/10/10/10/4p5/4p5/4F5/10/10/5K4 w - - 0 1").unwrap();
        let plies = replay(&start, &["e4e6".to_string()]).unwrap();
        let p = &plies[0];
        assert!(p.double() && !p.overtakes(), "{:?}", p.taken);
        assert_eq!(p.removal_note(), "takes e5 and e6");
        let left: Vec<char> = placement(&p.after).into_iter().map(|(_, c)| c).collect();
        assert_eq!(left.iter().filter(|&&c| c == 'p').count(), 0);
        assert_eq!(p.after.piece_at("e6"), Some('F'));
    }

    #[test]
    fn an_overtaking_capture_lands_beyond_its_victim() {
        let v = Variant::load("flying-bombers-grand", &[]).unwrap();
        let start = v.parse_fen("4k5/10/10/10/10/4p5/10/4F5/10/5K4 w - - 0 1").unwrap();
        let plies = replay(&start, &["e3e8".to_string()]).unwrap();
        assert!(plies[0].overtakes() && !plies[0].double());
        assert_eq!(plies[0].removal_note(), "takes e5");
        // From two squares away the hop takes by landing on its victim: nothing to add.
        let hop = &replay(&start, &["e3e5".to_string()]).unwrap()[0];
        assert!(!hop.overtakes() && hop.removal_note().is_empty());
        assert_eq!(hop.taken, vec![(hop.to, 'p')]);
    }
}
