//! General numerical tools the estimators build on, beside `stats` (match statistics):
//! dense solves of small symmetric positive definite systems, the bootstrap over games
//! with percentile quantiles, and maximum-likelihood fits of game results (logistic and
//! ordinal), and roots of monotone functions. Nothing here knows about chess or pieces.

pub mod bootstrap;
pub mod linalg;
pub mod logistic;
pub mod root;
