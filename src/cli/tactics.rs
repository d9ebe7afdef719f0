//! `fairylab bench tactics`: how many positions of an EPD test suite (`bm` / `am` in SAN)
//! an engine solves at a fixed node budget. The engine is any `--engine` spec, so the
//! in-process engine and an external UCI engine are scored by the same matcher on the
//! same positions.

use crate::search::Limits;
use crate::tournament::engines::EngineSpec;
use crate::{Board, Error, Move, Variant};
use std::time::Instant;

/// One test position: the board, the moves that solve it (`bm`) or fail it (`am`).
pub struct EpdCase {
    pub id: String,
    pub board: Board,
    pub best: Vec<String>,
    pub avoid: Vec<String>,
}

/// Reads an EPD suite: the first four FEN fields, then `;`-separated operations. Lines
/// that are empty or start with `#` are skipped.
pub fn read_epd(variant: Variant, text: &str) -> Result<Vec<EpdCase>, Error> {
    let mut cases = vec![];
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.splitn(5, ' ').collect();
        if fields.len() < 5 {
            return Err(Error::Usage(format!("EPD line {}: fewer than four FEN fields and an operation", n + 1)));
        }
        let fen = format!("{} {} {} {} 0 1", fields[0], fields[1], fields[2], fields[3]);
        let board = variant.parse_fen(&fen).map_err(|e| Error::Usage(format!("EPD line {}: {e}", n + 1)))?;
        let mut case = EpdCase { id: format!("line {}", n + 1), board, best: vec![], avoid: vec![] };
        for op in fields[4].split(';') {
            let mut words = op.split_whitespace();
            match words.next() {
                Some("bm") => case.best.extend(words.map(str::to_string)),
                Some("am") => case.avoid.extend(words.map(str::to_string)),
                Some("id") => case.id = words.collect::<Vec<_>>().join(" ").trim_matches('"').to_string(),
                _ => {}
            }
        }
        if case.best.is_empty() && case.avoid.is_empty() {
            return Err(Error::Usage(format!("EPD line {}: neither bm nor am", n + 1)));
        }
        cases.push(case);
    }
    Ok(cases)
}

/// Whether `mv` is the move written `san` (standard algebraic notation, 8x8 chess:
/// piece letter, optional disambiguation, optional `x`, target, optional `=Q`, then any
/// of `+#!?`; castling `O-O` / `O-O-O`).
pub fn san_matches(board: &Board, mv: &Move, san: &str) -> bool {
    let s = san.trim_end_matches(['+', '#', '!', '?']);
    let (from, to) = (mv.from(), mv.to());
    let mover = board.piece_at(&from.to_string()).map(|c| c.to_ascii_uppercase());
    let castles = mover == Some('K') && from.file().abs_diff(to.file()) >= 2;
    let long = s.replace('0', "O");
    if long == "O-O-O" {
        return castles && to.file() < from.file();
    }
    if long == "O-O" {
        return castles && to.file() > from.file();
    }
    if castles {
        return false;
    }
    // Promotion: `e8=Q` or `e8Q`.
    let (body, promo) = match s.split_once('=') {
        Some((b, p)) => (b, p.chars().next()),
        None => match s.chars().last() {
            Some(c) if "QRBN".contains(c) && s.len() > 2 => (&s[..s.len() - 1], Some(c)),
            _ => (s, None),
        },
    };
    if promo.map(|c| c.to_ascii_uppercase()) != mv.promotion().map(|c| c.to_ascii_uppercase()) {
        return false;
    }
    if body.len() < 2 || !body.is_char_boundary(body.len() - 2) {
        return false;
    }
    let (head, target) = body.split_at(body.len() - 2);
    if target != to.to_string() {
        return false;
    }
    let mut rest = head.chars().peekable();
    let piece = match rest.peek() {
        Some(&c) if "KQRBN".contains(c) => {
            rest.next();
            c
        }
        _ => 'P',
    };
    if mover != Some(piece) {
        return false;
    }
    for c in rest {
        match c {
            'x' | ':' => {}
            'a'..='z' if (c as u8 - b'a') as usize != from.file() => return false,
            '1'..='9' if c.to_digit(10).map(|d| d as i32) != Some(from.rank()) => return false,
            'a'..='z' | '1'..='9' => {}
            _ => return false,
        }
    }
    true
}

