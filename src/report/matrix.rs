//! The setup matrix (Bland Chess 46) read as a game between the two players' choices:
//! each side's best worst case, and whether the data can tell it from the next best.

use super::figures::Interval;
use super::verdict::{separated, NOT_ENOUGH};
use super::{SetupCell, SetupMatrix};
use std::cmp::Ordering;

pub fn cell<'a>(m: &'a SetupMatrix, white: &str, black: &str) -> Option<&'a SetupCell> {
    m.cells.iter().find(|c| c.white == white && c.black == black)
}

/// One side's choices ranked by their worst case, best first, each with the cell where the
/// worst case happens. White's worst case is its lowest score; Black's is White's highest.
pub fn ranked(m: &SetupMatrix, white: bool) -> Vec<(&str, &SetupCell)> {
    let mut out: Vec<(&str, &SetupCell)> = m
        .choices
        .iter()
        .filter_map(|mine| {
            // Cells without enough games cannot say what a choice's worst case is.
            let cells = m
                .cells
                .iter()
                .filter(|c| if white { &c.white == mine } else { &c.black == mine })
                .filter(|c| c.white_score.is_defined());
            let worst = if white {
                cells.min_by(|a, b| a.white_score.value.total_cmp(&b.white_score.value))
            } else {
                cells.max_by(|a, b| a.white_score.value.total_cmp(&b.white_score.value))
            };
            Some((mine.as_str(), worst?))
        })
        .collect();
    out.sort_by(|a, b| {
        let o = a.1.white_score.value.total_cmp(&b.1.white_score.value);
        if white {
            o.reverse()
        } else {
            o
        }
    });
    out
}

/// A side's choice with the best worst case over the other side's choices, and that White
/// score (White's worst case is its lowest score, Black's White's highest); the first such
/// choice on ties. Cells without enough games (NaN) are left out of the worst cases; None
/// when no cell has enough.
pub fn maximin(choices: &[String], cells: &[SetupCell], white: bool) -> Option<(String, f64)> {
    let score = |w: &str, b: &str| {
        cells.iter().find(|c| c.white == w && c.black == b).map_or(f64::NAN, |c| c.white_score.value)
    };
    // f64::min and f64::max skip NaN; a choice with no defined cell stays infinite.
    let worst = |mine: &String| {
        let scores = choices.iter().map(|o| if white { score(mine, o) } else { score(o, mine) });
        let w = if white { scores.fold(f64::INFINITY, f64::min) } else { scores.fold(f64::NEG_INFINITY, f64::max) };
        w.is_finite().then(|| (mine.clone(), w))
    };
    let better = |x: f64, y: f64| if white { x > y } else { x < y };
    choices.iter().filter_map(worst).reduce(|a, x| if better(x.1, a.1) { x } else { a })
}

fn score(i: &Interval) -> String {
    format!("{:.2} [{:.2}, {:.2}]", i.value, i.low, i.high)
}

/// Whether one side's best choice stands out from its runner-up, in words.
pub fn side_verdict(m: &SetupMatrix, white: bool) -> String {
    let side = if white { "White" } else { "Black" };
    let r = ranked(m, white);
    let (Some(best), Some(next)) = (r.first(), r.get(1)) else {
        return format!("{side}: {NOT_ENOUGH} (fewer than two choices with enough games).");
    };
    let (a, b) = (&best.1.white_score, &next.1.white_score);
    let worst = |x: &(&str, &SetupCell)| {
        let other = if white { &x.1.black } else { &x.1.white };
        format!("`{}` (worst case {} against `{other}`)", x.0, score(&x.1.white_score))
    };
    // For Black a better worst case is a lower White score, so "better" flips.
    let better = if white { Ordering::Greater } else { Ordering::Less };
    match separated(a, b) {
        None => format!("{side}'s best choice: {NOT_ENOUGH} (a cell's interval is undefined)."),
        Some(o) if o == better => format!(
            "{side}'s best choice {} is distinguishable from the runner-up {}: the intervals do not overlap.",
            worst(best),
            worst(next)
        ),
        Some(_) => format!(
            "{side}'s best choice by worst case, {}, cannot be told from the runner-up {}: the intervals overlap.",
            worst(best),
            worst(next)
        ),
    }
}

/// The section's opening sentence.
pub fn verdict(m: &SetupMatrix) -> String {
    let games = m.cells.iter().map(|c| c.games).min().unwrap_or(0);
    format!(
        "{} {} (At least {games} games per cell; scores are White's, 95 % intervals over game pairs.)",
        side_verdict(m, true),
        side_verdict(m, false)
    )
}

/// Heat colour of a White score: white at 0.5, blue towards White wins, red towards Black.
pub fn heat(score: f64) -> String {
    if !score.is_finite() {
        return "#eeeeee".into();
    }
    let t = ((score - 0.5) * 2.0).clamp(-1.0, 1.0);
    let fade = |full: f64| (255.0 - (255.0 - full) * t.abs()).round() as u8;
    if t >= 0.0 {
        format!("#{:02x}{:02x}{:02x}", fade(70.0), fade(130.0), 255)
    } else {
        format!("#{:02x}{:02x}{:02x}", 255, fade(90.0), fade(80.0))
    }
}
