//! Static exchange estimate: does a move win at least `threshold` centipawns once the
//! opponent's best single recapture is taken into account?
//!
//! A full swap-off sequence needs "the least valuable attacker of a square", which the
//! Flying Bomber has no such thing as: its captures land away from the victim, so the next
//! capture of a bomber exchange happens on another square. One recapture, looked up with
//! `attacked_with` on the board after the move (which knows the bomber's dependence on the
//! square behind its target), is exact for every game and is what pruning and ordering need:
//! it tells a queen taking a defended pawn from a knight taking an undefended one.

use super::Searcher;
use crate::position::{code_type, moves::*, Position};
use crate::rules::Bits;

impl<B: Bits> Searcher<B> {
    /// Material removed by `m` (both bomber victims count) plus a promotion's gain.
    pub(super) fn gain(&self, pos: &Position<B>, m: Move) -> i32 {
        let value = |sq: usize| {
            let c = pos.code_at(sq);
            if c == 0 {
                0
            } else {
                self.piece_values[code_type(c)]
            }
        };
        let mut gain = match m.kind() {
            CAPTURE => value(m.to()),
            BOMB | EN_PASSANT => value(m.aux()),
            DOUBLE => value(m.aux()) + value(m.to()),
            _ => 0,
        };
        if let Some(p) = m.promo() {
            gain += self.piece_values[p] - self.piece_values[code_type(pos.code_at(m.from()))];
        }
        gain
    }

    /// Whether `m` takes the royal piece (king-capture games): always worth playing.
    pub(super) fn takes_king(&self, pos: &Position<B>, m: Move) -> bool {
        let r = pos.rules;
        if !r.is_king_capture() {
            return false;
        }
        let royal = |sq: usize| pos.code_at(sq) != 0 && code_type(pos.code_at(sq)) == r.king;
        match m.kind() {
            CAPTURE => royal(m.to()),
            BOMB | EN_PASSANT => royal(m.aux()),
            DOUBLE => royal(m.aux()) || royal(m.to()),
            _ => false,
        }
    }

    /// True when `m` is expected to gain at least `threshold` after one best recapture.
    pub(super) fn see_ge(&self, pos: &Position<B>, m: Move, threshold: i32) -> bool {
        if m.kind() == CASTLE || self.takes_king(pos, m) {
            return threshold <= 0;
        }
        let gain = self.gain(pos, m);
        if gain < threshold {
            return false;
        }
        let mover = match m.promo() {
            Some(p) => self.piece_values[p],
            None => self.piece_values[code_type(pos.code_at(m.from()))],
        };
        if gain - mover >= threshold {
            return true;
        }
        let them = pos.side() ^ 1;
        let (from, to) = (m.from(), m.to());
        let mut removed = B::ZERO;
        match m.kind() {
            CAPTURE => removed = B::bit(to),
            BOMB | EN_PASSANT => removed = B::bit(m.aux()),
            DOUBLE => removed = B::bit(m.aux()) | B::bit(to),
            _ => {}
        }
        let occ = (pos.occupied() & !B::bit(from) & !removed) | B::bit(to);
        let attackers = pos.color_bb(them) & !removed;
        if !pos.attacked_with(to, them, occ, attackers) {
            return true;
        }
        gain - mover >= threshold
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluator;
    use crate::{Board, Variant};

    /// `see_ge(mv, threshold)` in `fen` of `variant`, with the variant's default weights.
    fn see(variant: &str, fen: &str, mv: &str, threshold: i32) -> bool {
        fn run<B: Bits>(pos: Position<B>, mv: &str, threshold: i32) -> bool {
            let m = pos.legal_move_vec().into_iter().find(|&m| pos.move_name(m) == mv).expect("legal move");
            let s = Searcher::<B>::new(Evaluator::default_for(pos.rules), 1);
            s.see_ge(&pos, m, threshold)
        }
        match Variant::load(variant, &[]).unwrap().parse_fen(fen).unwrap() {
            Board::Narrow(p) => run(p, mv, threshold),
            Board::Wide(p) => run(p, mv, threshold),
        }
    }

    #[test]
    fn a_queen_taking_a_defended_pawn_loses_material() {
        let fen = "4k3/2p5/3p4/8/8/8/8/3QK3 w - - 0 1";
        assert!(!see("chess", fen, "d1d6", 0));
        assert!(see("chess", fen, "d1d6", -900));
        // Undefended, the same capture wins the pawn.
        let fen = "4k3/8/3p4/8/8/8/8/3QK3 w - - 0 1";
        assert!(see("chess", fen, "d1d6", 100));
        assert!(!see("chess", fen, "d1d6", 101));
    }

    #[test]
    fn a_pawn_taking_a_defended_knight_still_wins() {
        let fen = "4k3/2p5/3n4/4P3/8/8/8/4K3 w - - 0 1";
        assert!(see("chess", fen, "e5d6", 200));
    }

    #[test]
    fn a_quiet_move_onto_an_attacked_square_loses_the_piece() {
        let fen = "4k3/8/2p5/8/8/8/8/3QK3 w - - 0 1";
        assert!(!see("chess", fen, "d1d5", 0));
        assert!(see("chess", fen, "d1d3", 0));
    }

    #[test]
    fn a_bomber_double_capture_counts_both_victims() {
        // Fd4xf4(xe4) removes a rook and a knight; nothing can take the bomber on f4.
        let fen = "7k/8/8/8/3Frn2/8/8/K7 w - - 0 1";
        let v = Variant::load("bomber-diagram", &[]).unwrap();
        let Board::Narrow(p) = v.parse_fen(fen).unwrap() else { panic!("8x8 board") };
        let e = Evaluator::default_for(p.rules);
        let both =
            e.piece_value(p.rules.type_of_letter('R').unwrap()) + e.piece_value(p.rules.type_of_letter('N').unwrap());
        assert!(see("bomber-diagram", fen, "d4f4", both));
        assert!(!see("bomber-diagram", fen, "d4f4", both + 1));
    }

    #[test]
    fn taking_the_king_is_always_good_in_king_capture_games() {
        // Bland Chess 46: Rc2xc3 takes the king, which is worth nothing in the material
        // table; a plain exchange count would call it a losing capture once defended.
        let fen = "6/6/6/5*/5*/1pk3/2R3/K5 w - - 0 1 WW/WW";
        assert!(see("bland-chess-46", fen, "c2c3", 0));
    }
}
