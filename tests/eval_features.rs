//! The evaluation's threat, king-attack, castling and pair features count what they say.

use fairylab::eval::{EngineConfig, Evaluator};
use fairylab::{Board, Variant};

/// Sum of a feature's values in `fen` (White's view; a pair name sums its mg and eg halves,
/// which together carry the full count whatever the phase).
fn feature(fen: &str, name: &str) -> f32 {
    let v = Variant::load("chess", &[]).unwrap();
    let Variant::Narrow(r) = v else { panic!("chess is an 8x8 game") };
    let ev: Evaluator = EngineConfig::for_variant("chess").unwrap().evaluator(r, &[]).unwrap();
    let Board::Narrow(p) = v.parse_fen(fen).unwrap() else { panic!() };
    let f = ev.features(&p);
    let ids: Vec<u32> = [name.to_string(), format!("{name}.mg"), format!("{name}.eg")]
        .iter()
        .filter_map(|n| ev.layout.index(n).map(|i| i as u32))
        .collect();
    assert!(!ids.is_empty(), "no feature named {name}");
    f.iter().filter(|(j, _)| ids.contains(j)).map(|x| x.1).sum()
}

#[test]
fn a_pawn_attacking_an_undefended_knight_is_a_threat_and_a_hanging_piece() {
    let fen = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1";
    assert_eq!(feature(fen, "threat.pawn"), 1.0);
    assert_eq!(feature(fen, "threat.hanging"), 1.0);
    assert_eq!(feature(fen, "threat.lesser"), 0.0);
    // Defended by a pawn, the knight is threatened but no longer hanging.
    let fen = "4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1";
    assert_eq!(feature(fen, "threat.pawn"), 1.0);
    assert_eq!(feature(fen, "threat.hanging"), 0.0);
}

#[test]
fn a_knight_attacking_a_rook_is_a_threat_by_a_lesser_piece() {
    // Nc3 attacks the undefended rook on d5; the rook attacks nothing white.
    let fen = "4k3/8/8/3r4/8/2N5/8/4K3 w - - 0 1";
    assert_eq!(feature(fen, "threat.lesser"), 1.0);
    assert_eq!(feature(fen, "threat.pawn"), 0.0);
}

#[test]
fn castling_rights_count_per_side() {
    let both = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    assert_eq!(feature(both, "king.castling"), 0.0);
    let white_only = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQ - 0 1";
    let one_right = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w K - 0 1";
    let two = feature(white_only, "king.castling");
    assert!(two > 0.0);
    assert!((feature(one_right, "king.castling") * 2.0 - two).abs() < 1e-6);
}

#[test]
fn the_bishop_pair_counts_once_per_side_with_two_bishops() {
    assert_eq!(feature("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", "pair.B"), 1.0);
    assert_eq!(feature("2b1kb2/8/8/8/8/8/8/2B1KB2 w - - 0 1", "pair.B"), 0.0);
    assert_eq!(feature("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", "pair.B"), 0.0);
}

#[test]
fn king_zone_attacks_count_squares_and_attackers() {
    // The queen on d1 bears on d7 and d8 next to the black king: two hits, one attacker.
    let fen = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";
    let hits = feature(fen, "king.attack");
    let attackers = feature(fen, "king.attackers2");
    assert!(hits > 0.0);
    assert!((hits - 2.0 * attackers).abs() < 1e-6, "hits {hits} attackers² {attackers}");
    // Away from the king's zone the terms vanish.
    assert_eq!(feature("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", "king.attack"), 0.0);
}

#[test]
fn a_passed_pawn_counts_its_progress_squared_its_blocker_and_the_king_race() {
    // d5 is passed: progress 4/7 on 8 ranks.
    let free = "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1";
    let p = 4.0f32 / 7.0;
    assert!((feature(free, "pawn.passed.rank2") - p * p).abs() < 1e-6);
    assert_eq!(feature(free, "pawn.passed.blocked"), 0.0);
    // A black pawn on c6 or e6 stops it being passed; a knight on d6 blocks it.
    assert_eq!(feature("4k3/8/4p3/3P4/8/8/8/4K3 w - - 0 1", "pawn.passed.rank2"), 0.0);
    let blocked = feature("4k3/8/3n4/3P4/8/8/8/4K3 w - - 0 1", "pawn.passed.blocked");
    assert!((blocked - p).abs() < 1e-6);
    // The race to d6: White's king on d5's neighbour e5 is 1 away, Black's on a8 is 3.
    // The term is endgame-weighted, so compare the bare-kings position's value sign only.
    let near = feature("k7/8/8/3PK3/8/8/8/8 w - - 0 1", "pawn.passed.king");
    let far = feature("3k4/8/8/3P4/8/8/8/K7 w - - 0 1", "pawn.passed.king");
    assert!(near > 0.0 && far < 0.0, "king race: own king near {near}, enemy king near {far}");
}

