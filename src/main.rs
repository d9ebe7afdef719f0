//! The `fairylab` command line: a thin layer over the library.

use clap::{Parser, Subcommand};
use fairylab::cli;

#[derive(Parser)]
#[command(
    name = "fairylab",
    version,
    about = "Chess-variant laboratory: exact move generation, self-play and statistics"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the variants and their options.
    Variants,
    /// Count leaf nodes of the legal move tree.
    Perft(cli::perft::PerftArgs),
    /// Speed benchmarks.
    Bench(cli::bench::BenchArgs),
    /// Print a variant's evaluation weights by name.
    Weights(cli::weights::WeightsArgs),
    /// Run as a UCI engine on stdin/stdout.
    Uci(cli::uci::UciArgs),
    /// Play a match between two engines (game pairs, colours swapped).
    Match(cli::tournament::TournamentArgs),
    /// Round robin or gauntlet of several engines.
    Tournament(cli::tournament::TournamentArgs),
    /// Elo, nElo, LOS and SPRT from counts or from a run directory.
    Stats(cli::stats::StatsArgs),
    /// Combine shard output directories.
    Merge(cli::stats::MergeArgs),
    /// Texel-tune the evaluation weights on self-play positions.
    Tune(cli::tune::TuneArgs),
    /// Self-play, tune, SPRT-verify, repeat.
    Train(cli::tune::TrainArgs),
    /// SPSA over chosen weights using game pairs.
    Spsa(cli::tune::SpsaArgs),
    /// Piece values from self-play: `values regress` and `values imbalance`.
    Values(cli::values::ValuesArgs),
    /// Run an experiment file (configs/experiments/*.toml): piece-value tables.
    Experiment(cli::values::ExperimentArgs),
    /// Balance report of a variant (Markdown + HTML with charts, CSV/JSON figures).
    Report(cli::report::ReportArgs),
    /// A diagram (SVG) of a variant's start position or of one piece's moves.
    Show(cli::show::ShowArgs),
    /// Play a variant against the engine in the browser (a local page with the board).
    Play(cli::play::PlayArgs),
}

fn main() {
    // Die quietly when the reader of our output goes away (`fairylab weights | head`)
    // instead of panicking on the broken pipe.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Variants => cli::variants::run(),
        Command::Perft(a) => cli::perft::run(&a),
        Command::Bench(a) => cli::bench::run(&a),
        Command::Uci(a) => cli::uci::run(&a),
        Command::Weights(a) => cli::weights::run(&a),
        Command::Match(a) => cli::tournament::run(&a, true),
        Command::Tournament(a) => cli::tournament::run(&a, false),
        Command::Stats(a) => cli::stats::run(&a),
        Command::Merge(a) => cli::stats::merge(&a),
        Command::Report(a) => cli::report::run(&a),
        Command::Show(a) => cli::show::run(&a),
        Command::Play(a) => cli::play::run(&a),
        Command::Values(a) => cli::values::run(&a),
        Command::Experiment(a) => cli::values::experiment(&a),
        Command::Tune(a) => cli::tune::run_tune(&a),
        Command::Train(a) => cli::tune::run_train(&a),
        Command::Spsa(a) => cli::tune::run_spsa(&a),
    };
    if let Err(e) = result {
        // One line, whatever the message holds (TOML parse errors span several lines).
        let text = e.to_string();
        let parts: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        eprintln!("error: {}", parts.join("; "));
        std::process::exit(2);
    }
}
