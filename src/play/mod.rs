//! Playing a variant against the engine in a browser: `fairylab play` serves one local
//! page (the board drawn from the rules, the legal moves from the move generator, the
//! engine's replies at a fixed node budget, the game as PGN). No GUI knows the Flying
//! Bomber's captures, so the page is the GUI.

mod error;
pub mod http;
mod page;
pub mod session;

pub use error::PlayError;
pub use session::Session;
