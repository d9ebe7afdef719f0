//! Evaluation tuning: Texel tuning of the linear evaluation on self-play positions, the
//! generate-tune-verify training loop, and match-based SPSA (`fairylab tune`, `train`, `spsa`).
//!
//! * [`positions`]: labelled positions from run directories (quiet ones, as
//!   `tournament::quiet` defines them), the seeded train/validation split by game pair,
//!   random-playout positions for tests and benchmarks.
//! * [`matrix`]: the compact sparse feature matrix the optimiser streams over.
//! * [`texel`]: the loss, the 1-D fit of the sigmoid scale K, mini-batch Adam.
//! * [`run`]: the pipeline from run directories to a tuned engine config.
//! * [`train`]: self-play, tune, SPRT-verify, adopt; resumable, one directory per iteration.
//! * [`spsa`]: simultaneous perturbation over chosen weights with game pairs.

pub mod matrix;
pub mod positions;
pub mod run;
pub mod spsa;
pub mod texel;
pub mod train;

pub use matrix::{Dataset, Terms};
pub use positions::{Filter, LabelledPosition};
pub use texel::{TuneOptions, TuneReport};
