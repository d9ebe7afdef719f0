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
        self.see_ge_gaining(pos, m, threshold, self.gain(pos, m))
    }

    /// [`Searcher::see_ge`] of a move that neither castles nor takes the king, whose
    /// `gain` the caller has already computed.
    pub(super) fn see_ge_gaining(&self, pos: &Position<B>, m: Move, threshold: i32, gain: i32) -> bool {
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
        if let Some(bt) = pos.rules.bomber {
            // A bomber's capture lands away from its victim, so an exchange that a bomber can
            // join does not stay on one square: count one recapture only.
            let bombers = pos.type_bb(bt) & occ & !B::bit(to);
            let joins = |c: usize| {
                let ours = bombers & pos.color_bb(c);
                ours.any() && pos.attacked_with(to, c, occ, ours)
            };
            if joins(them) || joins(them ^ 1) {
                let attackers = pos.color_bb(them) & !removed;
                if !pos.attacked_with(to, them, occ, attackers) {
                    return true;
                }
                return gain - mover >= threshold;
            }
        }
        self.exchange_ge(pos, to, occ & !B::bit(to), gain - threshold, mover)
    }

    /// The exchange on `to` after the first capture, least valuable attacker first and
    /// x-rays revealed as pieces leave: does the first mover stay at or above the
    /// threshold? `balance` is what the first capture gained over the threshold, `mover`
    /// the value of the piece now standing on `to`; `pieces` are the pieces still on the
    /// board that may join in.
    fn exchange_ge(&self, pos: &Position<B>, to: usize, mut pieces: B, balance: i32, mover: i32) -> bool {
        let r = pos.rules;
        // What the side to recapture must win back for the first mover to fall short.
        let mut swap = mover - balance;
        let mut occ = pieces | B::bit(to);
        let mut attackers = pos.attackers_to(to, occ, pieces);
        let mut stm = pos.side();
        let mut first_mover_ahead = true;
        loop {
            stm ^= 1;
            attackers &= pieces;
            let ours = attackers & pos.color_bb(stm);
            if ours.is_empty() {
                break;
            }
            let mut cheapest = None;
            for t in 0..r.ntypes() {
                if t != r.king && (ours & pos.type_bb(t)).any() {
                    let v = self.piece_values[t];
                    if cheapest.is_none_or(|(_, best)| v < best) {
                        cheapest = Some((t, v));
                    }
                }
            }
            let Some((t, value)) = cheapest else {
                // Only the king can recapture: it may not (or, in king-capture games, would
                // be lost) while the other side still attacks the square.
                let defended = (attackers & pos.color_bb(stm ^ 1)).any();
                return if defended { first_mover_ahead } else { !first_mover_ahead };
            };
            first_mover_ahead = !first_mover_ahead;
            swap = value - swap;
            if swap < first_mover_ahead as i32 {
                break;
            }
            let sq = (ours & pos.type_bb(t)).lsb();
            pieces &= !B::bit(sq);
            occ &= !B::bit(sq);
            attackers = if r.special_attackers == [0, 0] {
                // `attackers_to(to, occ, pieces)`: only lines through `sq` change.
                (attackers & !B::bit(sq)) | pos.revealed_attackers(to, sq, occ, pieces)
            } else {
                // A hopper may lose its screen or a lame leaper gain its leg: look again.
                pos.attackers_to(to, occ, pieces)
            };
        }
        first_mover_ahead
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
    fn a_recapture_that_loses_more_is_not_made() {
        // Nxd5: the queen could take back, but the bishop on b3 would then win her.
        let fen = "3qk3/8/8/3p4/8/1BN5/8/4K3 w - - 0 1";
        assert!(see("chess", fen, "c3d5", 100));
        assert!(!see("chess", fen, "c3d5", 101));
        // Without the bishop the knight is lost for a pawn.
        let fen = "3qk3/8/8/3p4/8/2N5/8/4K3 w - - 0 1";
        assert!(!see("chess", fen, "c3d5", 0));
        assert!(see("chess", fen, "c3d5", 100 - 320));
    }

    #[test]
    fn a_rook_behind_a_rook_joins_the_exchange() {
        let doubled = "3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1";
        assert!(see("chess", doubled, "d2d5", 100));
        let single = "3rk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1";
        assert!(!see("chess", single, "d2d5", 0));
    }

    #[test]
    fn a_king_recaptures_only_an_undefended_piece() {
        // Qxe7: the king takes the queen back unless the rook on e1 guards e7.
        let guarded = "4k3/4p3/8/8/8/8/4Q3/4RK2 w - - 0 1";
        assert!(see("chess", guarded, "e2e7", 100));
        let alone = "4k3/4p3/8/8/8/8/4Q3/5K2 w - - 0 1";
        assert!(!see("chess", alone, "e2e7", 0));
    }

    #[test]
    fn a_quiet_move_onto_an_attacked_square_loses_the_piece() {
        let fen = "4k3/8/2p5/8/8/8/8/3QK3 w - - 0 1";
        assert!(!see("chess", fen, "d1d5", 0));
        assert!(see("chess", fen, "d1d3", 0));
    }

    #[test]
    fn a_cannon_defends_through_its_screen() {
        let cannons = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/betza/betza-cannons.toml");
        // The cannon on d8 hops the soldier on d7 to retake on d5: the rook is lost.
        let fen = "3ck3/3s4/8/3s4/8/8/8/3RK3 w - - 0 1";
        assert!(!see(cannons, fen, "d1d5", 0));
        // Without the screen the soldier hangs.
        let fen = "3ck3/8/8/3s4/8/8/8/3RK3 w - - 0 1";
        assert!(see(cannons, fen, "d1d5", 1));
        // A second screen (d6) hides the cannon too.
        let fen = "3ck3/3s4/3s4/3s4/8/8/8/3RK3 w - - 0 1";
        assert!(see(cannons, fen, "d1d5", 1));
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
