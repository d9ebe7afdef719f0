//! Command implementations behind `src/main.rs`, one module per subcommand.
pub mod bench;
pub mod common;
pub mod perft;
pub mod play;
pub mod progress;
pub mod report;
pub mod show;
pub mod stats;
pub mod tactics;
pub mod tournament;
pub mod tune;
pub mod uci;
pub mod values;
pub mod variants;
pub mod weights;
