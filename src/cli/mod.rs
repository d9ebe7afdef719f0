//! Command implementations behind `src/main.rs`, one module per subcommand.
pub mod bench;
pub mod perft;
pub mod report;
pub mod stats;
pub mod tournament;
pub mod tune;
pub mod uci;
pub mod values;
pub mod variants;
pub mod weights;

use crate::{Error, Variant};

/// Loads a variant with options given on the command line.
pub fn load(name: &str, options: &[String]) -> Result<Variant, Error> {
    let opts: Vec<&str> = options.iter().map(|s| s.as_str()).collect();
    Variant::load(name, &opts)
}
