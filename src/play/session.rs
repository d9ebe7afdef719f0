//! One game between a person and the engine: the moves, the engine's score after each of
//! its moves, the end by the variant's own rules (mate, repetition, move cap).

use super::PlayError;
use crate::diagram::live::{self, Frame};
use crate::engine::Engine;
use crate::games::pgn::{write_game, PgnGameOut};
use crate::games::replay::{replay, Ply};
use crate::games::{EnginePlayer, Outcome, Player};
use crate::position::outcome::{Termination, Verdict};
use crate::search::Limits;
use crate::{Board, Color, Variant};
use serde::Serialize;

pub struct Session {
    variant: Variant,
    options: Vec<String>,
    nodes: u64,
    engine: EnginePlayer,
    /// The side the person plays.
    human: Color,
    start: Board,
    board: Board,
    moves: Vec<String>,
    /// Hashes of the positions before each move (for repetitions).
    history: Vec<u64>,
    /// The engine's score after each of its moves, White's view (None after the person's).
    scores: Vec<Option<i32>>,
    end: Option<(Outcome, Termination)>,
}

/// A legal move as the page offers it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Offer {
    pub m: String,
    pub f: String,
    pub t: String,
    /// What else the move removes, for captures off the landing square ("takes e5 and e6").
    #[serde(skip_serializing_if = "String::is_empty")]
    pub n: String,
}

/// What the page shows: the board, whose turn, the person's legal moves, the moves so far,
/// the engine's last score and the result.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct State {
    pub variant: String,
    pub title: String,
    pub frame: Frame,
    pub human: String,
    pub to_move: String,
    pub legal: Vec<Offer>,
    pub moves: Vec<String>,
    pub scores: Vec<Option<i32>>,
    pub result: Option<String>,
    pub termination: Option<String>,
    pub nodes: u64,
}

impl Session {
    /// A new game with the person on `human`'s side; the engine moves first when it has White.
    pub fn new(variant: Variant, options: &[String], nodes: u64, human: Color) -> Result<Session, PlayError> {
        let engine = Engine::default_for(variant).map_err(|e| PlayError::Engine(e.to_string()))?;
        let start = variant.start_position();
        let mut s = Session {
            variant,
            options: options.to_vec(),
            nodes,
            engine: EnginePlayer::new("fairylab", engine, Limits::nodes(nodes), None),
            human,
            start,
            board: start,
            moves: vec![],
            history: vec![],
            scores: vec![],
            end: None,
        };
        s.engine.new_game().map_err(|e| PlayError::Engine(format!("{e:?}")))?;
        s.check_end();
        s.engine_turn()?;
        Ok(s)
    }

