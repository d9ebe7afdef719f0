//! The report's games on its pages: a section of report.md linking each game's PGN, and in
//! report.html a board to step through each game (buttons, arrow keys, or `#game-N-ply-M`
//! in the address), the engine's score after each move and the PGN beside it. Every
//! position comes from replaying the game under the variant's rules here; the page's
//! script only places the pieces it is given.

use super::showcase::{Showcase, ShownGame};
use super::ReportData;
use crate::diagram::live::{self, Frame, DRAW_JS};
use crate::diagram::svg::viewer_board;
use crate::games::pgn::{write_game, PgnGameOut};
use crate::games::replay::{replay, Ply};
use crate::search::MATE_BOUND;
use crate::Variant;
use serde::Serialize;

/// The PGN file of the `i`-th game (from 1), relative to the report folder.
pub fn pgn_file(i: usize) -> String {
    format!("games/game-{i}.pgn")
}

/// A score from White's view in pawns, or who mates.
fn score_text(s: Option<i32>) -> String {
    match s {
        None => "no score".into(),
        Some(s) if s >= MATE_BOUND => "White mates".into(),
        Some(s) if s <= -MATE_BOUND => "Black mates".into(),
        Some(s) => format!("{:+.2}", s as f64 / 100.0),
    }
}

fn replayed(d: &ReportData, g: &ShownGame) -> Option<(Variant, Vec<Ply>)> {
    let v = Variant::load_with(&d.variant, &d.options).ok()?;
    let start = v.parse_fen(&g.start_fen).ok()?;
    Some((v, replay(&start, &g.moves).ok()?))
}

/// Each move's comment: the engine's score after it, and the squares a capture emptied
/// besides its landing square.
fn comments(g: &ShownGame, plies: &[Ply]) -> Vec<String> {
    plies
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let score = score_text(g.scores.get(i).copied().flatten());
            let note = p.removal_note();
            if note.is_empty() {
                score
            } else {
                format!("{score}; {note}")
            }
        })
        .collect()
}

/// The `i`-th game (from 1) as PGN, each move commented; None when the game no longer
/// replays under the variant's rules.
pub fn pgn(d: &ReportData, i: usize, g: &ShownGame) -> Option<String> {
    let (_, plies) = replayed(d, g)?;
    let round = i.to_string();
    let event = format!("fairylab report: {}", d.title);
    Some(write_game(&PgnGameOut {
        event: &event,
        round: &round,
        white: &g.white,
        black: &g.black,
        variant: &d.variant,
        options: &d.options,
        start_fen: &g.start_fen,
        moves: &g.moves,
        comments: &comments(g, &plies),
        result: &g.result,
        termination: &g.termination,
    }))
}

/// The games' PGN files: (path under the report folder, text).
pub fn files(d: &ReportData) -> Vec<(String, String)> {
    let Some(s) = &d.games else { return vec![] };
    s.games.iter().enumerate().filter_map(|(i, g)| Some((pgn_file(i + 1), pgn(d, i + 1, g)?))).collect()
}

fn title(g: &ShownGame) -> String {
    format!("{} (White) against {} (Black), {}", g.white, g.black, g.result)
}

/// The games' section of report.md.
pub fn markdown(d: &ReportData) -> String {
    let Some(Showcase { rule, games }) = &d.games else { return String::new() };
    if games.is_empty() {
        return String::new();
    }
    let mut s = String::from("## Games behind the figures\n\n");
    s += &format!(
        "**{} of the report's own self-play games, to step through in report.html with the engine's score after each move.**\n\n",
        games.len()
    );
    s += &format!("{rule}\n\n");
    s += "Moves are in machine notation (start square, landing square); in the PGN each move's comment gives the engine's score after it (pawns, White's view) and, for a capture that removes pieces off its landing square (overtaking, double capture, en passant), the squares it emptied.\n\n";
    for (i, g) in games.iter().enumerate() {
        s += &format!(
            "{}. [Game {}]({}): {}; `{}` game {}. {}.\n",
            i + 1,
            i + 1,
            pgn_file(i + 1),
            title(g),
            g.run,
            g.game_id,
            g.why
        );
    }
    s += "\n";
    s
}

/// One step of the viewer: the frame, the move's label and the score after it.
#[derive(Serialize)]
struct Step {
    #[serde(flatten)]
    frame: Frame,
    m: String,
    s: String,
}

