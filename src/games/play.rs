//! One game under the variant's rules plus adjudication; the record keeps what the piece
//! value and tuning tools need (every position's FEN, the mover's score, the result).

use super::player::{Player, PlayerError};
use crate::position::outcome::{Termination, Verdict};
use crate::{Board, Color};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    WhiteWins,
    Draw,
    BlackWins,
}

impl Outcome {
    /// Score for White: 1, 0.5, 0.
    pub fn white_score(self) -> f64 {
        match self {
            Outcome::WhiteWins => 1.0,
            Outcome::Draw => 0.5,
            Outcome::BlackWins => 0.0,
        }
    }

    pub fn pgn(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::Draw => "1/2-1/2",
            Outcome::BlackWins => "0-1",
        }
    }

    pub fn parse(s: &str) -> Option<Outcome> {
        match s {
            "1-0" => Some(Outcome::WhiteWins),
            "1/2-1/2" => Some(Outcome::Draw),
            "0-1" => Some(Outcome::BlackWins),
            _ => None,
        }
    }

    fn for_mover(white_to_move: bool, v: Verdict) -> Outcome {
        match (v, white_to_move) {
            (Verdict::Draw, _) => Outcome::Draw,
            (Verdict::Win, true) | (Verdict::Loss, false) => Outcome::WhiteWins,
            _ => Outcome::BlackWins,
        }
    }
}

/// Draw and resign adjudication by the engines' scores (0 = off).
#[derive(Clone, Debug, Default)]
pub struct Adjudication {
    /// Draw when both sides' scores stay within `draw_score` cp for `draw_moves` moves each,
    /// from move `draw_start` on.
    pub draw_start: u32,
    pub draw_moves: u32,
    pub draw_score: i32,
    /// Resign when a side's score stays below -`resign_score` for `resign_moves` moves
    /// (and the opponent agrees).
    pub resign_moves: u32,
    pub resign_score: i32,
}

/// A position the game passed through.
#[derive(Clone, Debug)]
pub struct Sample {
    pub ply: u32,
    pub fen: String,
    /// The mover's engine score from White's view, if the mover reported one.
    pub score_white: Option<i32>,
    /// The move played from this position removed a piece.
    pub capture: bool,
}

#[derive(Clone, Debug)]
pub struct GameRecord {
    pub start_fen: String,
    pub moves: Vec<String>,
    pub outcome: Outcome,
    pub termination: Termination,
    pub samples: Vec<Sample>,
    pub final_fen: String,
    pub final_material: [String; 2],
}

/// Plays one game from `start`; `white` and `black` move in turn.
pub fn play_game(start: &Board, white: &mut dyn Player, black: &mut dyn Player, adj: &Adjudication) -> GameRecord {
    let mut board = *start;
    let mut history: Vec<u64> = Vec::new();
    let mut moves: Vec<String> = Vec::new();
    let mut samples = Vec::new();
    let (repetitions, ply_cap) = board.draw_limits();
    let _ = white.new_game();
    let _ = black.new_game();
    let mut draw_run = 0u32;
    let mut resign_run = [0u32; 2];
    let finish = |board: &Board, moves: Vec<String>, samples: Vec<Sample>, outcome, termination| GameRecord {
        start_fen: start.fen(),
        moves,
        outcome,
        termination,
        samples,
        final_fen: board.fen(),
        final_material: [board.material(0), board.material(1)],
    };
    loop {
        let white_to_move = board.side_to_move() == Color::White;
        if let Some((v, t)) = board.terminal() {
            return finish(&board, moves, samples, Outcome::for_mover(white_to_move, v), t);
        }
        let h = board.hash();
        if repetitions > 0 && history.iter().filter(|&&x| x == h).count() as u32 + 1 >= repetitions {
            return finish(&board, moves, samples, Outcome::Draw, Termination::Repetition);
        }
        if ply_cap > 0 && moves.len() as u32 >= ply_cap {
            return finish(&board, moves, samples, Outcome::Draw, Termination::PlyCap);
        }
        let player: &mut dyn Player = if white_to_move { &mut *white } else { &mut *black };
        let loss = if white_to_move { Outcome::BlackWins } else { Outcome::WhiteWins };
        let choice = match player.choose(start, &moves, &board, &history) {
            Ok(c) => c,
            Err(PlayerError::Timeout(_)) => return finish(&board, moves, samples, loss, Termination::Timeout),
            Err(PlayerError::Failure(_)) => return finish(&board, moves, samples, loss, Termination::EngineFailure),
        };
        let Ok((mv, next)) = board.parse_move(&choice.mv).and_then(|m| Ok((m, board.play(m)?))) else {
            return finish(&board, moves, samples, loss, Termination::IllegalMove);
        };
        let score_white = choice.score_cp.map(|s| if white_to_move { s } else { -s });
        let capture = mv.is_capture();
        samples.push(Sample { ply: moves.len() as u32, fen: board.fen(), score_white, capture });

        // Adjudication by reported scores.
        if let Some(s) = choice.score_cp {
            let side = if white_to_move { 0 } else { 1 };
            if adj.resign_moves > 0 {
                if s <= -adj.resign_score {
                    resign_run[side] += 1;
                } else {
                    resign_run[side] = 0;
                }
                if resign_run[side] >= adj.resign_moves {
                    return finish(&board, moves, samples, loss, Termination::Resignation);
                }
            }
            if adj.draw_moves > 0 && moves.len() as u32 / 2 + 1 >= adj.draw_start {
                if s.abs() <= adj.draw_score {
                    draw_run += 1;
                } else {
                    draw_run = 0;
                }
                if draw_run >= 2 * adj.draw_moves {
                    moves.push(choice.mv);
                    return finish(&next, moves, samples, Outcome::Draw, Termination::Adjudication);
                }
            }
        }
        history.push(h);
        moves.push(choice.mv);
        board = next;
    }
}
