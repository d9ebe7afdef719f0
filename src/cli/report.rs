//! `fairylab report`: a variant's balance report, or (`--all`) the cross-variant summary.

use super::common::{RunFlags, VariantFlags};
use crate::report::{self, Budget, ReportConfig};
use crate::Error;
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct ReportArgs {
    #[command(flatten)]
    pub game: VariantFlags,
    /// quick (minutes on 2 cores), standard or full (for clusters).
    #[arg(long, default_value = "quick")]
    pub budget: String,
    /// Output folder (default `reports/<variant>[-<options>]`); finished runs in it are
    /// reused. With --shard it gets only the shard's games and no report: once every shard
    /// is done, `fairylab merge` the shards' folders and run this command on the merged
    /// folder without --shard; it plays what needs the merged games (the imbalance chain)
    /// and writes the report.
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Game pairs of the balance runs instead of the budget's: one number, or one per node
    /// budget (`--pairs 2000,400`: a calibration of White's advantage to about ±10 Elo at the
    /// cheaper budget). Raising it on a finished report plays only the new pairs.
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u64).range(1..))]
    pub pairs: Option<Vec<u64>>,
    /// Node budgets per move instead of the budget's (`--nodes 2000,8000`): the balance runs
    /// play at each, everything else at the first.
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<Vec<u64>>,
    #[command(flatten)]
    pub run: RunFlags,
    /// Write the cross-variant summary of all reports under `reports/` (or --out), after
    /// writing each report's pages and tables again from its report.json.
    #[arg(long)]
    pub all: bool,
    /// A value table of an experiment on the same variant (its `fairylab.csv` or a
    /// `values.csv`), shown on the page as evidence; repeatable. Kept in report.json, so
    /// later runs keep it. With --all each goes to the reports of its variant and options.
    #[arg(long)]
    pub study: Vec<PathBuf>,
}

pub fn run(a: &ReportArgs) -> Result<(), Error> {
    let mut studies = vec![];
    for p in &a.study {
        studies.extend(report::study::Study::read(p)?);
    }
    if a.all {
        let root = a.out.clone().unwrap_or_else(|| PathBuf::from("reports"));
        let n = report::summary(&root, &studies)?;
        println!("summary of {n} reports: {}", root.join("summary.html").display());
        return Ok(());
    }
    // A variant given as a file is named by its `name`, not by its path.
    let mut name = crate::Variant::load_with(&a.game.variant, &a.game.options)
        .map_or_else(|_| a.game.variant.clone(), |v| v.name().to_string());
    for o in &a.game.options {
        name += &format!("-{o}");
    }
    let out = a.out.clone().unwrap_or_else(|| PathBuf::from("reports").join(name));
    let cfg = ReportConfig {
        variant: a.game.variant.clone(),
        options: a.game.options.clone(),
        budget: a.budget.parse::<Budget>()?,
        out: out.clone(),
        concurrency: a.run.workers.threads()?,
        seed: a.seed,
        progress: super::progress::progress(a.run.workers.quiet),
        shard: a.run.shard()?,
        balance_pairs: a.pairs.clone(),
        nodes: a.nodes.clone(),
        studies,
    };
    let budget_runs = cfg.nodes().len();
    if let Some(p) = &a.pairs {
        if p.len() != 1 && p.len() != budget_runs {
            return Err(Error::Usage(format!(
                "--pairs takes one number or {budget_runs} (one per balance run at {:?} nodes), not {}",
                cfg.nodes(),
                p.len()
            )));
        }
    }
    if !a.run.workers.quiet {
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
    // The card first: what the run answers. The whole page is in the files.
    match &data.answer {
        Some(card) => print!("{}", report::card::markdown(card, &data.title)),
        None => println!("{}", report::render_markdown(&data)),
    }
    println!("The whole report (balance, both estimators, options, notes): {}", out.join("report.md").display());
    println!("report: {}", out.join("report.html").display());
    Ok(())
}
