//! `fairylab play`: a game against the engine in the browser, served on a local port.

use crate::play::{http, Session};
use crate::{Color, Error};
use clap::Args;
use std::net::TcpListener;

#[derive(Args)]
pub struct PlayArgs {
    /// Variant name (see `fairylab variants`) or path to a variant file.
    #[arg(long, default_value = "flying-bombers-grand")]
    pub variant: String,
    /// Variant option, repeatable (e.g. immediate-landing).
    #[arg(long = "option")]
    pub options: Vec<String>,
    /// The engine's search per move, in nodes (the same move for the same game).
    #[arg(long, default_value_t = 20000)]
    pub nodes: u64,
    /// Local port to serve the page on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Play Black (the engine opens).
    #[arg(long)]
    pub black: bool,
}

pub fn run(a: &PlayArgs) -> Result<(), Error> {
    if a.nodes == 0 {
        return Err(Error::Usage("--nodes must be at least 1".into()));
    }
    let v = crate::Variant::load_with(&a.variant, &a.options)?;
    let side = if a.black { Color::Black } else { Color::White };
    let session = Session::new(v, &a.options, a.nodes, side).map_err(Error::Play)?;
    // Only this machine: the page takes moves from whoever reaches it.
    let listener = TcpListener::bind(("127.0.0.1", a.port))
        .map_err(|e| Error::Usage(format!("cannot listen on 127.0.0.1:{}: {e}", a.port)))?;
    let addr = listener.local_addr().map_err(|e| Error::Usage(e.to_string()))?;
    println!("http://{addr}/");
    eprintln!("Open that address in a browser to play {}; Ctrl-C stops the server.", v.title());
    http::serve(listener, session).map_err(Error::Play)
}
