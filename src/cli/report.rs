//! `fairylab report`: a variant's balance report, or (`--all`) the cross-variant summary.

use crate::report::{self, Budget, ReportConfig};
use crate::Error;
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct ReportArgs {
    #[arg(long, default_value = "flying-bombers-grand")]
    pub variant: String,
    #[arg(long = "option")]
    pub options: Vec<String>,
    /// quick (minutes on 2 cores), standard or full (for clusters).
    #[arg(long, default_value = "quick")]
    pub budget: String,
    /// Output folder (default `reports/<variant>[-<options>]`); finished runs in it are reused.
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[arg(long)]
    pub concurrency: Option<usize>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play only shard i of n (`2/4`) of every run's games, for clusters; no report is
    /// written. Then `fairylab merge` the shards' folders and run this command on the merged
    /// folder without --shard: it plays what needs the merged games (the imbalance chain)
    /// and writes the report.
    #[arg(long)]
    pub shard: Option<String>,
    /// Write the cross-variant summary of all reports under `reports/` (or --out).
    #[arg(long)]
    pub all: bool,
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(a: &ReportArgs) -> Result<(), Error> {
    if a.all {
        let root = a.out.clone().unwrap_or_else(|| PathBuf::from("reports"));
        let n = report::summary(&root)?;
        println!("summary of {n} reports: {}", root.join("summary.html").display());
        return Ok(());
    }
    let mut name = a.variant.clone();
    for o in &a.options {
        name += &format!("-{o}");
    }
    let out = a.out.clone().unwrap_or_else(|| PathBuf::from("reports").join(name));
    let cfg = ReportConfig {
        variant: a.variant.clone(),
        options: a.options.clone(),
        budget: Budget::parse(&a.budget)?,
        out: out.clone(),
        concurrency: a.concurrency.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        seed: a.seed,
        progress: !a.quiet,
        shard: a.shard.as_deref().map(crate::tournament::parse_shard).transpose()?,
    };
    if !a.quiet {
        eprintln!("seed {}; writing {}", a.seed, out.display());
    }
    let data = report::run(&cfg)?;
    if let Some((i, n)) = cfg.shard {
        println!(
            "shard {i}/{n} of the report's games is in {}. When every shard is done: \
             `fairylab merge <shard folders> --out DIR`, then the same report command with --out DIR \
             and without --shard.",
            out.display()
        );
        return Ok(());
    }
    println!("{}", report::render_markdown(&data));
    println!("report: {}", out.join("report.html").display());
    Ok(())
}
