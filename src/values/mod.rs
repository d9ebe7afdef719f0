//! Piece values from self-play: regression and imbalance matches.
