//! PGN export and import. Moves are written in fairylab's machine notation (`e2e4`,
//! `f4h4`, `b7b8q`): SAN has no agreed form for bomber captures, and machine notation is
//! unambiguous for every variant. Tags: `Variant`, `FEN` and `SetUp` always (the opening
//! is usually not the start position), plus `Termination` and fairylab's `PlyCount`.

use super::play::{GameRecord, Outcome};
use crate::{Error, Variant};

/// One game as PGN text.
pub fn write(r: &GameRecord, variant: &str, white: &str, black: &str, round: &str) -> String {
    let mut s = String::new();
    let tag = |s: &mut String, k: &str, v: &str| s.push_str(&format!("[{k} \"{}\"]\n", v.replace('"', "'")));
    tag(&mut s, "Event", "fairylab self-play");
    tag(&mut s, "Site", "fairylab");
    tag(&mut s, "Round", round);
    tag(&mut s, "White", white);
    tag(&mut s, "Black", black);
    tag(&mut s, "Result", r.outcome.pgn());
    tag(&mut s, "Variant", variant);
    tag(&mut s, "SetUp", "1");
    tag(&mut s, "FEN", &r.start_fen);
    tag(&mut s, "Termination", r.termination.name());
    tag(&mut s, "PlyCount", &r.moves.len().to_string());
    s.push('\n');
    let black_first = r.start_fen.split_whitespace().nth(1) == Some("b");
    let mut number: u32 = r.start_fen.split_whitespace().nth(5).and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut line = String::new();
    for (i, m) in r.moves.iter().enumerate() {
        let white_move = (i % 2 == 0) != black_first;
        let token = if white_move {
            format!("{number}. {m}")
        } else if i == 0 {
            format!("{number}... {m}")
        } else {
            m.clone()
        };
        if !white_move {
            number += 1;
        }
        if line.len() + token.len() > 78 {
            s.push_str(line.trim_end());
            s.push('\n');
            line.clear();
        }
        line.push_str(&token);
        line.push(' ');
    }
    line.push_str(r.outcome.pgn());
    s.push_str(&line);
    s.push_str("\n\n");
    s
}

/// A game read back from PGN, replayed and checked with fairylab's move generator.
#[derive(Clone, Debug)]
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    pub variant: String,
    pub start_fen: String,
    pub moves: Vec<String>,
    pub outcome: Option<Outcome>,
}

impl PgnGame {
    pub fn tag(&self, k: &str) -> Option<&str> {
        self.tags.iter().find(|(t, _)| t == k).map(|(_, v)| v.as_str())
    }
}

/// Reads every game of a PGN text; each is replayed, so an illegal move is an error.
pub fn read(text: &str, options: &[&str]) -> Result<Vec<PgnGame>, Error> {
    let mut games = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut body = String::new();
    let flush = |tags: &mut Vec<(String, String)>, body: &mut String, games: &mut Vec<PgnGame>| -> Result<(), Error> {
        if tags.is_empty() && body.trim().is_empty() {
            return Ok(());
        }
        let get = |k: &str| tags.iter().find(|(t, _)| t == k).map(|(_, v)| v.clone());
        let variant_name = get("Variant").unwrap_or_else(|| "chess".into());
        let variant = Variant::load(&variant_name, options)?;
        let start_fen = get("FEN").unwrap_or_else(|| variant.start_fen().to_string());
        let mut board = variant.parse_fen(&start_fen)?;
        let mut moves = Vec::new();
        let mut outcome = None;
        let cleaned: String = {
            // Drop comments and variations.
            let mut out = String::new();
            let mut depth = 0;
            for c in body.chars() {
                match c {
                    '{' | '(' => depth += 1,
                    '}' | ')' => depth -= 1,
                    _ if depth == 0 => out.push(c),
                    _ => {}
                }
            }
            out
        };
        for tok in cleaned.split_whitespace() {
            if let Some(o) = Outcome::parse(tok) {
                outcome = Some(o);
                continue;
            }
            if tok == "*" || tok.ends_with('.') || tok.chars().all(|c| c.is_ascii_digit() || c == '.') {
                continue;
            }
            let mv = tok.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            board = board.play(mv).map_err(|e| Error::Position(format!("PGN game {}: {e}", games.len() + 1)))?;
            moves.push(mv.to_string());
        }
        games.push(PgnGame { tags: std::mem::take(tags), variant: variant_name, start_fen, moves, outcome });
        body.clear();
        Ok(())
    };
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') && l.ends_with(']') {
            if !body.trim().is_empty() {
                flush(&mut tags, &mut body, &mut games)?;
            }
            let inner = &l[1..l.len() - 1];
            if let Some((k, v)) = inner.split_once(' ') {
                tags.push((k.to_string(), v.trim().trim_matches('"').to_string()));
            }
        } else {
            body.push_str(l);
            body.push(' ');
        }
    }
    flush(&mut tags, &mut body, &mut games)?;
    Ok(games)
}
