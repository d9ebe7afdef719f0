//! PGN export and import. Moves are written in fairylab's machine notation (`e2e4`,
//! `f4h4`, `b7b8q`): SAN has no agreed form for bomber captures, and machine notation is
//! unambiguous for every variant. Tags: `Variant`, `FEN` and `SetUp` always (the opening
//! is usually not the start position), plus `Termination` and fairylab's `PlyCount`.

use super::play::{GameRecord, Outcome};
use crate::{Error, Variant};

/// A game to write: its players, start and moves, with an optional comment after each move
/// (an engine's score, the squares a multi-square capture empties).
pub struct PgnGameOut<'a> {
    pub event: &'a str,
    pub round: &'a str,
    pub white: &'a str,
    pub black: &'a str,
    pub variant: &'a str,
    /// The variant's options, written as an `Options` tag when there are any.
    pub options: &'a [String],
    pub start_fen: &'a str,
    pub moves: &'a [String],
    /// Empty, or one per move (an empty comment is left out).
    pub comments: &'a [String],
    /// `1-0`, `1/2-1/2`, `0-1`, or `*` for a game still going.
    pub result: &'a str,
    pub termination: &'a str,
}

/// One game as PGN text.
pub fn write(r: &GameRecord, variant: &str, white: &str, black: &str, round: &str) -> String {
    write_game(&PgnGameOut {
        event: "fairylab self-play",
        round,
        white,
        black,
        variant,
        options: &[],
        start_fen: &r.start_fen,
        moves: &r.moves,
        comments: &[],
        result: r.outcome.pgn(),
        termination: r.termination.name(),
    })
}

/// One game as PGN text, comments included.
pub fn write_game(g: &PgnGameOut) -> String {
    let mut s = String::new();
    let tag = |s: &mut String, k: &str, v: &str| s.push_str(&format!("[{k} \"{}\"]\n", v.replace('"', "'")));
    tag(&mut s, "Event", g.event);
    tag(&mut s, "Site", "fairylab");
    tag(&mut s, "Round", g.round);
    tag(&mut s, "White", g.white);
    tag(&mut s, "Black", g.black);
    tag(&mut s, "Result", g.result);
    tag(&mut s, "Variant", g.variant);
    if !g.options.is_empty() {
        tag(&mut s, "Options", &g.options.join(" "));
    }
    tag(&mut s, "SetUp", "1");
    tag(&mut s, "FEN", g.start_fen);
    if !g.termination.is_empty() {
        tag(&mut s, "Termination", g.termination);
    }
    tag(&mut s, "PlyCount", &g.moves.len().to_string());
    s.push('\n');
    let black_first = g.start_fen.split_whitespace().nth(1) == Some("b");
    let mut number: u32 = g.start_fen.split_whitespace().nth(5).and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut line = String::new();
    let push = |s: &mut String, line: &mut String, token: &str| {
        if !line.is_empty() && line.len() + token.len() > 78 {
            s.push_str(line.trim_end());
            s.push('\n');
            line.clear();
        }
        line.push_str(token);
        line.push(' ');
    };
    for (i, m) in g.moves.iter().enumerate() {
        let white_move = (i % 2 == 0) != black_first;
        let comment = g.comments.get(i).filter(|c| !c.is_empty());
        // After a comment Black's move is numbered again, as PGN readers expect.
        let after_comment = i > 0 && g.comments.get(i - 1).is_some_and(|c| !c.is_empty());
        let token = if white_move {
            format!("{number}. {m}")
        } else if i == 0 || after_comment {
            format!("{number}... {m}")
        } else {
            m.clone()
        };
        if !white_move {
            number += 1;
        }
        push(&mut s, &mut line, &token);
        if let Some(c) = comment {
            // A PGN comment ends at the first '}', so none may hold one.
            push(&mut s, &mut line, &format!("{{{}}}", c.replace('}', ")")));
        }
    }
    line.push_str(g.result);
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
