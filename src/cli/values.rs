//! `fairylab values regress`, `fairylab values imbalance` and `fairylab experiment`:
//! piece values in pawns with 95 % intervals (see `crate::values`).

use crate::values::experiment::{Experiment, Overrides};
use crate::values::study::{imbalance, regress, ImbalanceRequest, RegressRequest};
use crate::values::table::{self, ValueRow};
use crate::Error;
use clap::{Args, Subcommand};
use std::path::PathBuf;

#[derive(Args, Clone, Debug)]
pub struct ValuesArgs {
    #[command(subcommand)]
    pub command: ValuesCommand,
}

#[derive(Subcommand, Clone, Debug)]
pub enum ValuesCommand {
    /// Logistic regression of game results on material over self-play positions.
    Regress(RegressRequest),
    /// Imbalance matches (X against Y) calibrated by a pawn-odds match.
    Imbalance(ImbalanceRequest),
}

#[derive(Args, Clone, Debug)]
pub struct ExperimentArgs {
    /// Experiment file, e.g. configs/experiments/chess-values.toml.
    pub file: PathBuf,
    /// Output directory instead of the file's.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Multiply every game budget by this factor (e.g. 0.1 for a quick look).
    #[arg(long)]
    pub scale: Option<f64>,
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Play only shard i of n (`2/4`) of every match and corpus, for clusters: merge the
    /// shards' folders with `fairylab merge`, then run again without --shard.
    #[arg(long)]
    pub shard: Option<String>,
    #[arg(long)]
    pub quiet: bool,
}

fn finish(rows: &[ValueRow], out: Option<&PathBuf>) -> Result<(), Error> {
    // A shard's games alone give no figures (the study said what to do next).
    if rows.is_empty() {
        return Ok(());
    }
    print!("{}", table::format(rows));
    if let Some(dir) = out {
        table::write(dir, rows)?;
        eprintln!("wrote {} and {}", dir.join("values.csv").display(), dir.join("values.json").display());
    }
    Ok(())
}

/// Entry point of `fairylab values ...`.
pub fn run(a: &ValuesArgs) -> Result<(), Error> {
    match &a.command {
        ValuesCommand::Regress(r) => {
            let rows = regress(r)?;
            finish(&rows, r.out.as_ref())
        }
        ValuesCommand::Imbalance(i) => {
            let (rows, out) = imbalance(i)?;
            finish(&rows, Some(&out))
        }
    }
}

/// Entry point of `fairylab experiment FILE`.
pub fn experiment(a: &ExperimentArgs) -> Result<(), Error> {
    let e = Experiment::load(&a.file)?;
    let shard = a.shard.as_deref().map(crate::tournament::parse_shard).transpose()?;
    let o = Overrides { out: a.out.clone(), scale: a.scale, concurrency: a.concurrency, quiet: a.quiet, shard };
    if a.concurrency == Some(0) {
        return Err(Error("--concurrency must be at least 1".into()));
    }
    let rows = e.run(&o)?;
    if shard.is_none() {
        print!("{}", table::format(&rows));
    }
    Ok(())
}
