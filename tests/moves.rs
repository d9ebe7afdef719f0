//! The typed library surface: colours, moves (squares, promotion, captures, UCI text) and
//! the capture flag the game record derives from them.

use fairylab::games::player::Choice;
use fairylab::games::{play_game, Adjudication, Player, PlayerError};
use fairylab::{Board, Color, Variant};

fn variant(name: &str) -> Variant {
    Variant::load(name, &[]).unwrap()
}

fn board(name: &str, fen: &str) -> Board {
    variant(name).parse_fen(fen).unwrap()
}

/// White pawn on a7 may promote on a8 (empty) or by taking the rook on b8.
const PROMOTION: &str = "1r5k/P7/8/8/8/8/8/K7 w - - 0 1";
/// Bomber diagram 1b (FBGC §7.1): Ff4-f8 overtakes f7, Ff4xh4 also takes g4, Ff4xd4 jumps e4.
const BOMBERS: &str = "8/5b2/8/8/3rPFpr/8/4k3/K4n2 w - - 0 1";

#[test]
fn side_to_move_is_a_colour_that_alternates() {
    let b = variant("chess").start_position();
    assert_eq!(b.side_to_move(), Color::White);
    let after = b.play("e2e4").unwrap();
    assert_eq!(after.side_to_move(), Color::Black);
    assert_eq!(after.side_to_move().to_string(), "b");
    assert_eq!(after.play("e7e5").unwrap().side_to_move(), Color::White);
}

#[test]
fn every_legal_move_round_trips_through_its_text() {
    for name in ["chess", "capablanca", "flying-bombers-grand", "bland-chess-46", "noble-wings"] {
        let mut b = variant(name).start_position();
        // A few plies in, so more kinds of move are on the board than at the start.
        for ply in 0..6 {
            let moves = b.legal_moves();
            for m in &moves {
                let text = m.to_string();
                assert_eq!(b.parse_move(&text).as_ref(), Ok(m), "{name}: {text}");
                assert_eq!(b.play(m).unwrap().fen(), b.play(&text).unwrap().fen(), "{name}: {text}");
                assert!(text.starts_with(&format!("{}{}", m.from(), m.to())), "{name}: {text}");
            }
            b = b.play(moves[(ply * 7) % moves.len()]).unwrap();
        }
    }
}

#[test]
fn bad_move_text_and_foreign_moves_are_errors() {
    let start = variant("chess").start_position();
    for text in ["", "e2", "e2e5", "e2e4q", "z9z9", "e7e5"] {
        assert!(start.parse_move(text).is_err(), "{text:?}");
        assert!(start.play(text).is_err(), "{text:?}");
    }
    // A typed move belongs to its position: e2e4 again after it was played is no move.
    let e4 = start.parse_move("e2e4").unwrap();
    let after = start.play(e4).unwrap();
    let err = after.play(e4).err().expect("e2e4 twice");
    assert!(matches!(&err, fairylab::Error::Position(m) if m.contains("e2e4") && m.contains("not legal")), "{err}");
    // Nor may a move travel to another variant, even where its squares exist.
    let capa = variant("capablanca").start_position();
    let capa_e4 = capa.parse_move("e2e4").unwrap();
    assert!(start.play(capa_e4).is_err());
}

#[test]
fn a_promotion_is_a_capture_only_when_it_takes() {
    let b = board("chess", PROMOTION);
    let quiet = b.parse_move("a7a8q").unwrap();
    assert_eq!(quiet.promotion(), Some('Q'));
    assert!(!quiet.is_capture());
    assert!(quiet.victims().is_empty());
    let taking = b.parse_move("a7b8n").unwrap();
    assert_eq!(taking.promotion(), Some('N'));
    assert!(taking.is_capture());
    assert_eq!(taking.victims().iter().map(|s| s.to_string()).collect::<Vec<_>>(), ["b8"]);
    let king = b.parse_move("a1a2").unwrap();
    assert!(!king.is_capture() && king.promotion().is_none());
}

