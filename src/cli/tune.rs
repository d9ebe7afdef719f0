//! `fairylab tune`, `train`, `spsa`.
