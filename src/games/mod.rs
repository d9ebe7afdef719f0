//! Games: players, the game loop with the variant's rules and adjudication, and the record
//! every later tool (statistics, piece values, tuning) reads.

pub mod pgn;
pub mod play;
pub mod player;
pub mod replay;
pub mod uci_player;

pub use play::{play_game, Adjudication, GameRecord, Outcome, Sample};
pub use player::{EnginePlayer, Player, PlayerError, RandomPlayer};
