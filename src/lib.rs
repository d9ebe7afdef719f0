//! fairylab: exact move generation, search and self-play statistics for chess variants.
//!
//! Data flows one way: `variant` (TOML files) -> `rules` (compiled tables) ->
//! `position` (position, move generation, perft) -> tools on top.

// Index loops over colours and squares read more clearly than zipped iterators here.
#![allow(clippy::needless_range_loop)]

pub mod cli;
pub mod diagram;
pub mod engine;
pub mod eval;
pub mod facade;
pub mod games;
pub mod maths;
pub mod play;
pub mod position;
pub mod report;
pub mod rng;
pub mod rules;
pub mod search;
pub mod stats;
pub mod tournament;
pub mod tuning;
pub mod values;
pub mod variant;

pub use facade::{Board, Color, Error, Move, PieceKind, Square, Variant};
pub use position::{FenError, PerftError, MAX_PERFT_DEPTH};
pub use variant::VariantError;
