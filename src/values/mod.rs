//! Piece values from self-play, in pawns, with 95 % confidence intervals, by two methods
//! that can be compared with each other:
//!
//! * **Regression** (`regress`, after Tomasev et al. 2020): a logistic (or ordinal W/D/L)
//!   model of the game result on the material difference per piece type, fitted over
//!   quiet positions of self-play games; intervals from a bootstrap over games.
//! * **Imbalance matches** (`imbalance`, after H. G. Muller): games from the start
//!   position with one side lacking X and the other Y, converted to pawns through a
//!   pawn-odds calibration match, combined by least squares into absolute values.
//!
//! `study` runs either as one call (what `fairylab values` does), `experiment` runs either
//! or both from a TOML file; `table` is the shared output.
//! Games are played by `selfplay` (single games with explicit openings) into ordinary run
//! directories, so every figure can be recomputed from the games with `values regress
//! --data`.

pub mod bootstrap;
pub mod calibration;
pub mod combine;
pub mod comparison;
pub mod corpus;
pub mod dataset;
pub mod experiment;
pub mod imbalance;
pub mod linalg;
pub mod logistic;
pub mod pieces;
pub mod regress;
pub mod selfplay;
pub mod study;
pub mod table;
pub mod weights;

pub use comparison::Comparison;
pub use experiment::Experiment;
pub use logistic::Model;
pub use pieces::Pieces;
pub use table::ValueRow;
