//! Shared helpers for the rules-specification integration tests.
//!
//! Spec: docs/rules/ (README.md §4 defines the machine move form:
//! `<from><to>[promotion letter]`, squares are a file letter followed by a
//! decimal rank that may have two digits, e.g. `f10`, `a0`).
#![allow(dead_code)]

use fairylab::{Board, Variant};
use std::collections::BTreeSet;

/// Loads a variant or panics with a readable message.
pub fn variant(name: &str, options: &[&str]) -> Variant {
    Variant::load(name, options).unwrap_or_else(|e| panic!("Variant::load({name:?}, {options:?}) failed: {e:?}"))
}

/// Parses a position of the given variant or panics with a readable message.
pub fn pos(name: &str, options: &[&str], fen: &str) -> Board {
    variant(name, options)
        .parse_fen(fen)
        .unwrap_or_else(|e| panic!("{name} {options:?}: parse_fen({fen:?}) failed: {e:?}"))
}

/// Completes a "board + side" string with the castling-free tail ` - - 0 1`
/// (convention of the FBGC §7.4 table).
pub fn fen4(board_and_side: &str) -> String {
    format!("{board_and_side} - - 0 1")
}

/// Splits a machine-form move into (from, to, promotion letter).
/// A square is one lower-case file letter followed by one or more digits.
/// Returns `None` if the string is not a well-formed machine move.
pub fn split_move(mv: &str) -> Option<(String, String, Option<char>)> {
    fn square(chars: &[char], i: &mut usize) -> Option<String> {
        let start = *i;
        if *i < chars.len() && chars[*i].is_ascii_lowercase() {
            *i += 1;
        } else {
            return None;
        }
        let digits = *i;
        while *i < chars.len() && chars[*i].is_ascii_digit() {
            *i += 1;
        }
        if *i == digits {
            return None;
        }
        Some(chars[start..*i].iter().collect())
    }
    let chars: Vec<char> = mv.chars().collect();
    let mut i = 0;
    let from = square(&chars, &mut i)?;
    let to = square(&chars, &mut i)?;
    let promo = match chars.get(i) {
        None => None,
        Some(c) if c.is_ascii_lowercase() && i + 1 == chars.len() => Some(*c),
        _ => return None,
    };
    Some((from, to, promo))
}

/// From-square of a machine-form move (panics on a malformed move).
pub fn from_square(mv: &str) -> String {
    split_move(mv).unwrap_or_else(|| panic!("malformed machine move {mv:?}")).0
}

/// Builds a set from a literal list, rejecting duplicates in the test data.
pub fn set_of(list: &[&str]) -> BTreeSet<String> {
    let set: BTreeSet<String> = list.iter().map(|s| s.to_string()).collect();
    assert_eq!(set.len(), list.len(), "duplicate entries in expected list {list:?}");
    for m in list {
        assert!(split_move(m).is_some(), "test data: malformed move {m:?}");
    }
    set
}

/// All legal moves as a set. Also checks that the generator returns each move
/// once and only well-formed machine moves.
pub fn moves_of(b: &Board) -> BTreeSet<String> {
    let list: Vec<String> = b.legal_moves().iter().map(|m| m.to_string()).collect();
    for (m, text) in b.legal_moves().iter().zip(&list) {
        let parts = split_move(text);
        assert!(parts.is_some(), "legal_moves() returned a malformed move {m:?}");
        // The typed fields and the UCI text describe the same move.
        let typed = (m.from().to_string(), m.to().to_string(), m.promotion().map(|p| p.to_ascii_lowercase()));
        assert_eq!(parts, Some(typed), "{m:?}: typed fields disagree with the text");
    }
    let set: BTreeSet<String> = list.iter().cloned().collect();
    assert_eq!(set.len(), list.len(), "legal_moves() returned duplicates: {list:?}");
    set
}

/// Legal moves that start on `square` (exact square match, so `f1` does not
/// match `f10`).
pub fn moves_from(b: &Board, square: &str) -> BTreeSet<String> {
    moves_of(b).into_iter().filter(|m| from_square(m) == square).collect()
}

/// Compares two move sets and panics with a missing / unexpected diff.
pub fn assert_set_eq(actual: &BTreeSet<String>, expected: &BTreeSet<String>, what: &str) {
    if actual == expected {
        return;
    }
    let missing: Vec<&String> = expected.difference(actual).collect();
    let unexpected: Vec<&String> = actual.difference(expected).collect();
    panic!(
        "{what}: move sets differ\n  expected ({}): {:?}\n  actual   ({}): {:?}\n  missing:    {:?}\n  unexpected: {:?}",
        expected.len(),
        expected,
        actual.len(),
        actual,
        missing,
        unexpected
    );
}

/// The exact set of legal moves.
pub fn assert_moves(b: &Board, expected: &[&str], what: &str) {
    assert_set_eq(&moves_of(b), &set_of(expected), what);
}

/// The exact set of legal moves starting on `square`.
pub fn assert_moves_from(b: &Board, square: &str, expected: &[&str], what: &str) {
    for m in expected {
        assert_eq!(from_square(m), square, "test data: {m:?} does not start on {square}");
    }
    assert_set_eq(&moves_from(b, square), &set_of(expected), &format!("{what} (moves from {square})"));
}

/// The number of legal moves.
pub fn assert_legal_count(b: &Board, expected: usize, what: &str) {
    let moves = moves_of(b);
    assert_eq!(moves.len(), expected, "{what}: expected {expected} legal moves, got {}: {:?}", moves.len(), moves);
}

/// Every listed move is legal.
pub fn assert_has_moves(b: &Board, wanted: &[&str], what: &str) {
    let moves = moves_of(b);
    let missing: Vec<&&str> = wanted.iter().filter(|m| !moves.contains(**m)).collect();
    assert!(missing.is_empty(), "{what}: missing legal moves {missing:?}; legal moves are {moves:?}");
}

/// No listed move is legal.
pub fn assert_lacks_moves(b: &Board, unwanted: &[&str], what: &str) {
    let moves = moves_of(b);
    let present: Vec<&&str> = unwanted.iter().filter(|m| moves.contains(**m)).collect();
    assert!(present.is_empty(), "{what}: moves {present:?} must not be legal; legal moves are {moves:?}");
}

/// Plays a move that must be legal.
pub fn play(b: &Board, mv: &str) -> Board {
    b.play(mv).unwrap_or_else(|e| panic!("play({mv:?}) failed: {e:?}; legal moves: {:?}", moves_of(b)))
}

/// Plays a sequence of moves that must all be legal.
pub fn play_line(b: &Board, line: &[&str]) -> Board {
    let mut cur = *b;
    for mv in line {
        cur = play(&cur, mv);
    }
    cur
}

/// Field `index` (0-based, whitespace separated) of the board's FEN.
pub fn fen_field(b: &Board, index: usize) -> String {
    let fen = b.fen();
    fen.split_whitespace().nth(index).unwrap_or_else(|| panic!("FEN {fen:?} has no field {index}")).to_string()
}

/// Side to move is in check and has no legal move.
pub fn assert_checkmate(b: &Board, what: &str) {
    assert!(b.in_check(), "{what}: side to move should be in check");
    assert_legal_count(b, 0, what);
}

/// Side to move is not in check and has no legal move.
pub fn assert_stalemate(b: &Board, what: &str) {
    assert!(!b.in_check(), "{what}: side to move should not be in check");
    assert_legal_count(b, 0, what);
}
