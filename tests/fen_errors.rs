//! Bad input must give `Err`, never a panic (docs/rules/README.md: "README §3" FEN rules,
//! §4 moves; "FBGC §n" is docs/rules/flying-bombers-grand-chess.md), and a FEN is
//! refused for the right reason: each case names the kind of error it must give.

mod common;

use common::*;
use fairylab::{FenError, Variant, VariantError};

const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const BLAND_START: &str = "rwrkwr/pppppp/6/5*/5*/6/PPPPPP/RWRKWR w - - 0 1 WW/WW";
const HANGARS_START: &str = "f******f/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/F******F w KQkq - 0 1";
const FBGC_START: &str = "frnbqkbnrf/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/FRNBQKBNRF w KQkq - 0 1";

/// The kind of a FEN error, by name.
fn kind(e: &FenError) -> &'static str {
    match e {
        FenError::Fields(_) => "Fields",
        FenError::Board(_) => "Board",
        FenError::Royals(_) => "Royals",
        FenError::Turn(_) => "Turn",
        FenError::Castling(_) => "Castling",
        FenError::EnPassant(_) => "EnPassant",
        FenError::Counters(_) => "Counters",
        FenError::Setup(_) => "Setup",
        FenError::OppositeCheck => "OppositeCheck",
        FenError::TooManyMoves { .. } => "TooManyMoves",
    }
}

/// The FEN must be rejected with an error of kind `want` (a panic fails the test too).
fn rejects(name: &str, options: &[&str], fen: &str, want: &str) {
    let v = variant(name, options);
    match v.parse_fen(fen) {
        Ok(_) => panic!("{name}: parse_fen({fen:?}) should be Err({want})"),
        Err(e) => assert_eq!(kind(&e), want, "{name}: parse_fen({fen:?}): {e}"),
    }
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
    assert!(matches!(Variant::load("no-such-variant", &[]), Err(VariantError::Unknown { .. })));
    assert!(matches!(Variant::load("", &[]), Err(VariantError::Unknown { .. })));
    assert!(matches!(Variant::load("/nonexistent/v.toml", &[]), Err(VariantError::Unreadable { .. })));
    assert!(matches!(Variant::from_toml("name = 3", &[]), Err(VariantError::Invalid(_))));
}

// FBGC §6 option flags: an unknown option is an error.
#[test]
fn load_unknown_option_is_err() {
    let unknown = |v, o| matches!(Variant::load(v, &[o]), Err(VariantError::UnknownOption { .. }));
    assert!(unknown("flying-bombers-grand", "no-such-option"));
    assert!(unknown("chess", "bogus"));
}

// README §3: each row must describe exactly W cells.
#[test]
fn fen_wrong_row_length_is_err() {
    // 9 cells in rank 6
    rejects("chess", &[], "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "Board");
    // 7 cells in rank 1
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "Board");
    // 9 pieces in rank 2
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPPP/RNBQKBNR w KQkq - 0 1", "Board");
    // only 7 rows
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "Board");
    // 9 rows
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "Board");
    // FBGC: 9 cells in an empty row
    rejects(
        "flying-bombers-grand",
        &[],
        "frnbqkbnrf/pppppppppp/10/9/10/10/10/10/PPPPPPPPPP/FRNBQKBNRF w KQkq - 0 1",
        "Board",
    );
    // FBGC: 11 cells
    rejects(
        "flying-bombers-grand",
        &[],
        "frnbqkbnrf/pppppppppp/10/10/11/10/10/10/PPPPPPPPPP/FRNBQKBNRF w KQkq - 0 1",
        "Board",
    );
    // Bland: 7 cells in rank 3
    rejects("bland-chess-46", &[], "rwrkwr/pppppp/6/5*/5*/7/PPPPPP/RWRKWR w - - 0 1 WW/WW", "Board");
}

// README §3: `*` must coincide exactly with the non-existent squares.
#[test]
fn fen_hole_marker_where_no_hole_is_err() {
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/3*4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "Board");
    rejects(
        "flying-bombers-grand",
        &[],
        "frnbqkbnrf/pppppppppp/10/10/4*5/10/10/10/PPPPPPPPPP/FRNBQKBNRF w KQkq - 0 1",
        "Board",
    );
    // Bland: hole written on e4 instead of f4
    rejects("bland-chess-46", &[], "rwrkwr/pppppp/6/5*/4*1/6/PPPPPP/RWRKWR w - - 0 1 WW/WW", "Board");
    // Hangars: an extra hole on rank 1
    rejects(
        "flying-bombers-hangars",
        &[],
        "f******f/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN*/F******F w KQkq - 0 1",
        "Board",
    );
}