#[test]
fn en_passant_takes_a_pawn_away_from_where_it_lands() {
    let b = board("chess", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    let ep = b.parse_move("e5d6").unwrap();
    assert!(ep.is_capture());
    assert_eq!(ep.to().to_string(), "d6");
    assert_eq!(ep.victims().iter().map(|s| s.to_string()).collect::<Vec<_>>(), ["d5"]);
}

#[test]
fn bomber_captures_name_their_victims() {
    let b = board("bomber-diagram", BOMBERS);
    let victims = |mv: &str| {
        let m = b.parse_move(mv).unwrap();
        let mut v: Vec<String> = m.victims().iter().map(|s| s.to_string()).collect();
        v.sort();
        (m.is_capture(), v)
    };
    assert_eq!(victims("f4f8"), (true, vec!["f7".to_string()]), "overtaking: lands past its victim");
    assert_eq!(victims("f4h4"), (true, vec!["g4".to_string(), "h4".to_string()]), "double capture");
    assert_eq!(victims("f4d4"), (true, vec!["d4".to_string()]), "jumps its own pawn, takes d4");
    assert_eq!(victims("f4f3"), (false, vec![]));
    // The victims are the squares the move empties of enemy pieces.
    for m in b.legal_moves() {
        let after = b.play(m).unwrap();
        for s in m.victims() {
            let left = after.piece_at(&s.to_string());
            assert!(left.is_none() || s == m.to(), "{m}: {s} still holds {left:?}");
        }
    }
}

#[test]
fn squares_print_two_digit_ranks() {
    let b = variant("flying-bombers-grand").start_position().play("e2e5").unwrap();
    let pawn = b.parse_move("e9e6").unwrap();
    assert_eq!((pawn.from().file(), pawn.from().rank(), pawn.to().rank()), (4, 9, 6));
    let back_rank: Vec<_> = b.legal_moves().into_iter().filter(|m| m.from().rank() == 10).collect();
    assert!(!back_rank.is_empty(), "knights leave rank 10");
    for m in back_rank {
        let file = (b'a' + m.from().file() as u8) as char;
        assert!(m.to_string().starts_with(&format!("{file}10")), "{m}");
    }
}

/// Plays the listed moves, then gives up (the game ends there as an engine failure).
struct Script(Vec<&'static str>);

impl Player for Script {
    fn name(&self) -> &str {
        "script"
    }
    fn new_game(&mut self) -> Result<(), PlayerError> {
        Ok(())
    }
    fn choose(&mut self, _: &Board, _: &[String], _: &Board, _: &[u64]) -> Result<Choice, PlayerError> {
        if self.0.is_empty() {
            return Err(PlayerError::Failure("script ended".into()));
        }
        Ok(Choice { mv: self.0.remove(0).to_string(), score_cp: None, depth: 0, nodes: 0 })
    }
}

fn capture_flags(name: &str, fen: &str, white: Vec<&'static str>, black: Vec<&'static str>) -> Vec<bool> {
    let start = board(name, fen);
    let record = play_game(&start, &mut Script(white), &mut Script(black), &Adjudication::default());
    record.samples.iter().map(|s| s.capture).collect()
}

#[test]
fn game_records_flag_captures_by_the_move_not_by_material() {
    // Promoting changes material on both counts; only taking the rook is a capture.
    assert_eq!(capture_flags("chess", PROMOTION, vec!["a7a8q"], vec!["h8h7"]), [false, false]);
    assert_eq!(capture_flags("chess", PROMOTION, vec!["a7b8q"], vec!["h8h7"]), [true, false]);
    // A bomber's double capture and a quiet bomber move.
    assert_eq!(capture_flags("bomber-diagram", BOMBERS, vec!["f4h4"], vec![]), [true]);
    assert_eq!(capture_flags("bomber-diagram", BOMBERS, vec!["f4f3"], vec![]), [false]);
}