fn steps(g: &ShownGame, start: &crate::Board, plies: &[Ply]) -> Vec<Step> {
    let black_first = g.start_fen.split_whitespace().nth(1) == Some("b");
    let first: usize = g.start_fen.split_whitespace().nth(5).and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut out = vec![Step { frame: live::frame(start, None), m: "start position".into(), s: String::new() }];
    for (i, p) in plies.iter().enumerate() {
        let half = i + usize::from(black_first);
        let number = first + half / 2;
        let dots = if half % 2 == 0 { "." } else { "..." };
        let note = p.removal_note();
        let note = if note.is_empty() { String::new() } else { format!(" ({note})") };
        out.push(Step {
            frame: live::frame(&p.after, Some(p)),
            m: format!("{number}{dots} {}{note}", p.text),
            s: format!("engine's score after it: {} (White's view)", score_text(g.scores.get(i).copied().flatten())),
        });
    }
    out
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The viewers of report.html, put under the games' section; empty without games.
pub fn html(d: &ReportData) -> String {
    let Some(Showcase { games, .. }) = &d.games else { return String::new() };
    let mut out = String::new();
    for (i, g) in games.iter().enumerate() {
        let n = i + 1;
        let Some((v, plies)) = replayed(d, g) else {
            out += &format!("<p>Game {n} no longer replays under the variant's rules, so it is not shown.</p>");
            continue;
        };
        let Ok(start) = v.parse_fen(&g.start_fen) else { continue };
        let json = serde_json::to_string(&steps(g, &start, &plies)).unwrap_or_else(|_| "[]".into());
        let board = viewer_board(&start, &format!("Game {n}: {}", title(g)), &format!("g{n}"));
        let pgn = pgn(d, n, g).unwrap_or_default();
        out += &format!(
            r#"<div class="game" id="game-{n}" data-game="{n}" data-ply="0" tabindex="0"><div class="gboard">{board}</div><div class="gside"><div class="gctl"><button data-go="first" title="Home">« first</button> <button data-go="prev" title="←">‹ back</button> <button data-go="next" title="→">next ›</button> <button data-go="last" title="End">last »</button></div><p class="gmove">start position</p><p class="gscore"></p><pre class="pgn">{}</pre></div><script type="application/json" class="steps">{}</script></div>"#,
            escape(&pgn),
            json.replace("</", "<\\/")
        );
    }
    if out.is_empty() {
        return out;
    }
    out += "<style>.game{display:flex;flex-wrap:wrap;gap:1em;margin:1em 0;outline:none}.game svg{max-width:520px;height:auto;margin:0}.gside{flex:1;min-width:260px}.gctl button{font-size:1em}.gmove{font-weight:bold}pre.pgn{white-space:pre-wrap;overflow-wrap:anywhere;font-size:0.8em;max-height:320px;overflow:auto;background:#f7f7f7;padding:0.5em}</style>";
    out += &format!("<script>{DRAW_JS}{VIEWER_JS}</script>");
    out
}

/// Steps through each game: buttons, arrow keys on a focused viewer, and a
/// `#game-N-ply-M` address, which also lets a headless browser open any position.
const VIEWER_JS: &str = r#"(function(){
var G=[].slice.call(document.querySelectorAll('.game'));
G.forEach(function(g){g.steps=JSON.parse(g.querySelector('.steps').textContent);g.svg=g.querySelector('svg');
g.go=function(i){i=Math.max(0,Math.min(g.steps.length-1,i));var s=g.steps[i];flDraw(g.svg,'g'+g.dataset.game,s);
g.dataset.ply=i;g.querySelector('.gmove').textContent=(i?'Ply '+i+': ':'')+s.m;g.querySelector('.gscore').textContent=s.s;};
g.querySelectorAll('button').forEach(function(b){b.onclick=function(){var i=+g.dataset.ply,L=g.steps.length-1;
g.go({first:0,prev:i-1,next:i+1,last:L}[b.dataset.go]);g.focus();};});
g.onkeydown=function(e){var i=+g.dataset.ply,k={ArrowLeft:i-1,ArrowRight:i+1,Home:0,End:g.steps.length-1}[e.key];
if(k!==undefined){g.go(k);e.preventDefault();}};g.go(0);});
function hash(){var m=/^#game-(\d+)(?:-ply-(\d+))?$/.exec(location.hash);if(!m)return;var g=document.getElementById('game-'+m[1]);
if(g){g.go(+(m[2]||0));g.scrollIntoView();}}
window.addEventListener('hashchange',hash);hash();})();
"#;
