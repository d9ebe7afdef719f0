//! Bad input must give `Err`, never a panic (README §3 FEN rules, §4 moves).

mod common;

use common::*;
use fairylab::Variant;

const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const BLAND_START: &str = "rwrkwr/pppppp/6/5*/5*/6/PPPPPP/RWRKWR w - - 0 1 WW/WW";
const HANGARS_START: &str = "f******f/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/F******F w KQkq - 0 1";
const FBGC_START: &str = "frnbqkbnrf/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/FRNBQKBNRF w KQkq - 0 1";

/// The FEN must be rejected with `Err` (a panic fails the test too).
fn rejects(name: &str, options: &[&str], fen: &str) {
    let v = variant(name, options);
    assert!(v.parse_fen(fen).is_err(), "{name}: parse_fen({fen:?}) should be Err");
}

/// Sanity: the unmodified FEN of each family is accepted, so the rejections
/// below are caused by the single defect each one contains.
#[test]
fn fen_valid_baselines_are_accepted() {
    pos("chess", &[], CHESS_START);
    pos("bland-chess-46", &[], BLAND_START);
    pos("flying-bombers-hangars", &[], HANGARS_START);
    pos("flying-bombers-grand", &[], FBGC_START);
}

// README §1 variant names: an unknown variant name is an error.
#[test]
fn load_unknown_variant_is_err() {
    assert!(Variant::load("no-such-variant", &[]).is_err());
    assert!(Variant::load("", &[]).is_err());
}

// FBGC §6 option flags: an unknown option is an error.
#[test]
fn load_unknown_option_is_err() {
    assert!(Variant::load("flying-bombers-grand", &["no-such-option"]).is_err());
    assert!(Variant::load("chess", &["bogus"]).is_err());
}