    /// The same game settings from the start position again, the person on `human`'s side.
    pub fn restart(&mut self, human: Color) -> Result<(), PlayError> {
        *self = Session::new(self.variant, &self.options, self.nodes, human)?;
        Ok(())
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// Plays the person's move, then the engine's reply.
    pub fn play(&mut self, text: &str) -> Result<(), PlayError> {
        if self.end.is_some() {
            return Err(PlayError::GameOver);
        }
        if self.board.side_to_move() != self.human {
            return Err(PlayError::NotYourTurn);
        }
        let illegal = || PlayError::IllegalMove { text: text.to_string(), fen: self.board.fen() };
        let mv = self.board.parse_move(text).map_err(|_| illegal())?;
        let next = self.board.play(mv).map_err(|_| illegal())?;
        self.advance(mv.to_string(), next, None);
        self.engine_turn()
    }

    fn advance(&mut self, text: String, next: Board, score: Option<i32>) {
        self.history.push(self.board.hash());
        self.moves.push(text);
        self.scores.push(score);
        self.board = next;
        self.check_end();
    }

    /// The engine moves while it is its turn and the game goes on.
    fn engine_turn(&mut self) -> Result<(), PlayError> {
        while self.end.is_none() && self.board.side_to_move() != self.human {
            let choice = self
                .engine
                .choose(&self.start, &self.moves, &self.board, &self.history)
                .map_err(|e| PlayError::Engine(format!("{e:?}")))?;
            let next = self.board.play(choice.mv.as_str()).map_err(|e| PlayError::Engine(e.to_string()))?;
            let white = self.board.side_to_move() == Color::White;
            let score = choice.score_cp.map(|s| if white { s } else { -s });
            self.advance(choice.mv, next, score);
        }
        Ok(())
    }

    /// The end by the rules, as self-play ends games: mate or another terminal position,
    /// the variant's repetition count, its move cap.
    fn check_end(&mut self) {
        let white = self.board.side_to_move() == Color::White;
        if let Some((v, t)) = self.board.terminal() {
            let o = match (v, white) {
                (Verdict::Draw, _) => Outcome::Draw,
                (Verdict::Win, true) | (Verdict::Loss, false) => Outcome::WhiteWins,
                _ => Outcome::BlackWins,
            };
            self.end = Some((o, t));
            return;
        }
        let (repetitions, ply_cap) = self.board.draw_limits();
        let h = self.board.hash();
        if repetitions > 0 && self.history.iter().filter(|&&x| x == h).count() as u32 + 1 >= repetitions {
            self.end = Some((Outcome::Draw, Termination::Repetition));
        } else if ply_cap > 0 && self.moves.len() as u32 >= ply_cap {
            self.end = Some((Outcome::Draw, Termination::PlyCap));
        }
    }

    fn plies(&self) -> Vec<Ply> {
        // The moves were checked as they were played, so they replay.
        replay(&self.start, &self.moves).unwrap_or_default()
    }

    pub fn state(&self) -> State {
        let plies = self.plies();
        let legal = if self.end.is_none() && self.board.side_to_move() == self.human {
            let board = self.board;
            board
                .legal_moves()
                .into_iter()
                .map(|m| {
                    let text = m.to_string();
                    let n = replay(&board, std::slice::from_ref(&text)).map_or(String::new(), |p| p[0].removal_note());
                    Offer { m: text, f: m.from().to_string(), t: m.to().to_string(), n }
                })
                .collect()
        } else {
            vec![]
        };
        let side = |c: Color| if c == Color::White { "white" } else { "black" }.to_string();
        State {
            variant: self.variant.name().into(),
            title: self.variant.title().into(),
            frame: live::frame(&self.board, plies.last()),
            human: side(self.human),
            to_move: side(self.board.side_to_move()),
            legal,
            moves: self.moves.clone(),
            scores: self.scores.clone(),
            result: self.end.map(|(o, _)| o.pgn().to_string()),
            termination: self.end.map(|(_, t)| t.name().to_string()),
            nodes: self.nodes,
        }
    }

    /// The game so far as PGN: the engine's score after each of its moves and, for a
    /// capture off the landing square, the squares it emptied, as comments.
    pub fn pgn(&self) -> String {
        let comments: Vec<String> = self
            .plies()
            .iter()
            .zip(&self.scores)
            .map(|(p, s)| {
                let score = s.map(|s| format!("{:+.2}", s as f64 / 100.0));
                let note = p.removal_note();
                match (score, note.is_empty()) {
                    (Some(s), true) => s,
                    (Some(s), false) => format!("{s}; {note}"),
                    (None, _) => note,
                }
            })
            .collect();
        let engine = format!("fairylab ({} nodes)", self.nodes);
        let (white, black) =
            if self.human == Color::White { ("you", engine.as_str()) } else { (engine.as_str(), "you") };
        write_game(&PgnGameOut {
            event: "fairylab play",
            round: "1",
            white,
            black,
            variant: self.variant.name(),
            options: &self.options,
            start_fen: &self.start.fen(),
            moves: &self.moves,
            comments: &comments,
            result: self.end.map_or("*", |(o, _)| o.pgn()),
            termination: self.end.map_or("", |(_, t)| t.name()),
        })
    }
}