#[test]
fn pawns_defended_by_a_pawn_or_beside_one_count() {
    // d4 defended by c3; e4 beside d4 (and d4 beside e4); h2 alone.
    let fen = "4k3/8/8/8/3PP3/2P5/7P/4K3 w - - 0 1";
    assert_eq!(feature(fen, "pawn.supported"), 1.0);
    assert_eq!(feature(fen, "pawn.phalanx"), 2.0);
    // Black's view is mirrored and subtracted.
    let fen = "4k3/7p/2p5/3pp3/8/8/8/4K3 w - - 0 1";
    assert_eq!(feature(fen, "pawn.supported"), -1.0);
    assert_eq!(feature(fen, "pawn.phalanx"), -2.0);
}

#[test]
fn a_knight_on_an_outpost_counts_until_an_enemy_pawn_can_chase_it() {
    // Nd5 in Black's half, defended by e4, no black pawn on c- or e-files ahead.
    let fen = "4k3/8/8/3N4/4P3/8/8/4K3 w - - 0 1";
    assert_eq!(feature(fen, "outpost.N"), 1.0);
    // A black pawn on c7 could come to c6 and attack it.
    assert_eq!(feature("4k3/2p5/8/3N4/4P3/8/8/4K3 w - - 0 1", "outpost.N"), 0.0);
    // Undefended, or in its own half, it is no outpost.
    assert_eq!(feature("4k3/8/8/3N4/8/8/8/4K3 w - - 0 1", "outpost.N"), 0.0);
    assert_eq!(feature("4k3/8/8/8/3N4/4P3/8/4K3 w - - 0 1", "outpost.N"), 0.0);
    // Mirrored for Black.
    assert_eq!(feature("4k3/8/8/4p3/3n4/8/8/4K3 w - - 0 1", "outpost.N"), -1.0);
}

#[test]
fn rank_and_file_tables_count_from_each_side_and_mirror_the_files() {
    // A white knight on b1 stands on its own first rank and the second file from the edge;
    // a black knight on g8 stands on the same squares seen from Black's side.
    let fen = "4k1n1/8/8/8/8/8/8/1N2K3 w - - 0 1";
    assert_eq!(feature(fen, "pst.N.rank1"), 0.0);
    assert_eq!(feature(fen, "pst.N.file2"), 0.0);
    let fen = "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1";
    assert_eq!(feature(fen, "pst.N.rank1"), 1.0);
    assert_eq!(feature(fen, "pst.N.file2"), 1.0);
    assert_eq!(feature(fen, "pst.N.rank8"), 0.0);
    // A black knight on b1 is on Black's eighth rank; files mirror (b and g share a bucket).
    let fen = "4k3/8/8/8/8/8/8/1n2K3 w - - 0 1";
    assert_eq!(feature(fen, "pst.N.rank8"), -1.0);
    assert_eq!(feature(fen, "pst.N.file2"), -1.0);
    // The king's own tables: e1 is rank 1 and the fourth bucket (d and e).
    assert_eq!(feature(fen, "pst.K.rank1"), 0.0, "both kings on their first rank cancel");
    let kings = "8/8/4k3/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(feature(kings, "pst.K.rank1"), 1.0);
    assert_eq!(feature(kings, "pst.K.rank3"), -1.0, "e6 is Black's third rank");
    assert_eq!(feature(kings, "pst.K.file4"), 0.0);
}

#[test]
fn a_rank_weight_moves_the_evaluation_of_the_pieces_on_that_rank_only() {
    let v = Variant::load("chess", &[]).unwrap();
    let Variant::Narrow(r) = v else { panic!("chess is an 8x8 game") };
    let base: Evaluator = EngineConfig::for_variant("chess").unwrap().evaluator(r, &[]).unwrap();
    let mut raised = base.clone();
    for half in ["mg", "eg"] {
        let name = format!("pst.R.rank7.{half}");
        let old = raised.weight(&name).unwrap();
        raised.set_weight(&name, old + 40.0).unwrap();
    }
    let eval = |ev: &Evaluator, fen: &str| {
        let Board::Narrow(p) = v.parse_fen(fen).unwrap() else { panic!() };
        ev.evaluate(&p)
    };
    let on_seventh = "4k3/R7/8/8/8/8/8/4K3 w - - 0 1";
    let on_sixth = "4k3/8/R7/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(eval(&raised, on_seventh) - eval(&base, on_seventh), 40);
    assert_eq!(eval(&raised, on_sixth), eval(&base, on_sixth));
}

