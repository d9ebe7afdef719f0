//! Why a game cannot start or a move is refused.

use crate::variant::VariantError;
use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub enum PlayError {
    Variant(VariantError),
    /// The engine's configuration refused, or the engine found no move.
    Engine(String),
    /// A move the position does not allow.
    IllegalMove {
        text: String,
        fen: String,
    },
    /// A move sent while the engine is to move.
    NotYourTurn,
    /// A move sent after the game ended.
    GameOver,
    /// A request the server does not understand.
    BadRequest(String),
    /// The server's socket.
    Io(String),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Variant(e) => e.fmt(f),
            PlayError::Engine(m) => write!(f, "engine: {m}"),
            PlayError::IllegalMove { text, fen } => write!(f, "'{text}' is not a legal move in {fen}"),
            PlayError::NotYourTurn => f.write_str("it is the engine's turn"),
            PlayError::GameOver => f.write_str("the game is over: start a new one"),
            PlayError::BadRequest(m) => write!(f, "bad request: {m}"),
            PlayError::Io(m) => write!(f, "server: {m}"),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<VariantError> for PlayError {
    fn from(e: VariantError) -> PlayError {
        PlayError::Variant(e)
    }
}
