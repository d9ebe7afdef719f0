//! `fairylab values` and `fairylab experiment`.