// README §3: a missing `*` where the board has a hole is an error.
#[test]
fn fen_missing_hole_marker_is_err() {
    // Bland: f5 written as an ordinary empty square
    rejects("bland-chess-46", &[], "rwrkwr/pppppp/6/6/5*/6/PPPPPP/RWRKWR w - - 0 1 WW/WW", "Board");
    // Bland: f4 written as an ordinary empty square
    rejects("bland-chess-46", &[], "rwrkwr/pppppp/6/5*/6/6/PPPPPP/RWRKWR w - - 0 1 WW/WW", "Board");
    // Hangars: b0–g0 written as empty squares
    rejects(
        "flying-bombers-hangars",
        &[],
        "f******f/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/F6F w KQkq - 0 1",
        "Board",
    );
    // Hangars: b9–g9 written as empty squares
    rejects(
        "flying-bombers-hangars",
        &[],
        "f6f/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/F******F w KQkq - 0 1",
        "Board",
    );
    // Hangars: only five `*` on rank 0
    rejects(
        "flying-bombers-hangars",
        &[],
        "f******f/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/F*****1F w KQkq - 0 1",
        "Board",
    );
}

// README §2: non-existent squares can never be occupied.
#[test]
fn fen_piece_on_missing_square_is_err() {
    // Bland: pawn on f4
    rejects("bland-chess-46", &[], "rwrkwr/pppppp/6/5*/5P/6/PPPPP1/RWRKWR w - - 0 1 WW/WW", "Board");
    // Bland: rook on f5
    rejects("bland-chess-46", &[], "rwrkw1/pppppp/6/5r/5*/6/PPPPPP/RWRKWR w - - 0 1 WW/WW", "Board");
    // Hangars: knight on b0
    rejects(
        "flying-bombers-hangars",
        &[],
        "f******f/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR/FN*****F w KQkq - 0 1",
        "Board",
    );
    // Hangars: pawn on d9
    rejects(
        "flying-bombers-hangars",
        &[],
        "f**p***f/rnbqkbnr/ppp1pppp/8/8/8/8/PPPPPPPP/RNBQKBNR/F******F w KQkq - 0 1",
        "Board",
    );
}

// README §6 legality model: check-based variants need exactly one king per side.
#[test]
fn fen_missing_or_extra_king_is_err() {
    rejects("chess", &[], "8/8/8/8/8/8/8/4K3 w - - 0 1", "Royals");
    rejects("chess", &[], "4k3/8/8/8/8/8/8/8 w - - 0 1", "Royals");
    rejects("chess", &[], "4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "Royals");
    rejects("chess", &[], "3kk3/8/8/8/8/8/8/4K3 w - - 0 1", "Royals");
    rejects("flying-bombers-grand", &[], "10/10/10/10/10/10/10/10/10/5K4 w - - 0 1", "Royals");
    rejects("noble-wings", &[], "4k3/8/8/8/8/8/8/2K1K3 w - - 0 1", "Royals");
}

// README §3: side must be `w` or `b`.
#[test]
fn fen_bad_side_is_err() {
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "Turn");
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1", "Turn");
    rejects(
        "flying-bombers-grand",
        &[],
        "frnbqkbnrf/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/FRNBQKBNRF white KQkq - 0 1",
        "Turn",
    );
}

// README §3: castling is a subset of `KQkq` or `-`.
#[test]
fn fen_bad_castling_letter_is_err() {
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", "Castling");
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Z - 0 1", "Castling");
    rejects(
        "flying-bombers-grand",
        &[],
        "frnbqkbnrf/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/FRNBQKBNRF w KQkqF - 0 1",
        "Castling",
    );
}

// README §3 / chess.md §2: an impossible e.p. square is an error.
#[test]
fn fen_impossible_en_passant_square_is_err() {
    // e5 can never be a passed square with White to move
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e5 0 1", "EnPassant");
    // not a square of the board
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "EnPassant");
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq j3 0 1", "EnPassant");
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq xx 0 1", "EnPassant");
}

// README §3 / §5: garbage, unknown piece letters, bad counters.
#[test]
fn fen_garbage_is_err() {
    rejects("chess", &[], "", "Fields");
    rejects("chess", &[], "   ", "Fields");
    rejects("chess", &[], "hello world", "Board");
    rejects("chess", &[], "rnbqkbnr/pppppppp", "Fields");
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "Fields");
    rejects("chess", &[], "////////// w - - 0 1", "Board");
    rejects("chess", &[], "\u{e9}\u{e9}\u{e9} w - - 0 1", "Board");
    // unknown piece letter
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1", "Board");
    // letters of other variants are not chess pieces
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/FNBQKBNR w KQkq - 0 1", "Board");
    rejects("noble-wings", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "Board");
    // non-numeric counters
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "Counters");
    rejects("chess", &[], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 y", "Counters");
    // Bland: setup field letters are W, N, M only (bland-chess-46.md §3.3)
    rejects("bland-chess-46", &[], "rwrkwr/pppppp/6/5*/5*/6/PPPPPP/RWRKWR w - - 0 1 WQ/WW", "Setup");
}

