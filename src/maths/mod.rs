//! General numerical tools the estimators build on, beside `stats` (match statistics):
//! dense solves of small symmetric positive definite systems, the bootstrap over games
//! with percentile quantiles, and maximum-likelihood fits of game results (logistic and
//! ordinal), confidence sets of ratios (Fieller), chi-square tail probabilities for fit
//! tests, and roots of monotone functions. Nothing here knows about chess or pieces.

pub mod bootstrap;
pub mod chi2;
pub mod fieller;
pub mod linalg;
pub mod logistic;
pub mod root;
