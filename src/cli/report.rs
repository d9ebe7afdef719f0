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
    };
    if !a.quiet {
        eprintln!("seed {}; writing {}", a.seed, out.display());
    }
    let data = report::run(&cfg)?;
    println!("{}", report::render_markdown(&data));
    println!("report: {}", out.join("report.html").display());
    Ok(())
}
