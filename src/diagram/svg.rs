//! A board as SVG: the variant's own squares (holes and hangars as the geometry has them),
//! the pieces as lettered discs, and the marks of one piece's moves.

use crate::{Board, Square, Variant};
use std::fmt::Write;

const CELL: usize = 48;
const MARGIN: usize = 22;
const TITLE: usize = 28;
const LEGEND: usize = 30;

/// What a moves diagram marks, by square.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Marks {
    /// The square the piece moves from.
    pub from: Option<Square>,
    /// Quiet moves' destinations.
    pub quiet: Vec<Square>,
    /// Captures that land on their victim.
    pub capture: Vec<Square>,
    /// Where a capture lands when its victim stands elsewhere (overtaking, helicopter).
    pub landing: Vec<Square>,
    /// Pieces a capture removes from a square it does not land on.
    pub victims: Vec<Square>,
}

impl Marks {
    fn is_empty(&self) -> bool {
        self.quiet.is_empty() && self.capture.is_empty() && self.landing.is_empty() && self.victims.is_empty()
    }
}

/// The board's squares with their drawing position (column, row from the top).
fn cells(v: Variant) -> Vec<(Square, usize, usize)> {
    let (files, ranks) = v.board_size();
    let mut out = vec![];
    for r in 0..ranks {
        for f in 0..files {
            if let Some(sq) = v.square_at(f, r) {
                out.push((sq, f, ranks - 1 - r));
            }
        }
    }
    out
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A piece as a lettered disc centred on (`cx`, `cy`): white discs for White.
fn disc(cx: i64, cy: i64, p: char) -> String {
    let (fill, ink) = if p.is_ascii_uppercase() { ("#fdfdfd", "#222") } else { ("#222", "#fdfdfd") };
    format!(
        r##"<circle cx="{cx}" cy="{cy}" r="18" fill="{fill}" stroke="#222" stroke-width="1.5"/><text x="{cx}" y="{}" font-size="20" font-weight="bold" text-anchor="middle" fill="{ink}">{}</text>"##,
        cy + 7,
        p.to_ascii_uppercase()
    )
}

/// A board for a game viewer: `board` drawn as [`render`] draws it, plus every piece of
/// the variant in both colours as a definition centred on the origin (`{prefix}-w{L}`,
/// `{prefix}-b{L}`), which the viewer places square by square.
pub fn viewer_board(board: &Board, title: &str, prefix: &str) -> String {
    let svg = render(board, &Marks::default(), title);
    let mut defs = String::from("<defs>");
    for k in board.variant().piece_kinds() {
        for (side, letter) in [('w', k.letter), ('b', k.letter.to_ascii_lowercase())] {
            let _ = write!(defs, r#"<g id="{prefix}-{side}{}">{}</g>"#, k.letter, disc(0, 0, letter));
        }
    }
    defs += "</defs>";
    match svg.find('>') {
        Some(i) => format!("{}{defs}{}", &svg[..=i], &svg[i + 1..]),
        None => svg,
    }
}

/// The SVG of `board` with `marks`, under `title`.
pub fn render(board: &Board, marks: &Marks, title: &str) -> String {
    let v = board.variant();
    let (files, ranks) = v.board_size();
    let legend = if marks.is_empty() { 0 } else { LEGEND };
    // Wide enough for the title and the legend, whichever is widest (about 8 px a letter).
    let text = (title.chars().count() * 8).max(if legend > 0 { 470 } else { 0 });
    let (w, h) = ((2 * MARGIN + files * CELL).max(MARGIN + text), TITLE + 2 * MARGIN + ranks * CELL + legend);
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#
    );
    let _ = write!(s, r#"<title>{}</title><rect width="{w}" height="{h}" fill="white"/>"#, escape(title));
    let _ = write!(
        s,
        r##"<text x="{MARGIN}" y="19" font-size="15" font-weight="bold" fill="#222">{}</text>"##,
        escape(title)
    );
    let at = |col: usize, row: usize| (MARGIN + col * CELL, TITLE + MARGIN + row * CELL);
    let cells = cells(v);
    for &(sq, col, row) in &cells {
        let (x, y) = at(col, row);
        // a1 is dark: the file index and the rank number have opposite parity there.
        let dark = (sq.file() as i32 + sq.rank()).rem_euclid(2) == 1;
        let fill = if dark { "#b58863" } else { "#f0d9b5" };
        let _ = write!(s, r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" data-square="{sq}"/>"#);
        if marks.from == Some(sq) {
            let _ =
                write!(s, r##"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#f7ec74" opacity="0.7"/>"##);
        }
    }
    // Coordinates: files under the bottom row, rank numbers left of each row.
    for f in 0..files {
        let (x, _) = at(f, 0);
        let y = TITLE + MARGIN + ranks * CELL + 15;
        let _ = write!(
            s,
            r##"<text x="{}" y="{y}" font-size="12" text-anchor="middle" fill="#555">{}</text>"##,
            x + CELL / 2,
            (b'a' + f as u8) as char
        );
    }
    for &(sq, col, row) in &cells {
        if col == cells.iter().filter(|c| c.2 == row).map(|c| c.1).min().unwrap_or(0) {
            let (x, y) = at(col, row);
            let _ = write!(
                s,
                r##"<text x="{}" y="{}" font-size="12" text-anchor="end" fill="#555">{}</text>"##,
                x - 4,
                y + CELL / 2 + 4,
                sq.rank()
            );
        }
    }
    // Layers a game viewer redraws: the last move's squares under the pieces, the pieces,
    // and the marks over them.
    s += r#"<g data-layer="last"></g><g data-layer="pieces">"#;
    for &(sq, col, row) in &cells {
        let (x, y) = at(col, row);
        if let Some(p) = board.piece_at(&sq.to_string()) {
            s += &disc((x + CELL / 2) as i64, (y + CELL / 2) as i64, p);
        }
    }
    s += r#"</g><g data-layer="marks">"#;
    for &(sq, col, row) in &cells {
        let (x, y) = at(col, row);
        let (cx, cy) = (x + CELL / 2, y + CELL / 2);
        if marks.quiet.contains(&sq) {
            let _ = write!(s, r##"<circle cx="{cx}" cy="{cy}" r="7" fill="#2e8b57" data-mark="quiet"/>"##);
        }
        if marks.capture.contains(&sq) {
            let _ = write!(
                s,
                r##"<circle cx="{cx}" cy="{cy}" r="21" fill="none" stroke="#c0392b" stroke-width="4" data-mark="capture"/>"##
            );
        }
        if marks.landing.contains(&sq) {
            let _ = write!(
                s,
                r##"<circle cx="{cx}" cy="{cy}" r="9" fill="#e67e22" stroke="#7a3d00" stroke-width="1.5" data-mark="landing"/>"##
            );
        }
        if marks.victims.contains(&sq) {
            let d = 15;
            let _ = write!(
                s,
                r##"<path d="M{} {} L{} {} M{} {} L{} {}" stroke="#c0392b" stroke-width="5" stroke-linecap="round" data-mark="victim"/>"##,
                cx - d,
                cy - d,
                cx + d,
                cy + d,
                cx - d,
                cy + d,
                cx + d,
                cy - d
            );
        }
    }
    s += "</g>";
    if legend > 0 {
        let y = TITLE + 2 * MARGIN + ranks * CELL + 12;
        let _ = write!(
            s,
            r##"<g font-size="12" fill="#222"><circle cx="{}" cy="{}" r="6" fill="#2e8b57"/><text x="{}" y="{}">quiet move</text><circle cx="{}" cy="{}" r="8" fill="none" stroke="#c0392b" stroke-width="3"/><text x="{}" y="{}">capture</text><circle cx="{}" cy="{}" r="7" fill="#e67e22"/><text x="{}" y="{}">lands after capturing elsewhere</text><text x="{}" y="{}" fill="#c0392b" font-weight="bold">✕</text><text x="{}" y="{}">removed</text></g>"##,
            MARGIN + 6,
            y - 4,
            MARGIN + 16,
            y,
            MARGIN + 100,
            y - 4,
            MARGIN + 112,
            y,
            MARGIN + 180,
            y - 4,
            MARGIN + 192,
            y,
            MARGIN + 390,
            y,
            MARGIN + 404,
            y
        );
    }
    s += "</svg>\n";
    s
}