// README §3: each row must describe exactly W cells.
#[test]
fn fen_wrong_row_length_is_err() {
    // 9 cells in rank 6
    rejects("chess", &[], "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    // 7 cells in rank 1
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1");
    // 9 pieces in rank 2
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPPP/RNBQKBNR w KQkq - 0 1");
    // only 7 rows
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    // 9 rows
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    // FBGC: 9 cells in an empty row
    rejects("flying-bombers-grand", &[], "frnbqkbnrf/pppppppppp/10/9/10/10/10/10/PPPPPPPPPP/FRNBQKBNRF w KQkq - 0 1");
    // FBGC: 11 cells
    rejects("flying-bombers-grand", &[], "frnbqkbnrf/pppppppppp/10/10/11/10/10/10/PPPPPPPPPP/FRNBQKBNRF w KQkq - 0 1");
    // Bland: 7 cells in rank 3
    rejects("bland-chess-46", &[], "rwrkwr/pppppp/6/5*/5*/7/PPPPPP/RWRKWR w - - 0 1 WW/WW");
}

// README §3: `*` must coincide exactly with the non-existent squares.
#[test]
fn fen_hole_marker_where_no_hole_is_err() {
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/3*4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    rejects("flying-bombers-grand", &[], "frnbqkbnrf/pppppppppp/10/10/4*5/10/10/10/PPPPPPPPPP/FRNBQKBNRF w KQkq - 0 1");
    // Bland: hole written on e4 instead of f4
    rejects("bland-chess-46", &[], "rwrkwr/pppppp/6/5*/4*1/6/PPPPPP/RWRKWR w - - 0 1 WW/WW");
    // Hangars: an extra hole on rank 1
    rejects(
        "flying-bombers-hangars",
        &[],
        "f******f/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN*/F******F w KQkq - 0 1",
    );
}

// README §3: a missing `*` where the board has a hole is an error.
#[test]
fn fen_missing_hole_marker_is_err() {
    // Bland: f5 written as an ordinary empty square
    rejects("bland-chess-46", &[], "rwrkwr/pppppp/6/6/5*/6/PPPPPP/RWRKWR w - - 0 1 WW/WW");
    // Bland: f4 written as an ordinary empty square
    rejects("bland-chess-46", &[], "rwrkwr/pppppp/6/5*/6/6/PPPPPP/RWRKWR w - - 0 1 WW/WW");
    // Hangars: b0–g0 written as empty squares
    rejects("flying-bombers-hangars", &[], "f******f/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/F6F w KQkq - 0 1");
    // Hangars: b9–g9 written as empty squares
    rejects("flying-bombers-hangars", &[], "f6f/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/F******F w KQkq - 0 1");
    // Hangars: only five `*` on rank 0
    rejects(
        "flying-bombers-hangars",
        &[],
        "f******f/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/F*****1F w KQkq - 0 1",
    );
}

// README §2: non-existent squares can never be occupied.
#[test]
fn fen_piece_on_missing_square_is_err() {
    // Bland: pawn on f4
    rejects("bland-chess-46", &[], "rwrkwr/pppppp/6/5*/5P/6/PPPPP1/RWRKWR w - - 0 1 WW/WW");
    // Bland: rook on f5
    rejects("bland-chess-46", &[], "rwrkw1/pppppp/6/5r/5*/6/PPPPPP/RWRKWR w - - 0 1 WW/WW");
    // Hangars: knight on b0
    rejects(
        "flying-bombers-hangars",
        &[],
        "f******f/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR/FN*****F w KQkq - 0 1",
    );
    // Hangars: pawn on d9
    rejects(
        "flying-bombers-hangars",
        &[],
        "f**p***f/rnbqkbnr/ppp1pppp/8/8/8/8/PPPPPPPP/RNBQKBNR/F******F w KQkq - 0 1",
    );
}

// README §6 legality model: check-based variants need exactly one king per side.
#[test]
fn fen_missing_or_extra_king_is_err() {
    rejects("chess", &[], "8/8/8/8/8/8/8/4K3 w - - 0 1");
    rejects("chess", &[], "4k3/8/8/8/8/8/8/8 w - - 0 1");
    rejects("chess", &[], "4k3/8/8/8/8/8/8/3KK3 w - - 0 1");
    rejects("chess", &[], "3kk3/8/8/8/8/8/8/4K3 w - - 0 1");
    rejects("flying-bombers-grand", &[], "10/10/10/10/10/10/10/10/10/5K4 w - - 0 1");
    rejects("noble-wings", &[], "4k3/8/8/8/8/8/8/2K1K3 w - - 0 1");
}

// README §3: side must be `w` or `b`.
#[test]
fn fen_bad_side_is_err() {
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1");
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1");
    rejects(
        "flying-bombers-grand",
        &[],
        "frnbqkbnrf/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/FRNBQKBNRF white KQkq - 0 1",
    );
}

// README §3: castling is a subset of `KQkq` or `-`.
#[test]
fn fen_bad_castling_letter_is_err() {
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1");
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Z - 0 1");
    rejects("flying-bombers-grand", &[], "frnbqkbnrf/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/FRNBQKBNRF w KQkqF - 0 1");
}

// README §3 / chess.md §2: an impossible e.p. square is an error.
#[test]
fn fen_impossible_en_passant_square_is_err() {
    // e5 can never be a passed square with White to move
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e5 0 1");
    // not a square of the board
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1");
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq j3 0 1");
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq xx 0 1");
}

// README §3 / §5: garbage, unknown piece letters, bad counters.
#[test]
fn fen_garbage_is_err() {
    rejects("chess", &[], "");
    rejects("chess", &[], "   ");
    rejects("chess", &[], "hello world");
    rejects("chess", &[], "rnbqkbnr/pppppppp");
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
    rejects("chess", &[], "////////// w - - 0 1");
    rejects("chess", &[], "\u{e9}\u{e9}\u{e9} w - - 0 1");
    // unknown piece letter
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1");
    // letters of other variants are not chess pieces
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/FNBQKBNR w KQkq - 0 1");
    rejects("noble-wings", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    // non-numeric counters
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1");
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 y");
    // Bland: setup field letters are W, N, M only (bland-chess-46.md §3.3)
    rejects("bland-chess-46", &[], "rwrkwr/pppppp/6/5*/5*/6/PPPPPP/RWRKWR w - - 0 1 WQ/WW");
}

// README §4: play() with an illegal or malformed move returns Err.
#[test]
fn play_illegal_move_is_err() {
    let b = variant("chess", &[]).start_position();
    for mv in ["e2e5", "e1e2", "e7e5", "e2e4q", "a1a3", "g1g3", "e2", "", "zz", "e2e4e4", "i2i4", "e0e1"] {
        assert!(b.play(mv).is_err(), "chess start: play({mv:?}) should be Err");
    }
    // the board is unchanged and still usable
    assert_eq!(b.side_to_move(), 'w');
    assert!(b.play("e2e4").is_ok());

    // FBGC: pawns move at most 3 squares; bombers never move diagonally.
    let f = variant("flying-bombers-grand", &[]).start_position();
    for mv in ["a2a6", "a1b2", "a1a2", "f1i1", "a2a3q", "a9a8"] {
        assert!(f.play(mv).is_err(), "FBGC start: play({mv:?}) should be Err");
    }

    // Bland: no double step.
    let bl = pos("bland-chess-46", &[], BLAND_START);
    assert!(bl.play("a2a4").is_err());

    // Noble WingS: the waiting-pawn form is illegal when a piece is available (W4).
    let n = pos("noble-wings", &[], "2e1k3/1P6/8/8/8/8/8/EOA1KAOE w - - 0 1");
    assert!(n.play("b7b8").is_err(), "W4: b7b8 without letter is illegal");
    assert!(n.play("b7b8e").is_err(), "W4: no Earl has been lost");
}
