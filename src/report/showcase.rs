//! The games behind a report's figures: a few of its self-play games, chosen by a rule the
//! page states, to show the headline piece at work. Kept in report.json (moves and the
//! engine's scores), so the pages can be written again without the run folders.

use super::ReportError;
use crate::diagram::{self, Placement};
use crate::games::replay::{replay, Ply};
use crate::tournament::output::{self, GameRow};
use crate::Variant;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// How many games a report keeps, besides one per setup pairing.
const KEPT: usize = 3;

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Showcase {
    /// The rule the games were chosen by, as the page states it.
    pub rule: String,
    pub games: Vec<ShownGame>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ShownGame {
    /// What the rule found in this game.
    pub why: String,
    /// The run folder under `runs/` and the game's id in it.
    pub run: String,
    pub game_id: u64,
    pub white: String,
    pub black: String,
    pub start_fen: String,
    pub moves: Vec<String>,
    /// The mover's score after each move, in centipawns from White's view (None where the
    /// player reported none).
    pub scores: Vec<Option<i32>>,
    pub result: String,
    pub termination: String,
}

/// What a game shows of the headline piece.
#[derive(Default)]
struct Seen {
    /// Plies (from 1) of the piece's overtaking and double captures.
    overtaking: Vec<usize>,
    double: Vec<usize>,
    /// Plies where a headline piece was taken.
    taken: Vec<usize>,
}

fn seen(plies: &[Ply], letter: char) -> Seen {
    let mut s = Seen::default();
    for (i, p) in plies.iter().enumerate() {
        let mine = p.piece.eq_ignore_ascii_case(&letter);
        if mine && p.overtakes() {
            s.overtaking.push(i + 1);
        }
        if mine && p.double() {
            s.double.push(i + 1);
        }
        if p.taken.iter().any(|(_, c)| c.eq_ignore_ascii_case(&letter)) {
            s.taken.push(i + 1);
        }
    }
    s
}

fn plies_text(list: &[usize]) -> String {
    let l: Vec<String> = list.iter().map(|p| p.to_string()).collect();
    format!("ply {}", l.join(", "))
}

/// A candidate: where it came from, its row and what it shows.
struct Candidate {
    run: String,
    row: GameRow,
    seen: Seen,
}

impl Candidate {
    fn decisive(&self) -> bool {
        self.row.result != "1/2-1/2"
    }

    fn ending(&self) -> String {
        format!("{} by {} after {} plies", self.row.result, self.row.termination, self.row.plies)
    }
}

/// The report's own self-play games: the balance runs from the start position, then the
/// regression's games from positions with material removed.
fn pool(variant: Variant, runs: &Path, nodes: &[u64], letter: char) -> Result<Vec<Candidate>, ReportError> {
    let mut folders: Vec<String> = nodes.iter().map(|n| format!("balance-{n}")).collect();
    folders.push("values/regress".into());
    let mut out = vec![];
    for run in folders {
        let dir = runs.join(&run);
        if !dir.join("games.csv").is_file() {
            continue;
        }
        for row in output::read_games(&dir).map_err(ReportError::Games)? {
            let Some(plies) = replayed(variant, &row) else { continue };
            out.push(Candidate { run: run.clone(), seen: seen(&plies, letter), row });
        }
    }
    Ok(out)
}

fn replayed(variant: Variant, row: &GameRow) -> Option<Vec<Ply>> {
    let start = variant.parse_fen(&row.opening).ok()?;
    let moves: Vec<String> = row.moves.split_whitespace().map(String::from).collect();
    replay(&start, &moves).ok()
}

/// The kept game with its scores from the run's positions.
fn shown(runs: &Path, c: &Candidate, why: String) -> Result<ShownGame, ReportError> {
    let positions = output::read_positions(&runs.join(&c.run)).map_err(ReportError::Games)?;
    let moves: Vec<String> = c.row.moves.split_whitespace().map(String::from).collect();
    let mut scores = vec![None; moves.len()];
    for p in positions.iter().filter(|p| p.game_id == c.row.game_id) {
        if let Some(s) = scores.get_mut(p.ply as usize) {
            *s = p.score_white;
        }
    }
    Ok(ShownGame {
        why,
        run: c.run.clone(),
        game_id: c.row.game_id,
        white: c.row.white.clone(),
        black: c.row.black.clone(),
        start_fen: c.row.opening.clone(),
        moves,
        scores,
        result: c.row.result.clone(),
        termination: c.row.termination.clone(),
    })
}

/// The piece the report is about: the first of its headline comparison, else the first
/// piece the orthodox game lacks, else the strongest-looking orthodox one (the queen).
fn headline_piece(v: Variant) -> Option<(char, String)> {
    let kinds = v.piece_kinds();
    let name = |l: char| kinds.iter().find(|k| k.letter == l).map(|k| (l, k.name.to_string()));
    v.headline()
        .first()
        .and_then(|h| name(h.0))
        .or_else(|| kinds.iter().find(|k| !k.royal && !k.pawn && k.orthodox.is_none()).and_then(|k| name(k.letter)))
        .or_else(|| name('Q'))
}

/// Chooses the report's games from its run folders (`runs`), by the variant's rule.
pub fn choose(variant: Variant, runs: &Path, nodes: &[u64]) -> Result<Option<Showcase>, ReportError> {
    if !variant.setup_choices().is_empty() {
        return setup_games(variant, runs).map(Some);
    }
    let Some((letter, name)) = headline_piece(variant) else { return Ok(None) };
    let mut pool = pool(variant, runs, nodes, letter)?;
    // Whether the piece can land away from what it takes (the bomber) is read from its
    // moves diagram, i.e. from the rules, not from the games.
    let lands_away = diagram::piece_moves(variant, &Placement::Demo(letter))
        .is_ok_and(|(_, m)| !m.landing.is_empty() || !m.victims.is_empty());
    let (rule, games) = if lands_away {
        pool.sort_by_key(|c| {
            let (o, d) = (c.seen.overtaking.len(), c.seen.double.len());
            let from_start = c.run.starts_with("balance");
            // The run and game id last: rows are written as games finish, so without them
            // ties would follow the scheduling (sharded and unsharded runs differ there).
            (
                std::cmp::Reverse((o > 0 && d > 0, from_start, o + d, c.decisive())),
                c.row.plies,
                c.run.clone(),
                c.row.game_id,
            )
        });
        let rule = format!(
            "The games of the balance runs (from the start position) and of the regression (from positions with material removed) in which a {name} ({letter}) made both an overtaking capture and a double capture come first, those from the start position before the regression's, then those with most such captures; then the same for games with either; decisive games before draws, then the shortest. The first {KEPT} are kept."
        );
        let games = pool.iter().take(KEPT).map(|c| {
            let mut parts = vec![];
            if !c.seen.overtaking.is_empty() {
                parts.push(format!("overtaking captures at {}", plies_text(&c.seen.overtaking)));
            }
            if !c.seen.double.is_empty() {
                parts.push(format!("double captures at {}", plies_text(&c.seen.double)));
            }
            let what = if parts.is_empty() {
                format!("no {name} landed away from its victim here (no game had more)")
            } else {
                format!("{name}: {}", parts.join("; "))
            };
            (c, format!("{what}; {}", c.ending()))
        });
        (rule, games.collect::<Vec<_>>())
    } else {
        pool.sort_by_key(|c| {
            (std::cmp::Reverse((c.decisive(), c.seen.taken.len())), c.row.plies, c.run.clone(), c.row.game_id)
        });
        let rule = format!(
            "The games of the balance runs (from the start position) and of the regression (from positions with material removed) that were decided, those in which most {name}s ({letter}) were captured first, then the shortest. The first {KEPT} are kept."
        );
        let games = pool.iter().take(KEPT).map(|c| {
            let what = if c.seen.taken.is_empty() {
                format!("no {name} captured")
            } else {
                format!("{name} captured at {}", plies_text(&c.seen.taken))
            };
            (c, format!("{what}; {}", c.ending()))
        });
        (rule, games.collect::<Vec<_>>())
    };
    let games = games.into_iter().map(|(c, why)| shown(runs, c, why)).collect::<Result<Vec<_>, _>>()?;
    Ok((!games.is_empty()).then_some(Showcase { rule, games }))
}

/// One game per setup pairing: the shortest decisive one, else the first.
fn setup_games(variant: Variant, runs: &Path) -> Result<Showcase, ReportError> {
    let choices = variant.setup_choices();
    let mut games = vec![];
    for w in &choices {
        for b in &choices {
            let run = format!("setup-{w}-{b}");
            let dir = runs.join(&run);
            if !dir.join("games.csv").is_file() {
                continue;
            }
            let rows = output::read_games(&dir).map_err(ReportError::Games)?;
            let pick = rows
                .iter()
                .filter(|r| r.result != "1/2-1/2")
                .min_by_key(|r| (r.plies, r.game_id))
                .or_else(|| rows.iter().min_by_key(|r| r.game_id));
            if let Some(row) = pick {
                let c = Candidate { run: run.clone(), row: row.clone(), seen: Seen::default() };
                let why = format!("White chose {w}, Black {b}; {}", c.ending());
                games.push(shown(runs, &c, why)?);
            }
        }
    }
    Ok(Showcase {
        rule: "One game for each pairing of White's setup choice with Black's: the shortest decided game of that pairing's run, else its first game.".into(),
        games,
    })
}