#[test]
fn mobility_leaves_out_squares_an_enemy_pawn_attacks() {
    assert_eq!(feature("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1", "mobility.N"), 8.0);
    // The pawn on e6 guards f5 (and d5, which the knight does not reach); taking it on e6
    // still counts.
    assert_eq!(feature("4k3/8/4p3/8/3N4/8/8/4K3 w - - 0 1", "mobility.N"), 7.0);
    // From e7 the pawn guards d6 and f6, none of the knight's squares.
    assert_eq!(feature("4k3/4p3/8/8/3N4/8/8/4K3 w - - 0 1", "mobility.N"), 8.0);
}

/// The search's evaluation (square terms read from a table built with the weights) equals
/// the weights applied to the feature vector the tuner reads, with every weight non-zero,
/// along random games of a narrow and a wide variant.
#[test]
fn the_evaluation_is_the_weighted_sum_of_its_features() {
    use fairylab::position::{MoveList, Position};
    use fairylab::rules::{Bits, Rules};
    fn check<B: Bits>(r: &'static Rules<B>, start: Position<B>) {
        let n = Evaluator::default_for(r).layout.len();
        let mut rng = fairylab::rng::Rng::new(7);
        let weights: Vec<f32> = (0..n).map(|_| rng.below(400) as f32 - 200.0).collect();
        let mut ev = Evaluator::new(r, weights.clone());
        // A weight changed afterwards reaches the table too.
        let name = ev.layout.names.iter().find(|s| s.starts_with("pst.") && s.contains("rank")).unwrap().clone();
        ev.set_weight(&name, 37.0).unwrap();
        let w = ev.weights().to_vec();
        // One pawn cache across all games: a hit must give what a fresh evaluation gives.
        let mut pawns = fairylab::eval::pawns::PawnCache::default();
        for game in 0..4 {
            let mut pos = start;
            for _ in 0..60 {
                let by_features: f32 = ev.features(&pos).iter().map(|&(i, v)| w[i as usize] * v).sum();
                let side = if pos.side() == 0 { 1.0 } else { -1.0 };
                let got = ev.evaluate(&pos) as f32;
                assert!((got - side * by_features).abs() <= 1.0, "game {game}: {got} vs {}", side * by_features);
                assert_eq!(
                    ev.evaluate_cached(&pos, &mut pawns),
                    got as i32,
                    "game {game}: the pawn cache changed the score"
                );
                let mut list = MoveList::new();
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                let m = list[rng.below(list.len())];
                pos.make(m);
            }
        }
    }
    for name in ["chess", "flying-bombers-grand"] {
        match (Variant::load(name, &[]).unwrap(), Variant::load(name, &[]).unwrap().start_position()) {
            (Variant::Narrow(r), Board::Narrow(p)) => check(r, p),
            (Variant::Wide(r), Board::Wide(p)) => check(r, p),
            _ => unreachable!(),
        }
    }
}

#[test]
fn safe_checks_count_squares_a_piece_could_check_from_that_no_enemy_guards() {
    // Ra1 can check from a8 (along the eighth rank); nothing guards a8.
    let free = feature("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "king.safe_checks");
    assert!(free > 0.0);
    // Two rooks and a black knight (same material, so the same phase): a8 and h8 are safe
    // with the knight on b3, only a8 with it on f7, where it guards h8.
    let both = feature("4k3/8/8/8/8/1n6/8/R3K2R w - - 0 1", "king.safe_checks");
    let one = feature("4k3/5n2/8/8/8/8/8/R3K2R w - - 0 1", "king.safe_checks");
    assert!(one > 0.0 && (both - 2.0 * one).abs() < 1e-5, "{both} vs {one}");
    // A knight on c7 guards a8.
    assert_eq!(feature("4k3/2n5/8/8/8/8/8/R3K3 w - - 0 1", "king.safe_checks"), 0.0);
}