// A position whose side not to move is in check cannot arise where checkmate wins (the
// last move left its own king attacked); where taking the king wins, it can.
#[test]
fn fen_side_not_to_move_in_check() {
    rejects("chess", &[], "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1", "OppositeCheck");
    rejects("chess", &[], "4k3/8/8/8/8/8/4r3/4K3 b - - 0 1", "OppositeCheck");
    rejects("flying-bombers-grand", &[], "4k5/10/10/10/10/10/10/10/10/4K4r b - - 0 1", "OppositeCheck");
    // The side to move may be in check, of course.
    pos("chess", &[], "4k3/4Q3/8/8/8/8/8/4K3 b - - 0 1");
    // Bland Chess 46 is won by taking the Wazir king.
    pos("bland-chess-46", &[], "rwrkwr/pppppp/6/5*/5*/6/PPPrPP/RWRKWR b - - 0 1 WW/WW");
}

// A move list holds 1,024 moves: a position whose pieces could have more is refused, and
// so is a variant starting from one, instead of dropping moves without a word.
#[test]
fn positions_that_could_overflow_the_move_list_are_refused() {
    let queens = "QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/8/8/k6K b - - 0 1";
    rejects("chess", &[], queens, "TooManyMoves");
    let v = variant("chess", &[]);
    // Every shipped variant loads, and its bound is one: at least the moves it has.
    for name in fairylab::variant::registry::names() {
        let b = variant(&name, &[]).start_position();
        assert!(b.move_bound() as usize >= b.legal_moves().len(), "{name}: bound {}", b.move_bound());
    }
    let crowded_middle = "r3k2r/pppq1ppp/2n1bn2/3pp3/2BPP1b1/2N1BN2/PPPQ1PPP/R3K2R w KQkq - 0 1";
    assert!(v.parse_fen(crowded_middle).unwrap().move_bound() >= 218, "the most moves a chess position has");
    let chess = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/configs/variants/chess.toml")).unwrap();
    let start = chess.lines().find(|l| l.starts_with("start = ")).unwrap();
    let crowded = chess.replace(start, &format!("start = \"{queens}\""));
    let e = Variant::from_toml(&crowded, &[]).unwrap_err();
    assert!(matches!(e, VariantError::StartPosition { error: FenError::TooManyMoves { .. }, .. }), "{e}");
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

// A variant file's published figures are checked when it loads: a score that is not a
// fraction, a value that is not a positive number of pawns, or a piece the variant lacks
// is refused with the source named, and chess ships its figures.
#[test]
fn published_figures_are_checked_at_load() {
    let chess = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/configs/variants/chess.toml")).unwrap();
    let p = variant("chess", &[]).published();
    assert!(p.balance.iter().any(|b| b.white_score > 0.5), "chess lists a first-move advantage");
    assert!(p.values.iter().all(|v| v.pieces.contains_key("Q")));
    for (from, to, want) in [
        ("white_score = 0.543", "white_score = 54.3", "must be a fraction"),
        ("Q = 9.75", "Q = -9.75", "positive number of pawns"),
        ("Q = 9.75", "Z = 9.75", "unknown piece letter 'Z'"),
    ] {
        assert!(chess.contains(from), "{from}");
        let e = Variant::from_toml(&chess.replace(from, to), &[]).unwrap_err().to_string();
        assert!(e.contains(want), "{to}: {e}");
        assert!(e.contains("published"), "{to}: {e}");
    }
}

/// A variant with double steps and no en passant: the position after a double step
/// records no passed square, so its FEN (which the regression's games are read back from)
/// parses, and it hashes as the same position read from that FEN.
#[test]
fn a_double_step_without_en_passant_leaves_no_passed_square() {
    let toml = std::fs::read_to_string("configs/variants/chess.toml")
        .unwrap()
        .replace("en_passant = true", "en_passant = false");
    let v = Variant::from_toml(&toml, &[]).unwrap();
    let after = v.start_position().play("e2e4").unwrap();
    assert_eq!(after.fen().split_whitespace().nth(3), Some("-"), "{}", after.fen());
    let read = v.parse_fen(&after.fen()).unwrap();
    assert_eq!(read.hash(), after.hash(), "{}", after.fen());
    // With en passant the square is kept, as before.
    let chess = Variant::load("chess", &[]).unwrap();
    assert_eq!(chess.start_position().play("e2e4").unwrap().fen().split_whitespace().nth(3), Some("e3"));
}
