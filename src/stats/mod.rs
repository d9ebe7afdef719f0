//! Match statistics for engine-versus-engine testing, as reported by fastchess, fishtest and
//! OpenBench: score, draw ratio, logistic Elo and normalized Elo with confidence intervals,
//! likelihood of superiority (LOS) and the sequential probability ratio test (SPRT).
//!
//! Pure computation: no I/O, no heap allocation, `std` only.
//!
//! * [`Wdl`] counts wins, draws and losses (the *trinomial* model: one sample per game).
//! * [`Pentanomial`] counts game pairs by pair score 0, 1/2, 1, 3/2, 2 (the *pentanomial*
//!   model: one sample per pair of games played from the same opening with colours swapped).
//!   Prefer it whenever games are paired: it accounts for the correlation inside a pair and so
//!   gives tighter, more honest error bars and shorter SPRTs.
//! * Both reduce to a [`ScoreSample`] (number of samples, mean and variance of the sample
//!   score), from which [`interval`] computes Elo and nElo intervals and [`elo`] the LOS.
//!   [`Sprt`] works from the outcome counts themselves: its log-likelihood ratio compares the
//!   most likely outcome distributions under the two hypotheses.
//!
//! All results are from the first player's point of view. Degenerate input never panics and
//! never yields NaN: ratios over zero games are `None`; an Elo interval is an [`EloInterval`]
//! that says when the games are too few or too one-sided for one (see [`interval`]); LOS
//! without evidence is 0.5 and the LLR of an empty match is 0. Each function documents its own
//! conventions.
//!
//! ```
//! use fairylab::stats::{EloModel, Pentanomial, Sprt, SprtStatus, Wdl};
//!
//! let wdl = Wdl::new(60, 0, 40);
//! assert!((wdl.elo().unwrap().value - 70.44).abs() < 0.01); // 60 % score
//!
//! let penta = Pentanomial::new(50, 100, 400, 300, 150); // 60 % score over 1000 pairs
//! let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, EloModel::Logistic).unwrap();
//! assert_eq!(sprt.test_pentanomial(&penta).status, SprtStatus::AcceptH1);
//! ```

pub mod elo;
pub mod interval;
mod mle;
pub mod normal;
pub mod pentanomial;
pub mod sample;
pub mod sprt;
pub mod wdl;

pub use elo::{elo_to_score, score_to_elo, EloEstimate, DEFAULT_CONFIDENCE, NELO_PER_T};
pub use interval::{EloInterval, MIN_GAMES};
pub use normal::{normal_cdf, normal_quantile};
pub use pentanomial::Pentanomial;
pub use sample::ScoreSample;
pub use sprt::{EloModel, Sprt, SprtError, SprtResult, SprtStatus};
pub use wdl::{GameResult, Wdl};
