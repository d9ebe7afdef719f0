//! Properties over random playouts in every game: make/unmake restores position and hash,
//! the incremental hash equals the recomputed one, FEN round-trips, and the fast legality
//! filter agrees with the definition (make every move, test the king).

use fairylab::position::{MoveList, Position};
use fairylab::rng::Rng;
use fairylab::rules::Bits;
use fairylab::{Board, Variant};
use std::collections::BTreeSet;

fn names<B: Bits>(p: &Position<B>, list: &MoveList) -> BTreeSet<String> {
    list.iter().map(|&m| p.move_name(m)).collect()
}

fn check_node<B: Bits>(p: &mut Position<B>, ctx: &str) {
    assert!(p.is_consistent(), "{ctx}: inconsistent bitboards");
    assert_eq!(p.hash(), p.compute_hash(), "{ctx}: incremental hash differs from recomputed");
    let fen = p.fen();
    let again = Position::from_fen(p.rules, &fen).unwrap_or_else(|e| panic!("{ctx}: own FEN '{fen}' rejected: {e}"));
    assert_eq!(again.fen(), fen, "{ctx}: FEN round trip");
    assert_eq!(again.hash(), p.hash(), "{ctx}: hash after FEN round trip");

    let mut fast = MoveList::new();
    p.legal_moves(&mut fast);
    let mut slow = MoveList::new();
    p.legal_moves_by_definition(&mut slow);
    assert_eq!(names(p, &fast), names(p, &slow), "{ctx}: fast legality filter disagrees in {fen}");
    assert_eq!(fast.len(), names(p, &fast).len(), "{ctx}: duplicate moves in {fen}");
    assert_eq!(p.count_legal(), fast.len() as u64, "{ctx}: bulk count differs from the move list in {fen}");
    let mut noisy = MoveList::new();
    p.legal_noisy_moves(&mut noisy);
    let mut wanted = MoveList::new();
    for &m in fast.iter().filter(|m| m.is_capture() || m.promo().is_some()) {
        wanted.push(m);
    }
    assert_eq!(names(p, &noisy), names(p, &wanted), "{ctx}: captures and promotions differ in {fen}");
    assert_eq!(noisy.len(), wanted.len(), "{ctx}: noisy moves duplicated in {fen}");

    for &m in fast.iter() {
        let undo = p.make(m);
        assert!(p.is_consistent(), "{ctx}: inconsistent after {}", m.0);
        assert_eq!(p.hash(), p.compute_hash(), "{ctx}: hash after move {} from {fen}", m.0);
        p.unmake(m, &undo);
        assert_eq!(p.fen(), fen, "{ctx}: unmake did not restore the position");
        assert_eq!(p.hash(), again.hash(), "{ctx}: unmake did not restore the hash");
    }
}

fn playouts<B: Bits>(start: Position<B>, games: usize, plies: usize, seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let mut nodes = 0;
    for g in 0..games {
        let mut p = start;
        for ply in 0..plies {
            let ctx = format!("{} game {g} ply {ply}", p.rules.name);
            check_node(&mut p, &ctx);
            nodes += 1;
            if p.king_square(0).is_none() || p.king_square(1).is_none() {
                break;
            }
            let mut list = MoveList::new();
            p.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            let m = list[rng.below(list.len())];
            p.make(m);
        }
    }
    nodes
}

fn run(name: &str, options: &[&str]) {
    let v = Variant::load(name, options).unwrap();
    let nodes = match v.start_position() {
        Board::Narrow(p) => playouts(p, 30, 250, 7),
        Board::Wide(p) => playouts(p, 30, 250, 7),
    };
    assert!(nodes > 1000, "{name}: playouts too short ({nodes} nodes)");
}

#[test]
fn chess_playouts() {
    run("chess", &[]);
}
#[test]
fn capablanca_playouts() {
    run("capablanca", &[]);
}
#[test]
fn noble_wings_playouts() {
    run("noble-wings", &[]);
}
#[test]
fn bland_playouts() {
    run("bland-chess-46", &[]);
}
#[test]
fn hangars_playouts() {
    run("flying-bombers-hangars", &[]);
    run("flying-bombers-hangars", &["immediate-landing"]);
}
#[test]
fn grand_playouts() {
    run("flying-bombers-grand", &[]);
    run("flying-bombers-grand", &["immediate-landing"]);
    run("flying-bombers-grand", &["super-jump-knights"]);
}
#[test]
fn bomber_diagram_playouts() {
    run("bomber-diagram", &[]);
}
