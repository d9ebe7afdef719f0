//! Evaluation tuning: Texel tuning, the generate-tune-verify loop, SPSA.
