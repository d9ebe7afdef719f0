//! `fairylab perft`: scripts parse its output, so the last line is exactly `nodes <N>`.

use crate::Error;
use clap::Args;
use std::time::Instant;

#[derive(Args)]
pub struct PerftArgs {
    /// Variant name (see `fairylab variants`) or path to a variant file.
    #[arg(long, default_value = "chess")]
    pub variant: String,
    /// Variant option, repeatable (e.g. immediate-landing, super-jump-knights).
    #[arg(long = "option")]
    pub options: Vec<String>,
    /// Start from this position instead of the variant's start.
    #[arg(long)]
    pub fen: Option<String>,
    #[arg(long)]
    pub depth: u32,
    /// First print `<move>: <count>` for every legal root move.
    #[arg(long)]
    pub divide: bool,
}

/// Deepest perft accepted (the library's bound, checked before the variant loads).
pub const MAX_DEPTH: u32 = crate::MAX_PERFT_DEPTH;

pub fn run(a: &PerftArgs) -> Result<(), Error> {
    if a.depth > MAX_DEPTH {
        return Err(Error::Usage(format!("--depth {}: perft goes at most {MAX_DEPTH} plies deep", a.depth)));
    }
    let v = crate::Variant::load_with(&a.variant, &a.options)?;
    let board = match &a.fen {
        Some(f) => v.parse_fen(f).map_err(|e| Error::Usage(format!("bad FEN: {e}")))?,
        None => v.start_position(),
    };
    let t = Instant::now();
    let nodes = if a.divide && a.depth > 0 {
        let mut total = 0;
        for (m, n) in board.divide(a.depth)? {
            println!("{m}: {n}");
            total += n;
        }
        total
    } else {
        board.perft(a.depth)?
    };
    let secs = t.elapsed().as_secs_f64();
    eprintln!("time {:.3} s, {:.2} M nodes/s", secs, nodes as f64 / secs.max(1e-9) / 1e6);
    println!("nodes {nodes}");
    Ok(())
}
