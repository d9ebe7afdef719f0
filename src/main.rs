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
    /// Run as a UCI engine on stdin/stdout.
    Uci(cli::uci::UciArgs),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Variants => cli::variants::run(),
        Command::Perft(a) => cli::perft::run(&a),
        Command::Bench(a) => cli::bench::run(&a),
        Command::Uci(a) => cli::uci::run(&a),
    };
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}