/// Whether the move solves the case: one of the `bm` moves, and none of the `am` ones.
pub fn solves(case: &EpdCase, mv: &Move) -> bool {
    let is = |list: &[String]| list.iter().any(|s| san_matches(&case.board, mv, s));
    (case.best.is_empty() || is(&case.best)) && !is(&case.avoid)
}

/// Runs `spec` on every case at `nodes` per search, each from a fresh game (cleared
/// tables, so every search is reproducible on its own), and prints the solved count.
pub fn run(variant: Variant, epd: &[String], nodes: u64, spec: &str, verbose: bool) -> Result<(), Error> {
    let spec = EngineSpec::parse(spec).map_err(Error::Engine)?;
    let mut player = spec.player(variant, &Limits::nodes(nodes), None).map_err(Error::Engine)?;
    let (mut total, mut solved, mut searched) = (0usize, 0usize, 0u64);
    let started = Instant::now();
    for path in epd {
        let text = std::fs::read_to_string(path).map_err(|e| Error::Usage(format!("{path}: {e}")))?;
        let cases = read_epd(variant, &text)?;
        let mut here = 0;
        for case in &cases {
            player.new_game().map_err(|e| Error::Engine(format!("{}: {e:?}", case.id)))?;
            let choice = player
                .choose(&case.board, &[], &case.board, &[])
                .map_err(|e| Error::Engine(format!("{} ({}): {e:?}", case.id, case.board.fen())))?;
            let mv = case.board.parse_move(&choice.mv)?;
            let ok = solves(case, &mv);
            here += ok as usize;
            searched += choice.nodes;
            if verbose {
                let want = if case.best.is_empty() {
                    format!("am {}", case.avoid.join(" "))
                } else {
                    format!("bm {}", case.best.join(" "))
                };
                println!("{:<12} {:<4} {:<7} {want}", case.id, if ok { "ok" } else { "MISS" }, choice.mv);
            }
        }
        println!("{path}: {here} / {} solved at {nodes} nodes ({})", cases.len(), spec.name);
        total += cases.len();
        solved += here;
    }
    println!(
        "total: {solved} / {total} solved ({:.1} %) at {nodes} nodes by {}; {} nodes reported, {:.1} s",
        100.0 * solved as f64 / total.max(1) as f64,
        spec.name,
        searched,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(fen: &str, san: &str, uci: &str) -> bool {
        let v = Variant::load("chess", &[]).unwrap();
        let b = v.parse_fen(fen).unwrap();
        let m = b.parse_move(uci).unwrap();
        san_matches(&b, &m, san)
    }

    #[test]
    fn san_of_pieces_pawns_castling_and_promotion() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert!(case(start, "Nf3", "g1f3"));
        assert!(!case(start, "Nf3", "g1h3"));
        assert!(case(start, "e4", "e2e4"));
        assert!(!case(start, "e4", "e2e3"));
        let castle = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
        assert!(case(castle, "O-O", "e1g1"));
        assert!(case(castle, "O-O-O+", "e1c1"));
        assert!(!case(castle, "O-O", "e1c1"));
        let promo = "8/P6k/8/8/8/8/8/K7 w - - 0 1";
        assert!(case(promo, "a8=Q+", "a7a8q"));
        assert!(!case(promo, "a8=Q", "a7a8n"));
        // Two rooks can reach d1: the file decides.
        let two = "7k/8/8/8/8/8/8/R4RK1 w - - 0 1";
        assert!(case(two, "Rad1", "a1d1"));
        assert!(!case(two, "Rad1", "f1d1"));
        assert!(case("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", "Qg6", "g3g6"));
        assert!(case("8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - 0 1", "Rxb2", "b3b2"));
    }
}
