//! `fairylab show`: a diagram of a variant's start position, or of one piece's moves, as
//! an SVG file.

use crate::diagram::{self, Placement};
use crate::Error;
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct ShowArgs {
    /// Variant name (see `fairylab variants`) or path to a variant file.
    #[arg(long, default_value = "flying-bombers-grand")]
    pub variant: String,
    /// Variant option, repeatable (e.g. immediate-landing).
    #[arg(long = "option")]
    pub options: Vec<String>,
    /// Show this piece's moves (its letter) from the centre of a board set with targets;
    /// without it (and without --square), the start position.
    #[arg(long)]
    pub piece: Option<char>,
    /// Show the moves of the piece on this square of --fen.
    #[arg(long, requires = "fen")]
    pub square: Option<String>,
    /// The position for --square.
    #[arg(long, requires = "square")]
    pub fen: Option<String>,
    /// The SVG file to write.
    #[arg(long)]
    pub out: PathBuf,
}

pub fn run(a: &ShowArgs) -> Result<(), Error> {
    let v = crate::Variant::load_with(&a.variant, &a.options)?;
    let svg = match (&a.piece, &a.square, &a.fen) {
        (Some(_), Some(_), _) => return Err(Error::Usage("give --piece or --square with --fen, not both".into())),
        (Some(p), None, _) => diagram::piece_moves(v, &Placement::Demo(*p))?.0,
        (None, Some(sq), Some(fen)) => {
            diagram::piece_moves(v, &Placement::Fen { fen: fen.clone(), square: sq.clone() })?.0
        }
        _ => diagram::start_position(v),
    };
    if let Some(dir) = a.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| Error::Usage(format!("cannot create {}: {e}", dir.display())))?;
    }
    std::fs::write(&a.out, svg).map_err(|e| Error::Usage(format!("cannot write {}: {e}", a.out.display())))?;
    println!("{}", a.out.display());
    Ok(())
}
