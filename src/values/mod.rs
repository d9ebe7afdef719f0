//! Piece values from self-play, in pawns, with 95 % confidence intervals, by two methods
//! that can be compared with each other:
//!
//! * **Regression** (`regression`, after Tomasev et al. 2020): a logistic (or ordinal
//!   W/D/L) model of the game result on the material difference per piece type, fitted
//!   over quiet positions of self-play games (its `corpus`); intervals from a bootstrap
//!   over games.
//! * **Imbalance matches** (`imbalance`, after H. G. Muller): games from the start
//!   position with one side lacking X and the other Y, converted to pawns through a
//!   pawn-odds `calibration` match, `combine`d by least squares into absolute values.
//!
//! Both share the pieces of a variant (`pieces`), comparisons `X=Y` (`comparison`),
//! engine weights (`weights`), whether the data support a figure (`support`) and the
//! output table (`table`); the maths they fit with is
//! in `crate::maths`. A study's settings are one checked `plan`, which `study::run` plays
//! and fits (what `fairylab values` does and what an `experiment` file runs for each of
//! its option sets).
//! Games are played by `selfplay` (single games with explicit openings) into ordinary run
//! directories, so every figure can be recomputed from the games with `values regress
//! --data`.

pub mod agreement;
pub mod comparison;
mod error;
pub mod experiment;
pub mod imbalance;
pub mod method;
pub mod pieces;
pub mod plan;
pub mod play;
pub mod regression;
pub mod scale;
pub mod selfplay;
pub mod study;
pub mod support;
pub mod table;
pub mod weights;

pub use crate::maths::logistic::Model;
pub use comparison::Comparison;
pub use error::ValuesError;
pub use experiment::Experiment;
pub use pieces::Pieces;
pub use plan::StudyPlan;
pub use study::{run, StudyResult};
pub use table::ValueRow;
