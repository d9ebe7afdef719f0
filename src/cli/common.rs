//! Flags several commands share, each defined once and flattened into the commands.

use crate::{Error, Variant};
use clap::Args;

/// The game and its options.
#[derive(Args, Clone, Debug)]
pub struct VariantFlags {
    /// Variant name (see `fairylab variants`) or path to a variant file.
    #[arg(long, default_value = "flying-bombers-grand")]
    pub variant: String,
    /// Variant option, repeatable (e.g. immediate-landing, super-jump-knights).
    #[arg(long = "option")]
    pub options: Vec<String>,
}

impl VariantFlags {
    pub fn load(&self) -> Result<Variant, Error> {
        Ok(Variant::load_with(&self.variant, &self.options)?)
    }
}

/// How many games run at once, and whether progress is shown.
#[derive(Args, Clone, Debug)]
pub struct Workers {
    /// Parallel games (default: one per core; 0 is refused).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// No progress bar or progress notes.
    #[arg(long)]
    pub quiet: bool,
}

impl Workers {
    /// The number of parallel games; `--concurrency 0` is an error on every command.
    pub fn threads(&self) -> Result<usize, Error> {
        Ok(crate::tournament::concurrency(self.concurrency)?)
    }
}

/// [`Workers`] plus `--shard`, for commands whose games a cluster can split.
#[derive(Args, Clone, Debug)]
pub struct RunFlags {
    #[command(flatten)]
    pub workers: Workers,
    /// Play only shard i of n of the games (`2/4`), for clusters: merge the shards'
    /// folders with `fairylab merge`, then run again without --shard.
    #[arg(long)]
    pub shard: Option<String>,
}

impl RunFlags {
    pub fn shard(&self) -> Result<Option<(u64, u64)>, Error> {
        Ok(self.shard.as_deref().map(crate::tournament::parse_shard).transpose()?)
    }
}
