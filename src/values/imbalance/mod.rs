//! Estimator 2: imbalance matches (H. G. Muller's method). For a comparison `X=Y` two
//! copies of the engine play from the start position where one side lacks Y (so it keeps
//! X) and the other lacks X; the score of the side with X, converted to pawns through a
//! pawn-odds calibration match, is `value(X) - value(Y)`.
//!
//! Colours: with identical engines, swapping the *engines* between two games changes
//! nothing (the same game is replayed, and the imbalance stays with White's pieces), so
//! here the *imbalance* swaps instead. Pair `k` of a match is two games from openings with
//! the same random-ply seed `k`: in the first White has X and Black has Y, in the second
//! White has Y and Black has X. The measured quantity is the score of the side with X over
//! both games of each pair, so White's first-move advantage cancels within every pair, and
//! the pair is the statistical unit (pentanomial variance). Diversity comes from the
//! seeded random plies after the pieces are removed.
//!
//! The calibration match is the same with X = one pawn (the f-pawn by default) and Y =
//! nothing: the side with the pawn scores `s`, and `elo(s)` is the worth of a pawn.
//!
//! Local pricing: with `Settings::bracket` each comparison is then played again with k
//! pawns added to Y's side around its estimate and priced where the score is even
//! (`bracketing`), in pawns of its own material context and engine configuration; with
//! `Settings::scale_check` the pawn-odds match is replayed under each comparison's
//! neutral weights (`scale_check`, see `values::weights` on one configuration per study).
//!
//! Sequential stopping: matches are played in batches of pairs; after each batch every
//! comparison's 95 % interval in pawns (with the calibration's error inside) is checked and
//! a comparison whose half-width is at most `precision` stops. The calibration plays on
//! while any comparison does. Looking after every batch makes the nominal 95 % slightly
//! optimistic (the usual cost of optional stopping); `min_pairs` and batch sizes of 50+
//! pairs keep the number of looks small.

pub mod bracket;
pub mod bracketing;
pub mod calibration;
pub mod combine;
mod matches;
pub mod scale_check;
pub mod starts;

use crate::stats::interval::MIN_GAMES;
use crate::stats::Pentanomial;
use crate::values::pieces::Pieces;
use crate::values::weights;
use crate::values::ValuesError;
use calibration::{elo, in_pawns, pair_score, Measure};
use combine::{combine, Combined, Equation};
pub use matches::{per_pawn, MatchResult, Settings};
use matches::{slug, Match};
use std::path::PathBuf;

#[derive(Clone, Debug)]
pub struct ImbalanceResult {
    pub calibration: MatchResult,
    /// Pawns each side gives in the calibration match.
    pub calibration_pawns: u32,
    pub comparisons: Vec<MatchResult>,
    pub combined: Result<Combined, ValuesError>,
    /// Piece letters in the order of `Combined::values`.
    pub letters: Vec<char>,
    /// Matches with a finite result that went into the combination.
    pub equations: usize,
    /// Run directories of the matches (calibration first), for reuse by the regression.
    pub dirs: Vec<PathBuf>,
    /// Each comparison priced by its own bracket (with `Settings::bracket`).
    pub brackets: Vec<bracketing::Priced>,
    /// The bracketed differences combined into piece values (two or more priced).
    pub bracket_combined: Option<Result<Combined, ValuesError>>,
    /// Whether neutral weights move the Elo of a pawn (with `Settings::scale_check`).
    pub scale_check: Option<scale_check::ScaleCheck>,
}

/// The calibration squares must hold pawns only, as many of White's as of Black's: a
/// calibration with another piece would silently change the unit. Returns how many pawns
/// each side gives (on a large board one pawn moves the score too little to measure).
fn check_calibration(pieces: &Pieces, start: &crate::Board, squares: &(String, String)) -> Result<u32, ValuesError> {
    let fail =
        |why: String| ValuesError::Calibration(format!("calibration squares {}={}: {why}", squares.0, squares.1));
    let after = start.without(0, &squares.0).and_then(|b| b.without(1, &squares.1)).map_err(|e| fail(e.to_string()))?;
    let mut pawns = [0; 2];
    for color in 0..2 {
        let (a, b) = (pieces.counts(&start.material(color))?, pieces.counts(&after.material(color))?);
        let removed: Vec<i32> = a.iter().zip(&b).map(|(x, y)| x - y).collect();
        let only_pawns = (0..pieces.len()).all(|t| t == pieces.pawn || removed[t] == 0);
        if !only_pawns || removed[pieces.pawn] < 1 {
            return Err(fail(format!(
                "{} must hold only its own pawns",
                if color == 0 { "White's" } else { "Black's" }
            )));
        }
        pawns[color] = removed[pieces.pawn] as u32;
    }
    if pawns[0] != pawns[1] {
        return Err(fail(format!("White gives {} pawns but Black {}", pawns[0], pawns[1])));
    }
    Ok(pawns[0])
}

/// Updates score, Elo and (for comparisons) pawns from the games so far. A match of fewer
/// than `MIN_GAMES` games gives no figure in pawns: its spread is itself a guess.
fn evaluate(m: &mut MatchResult, pawn: Result<Measure, ValuesError>) {
    m.score = pair_score(&m.penta);
    m.elo = m.score.and_then(elo);
    m.pawns = None;
    m.pawns_note.clear();
    if m.comparison.is_none() {
        return;
    }
    let games = m.penta.games();
    let converted = match (m.elo, pawn) {
        _ if games < MIN_GAMES => Err(ValuesError::Fit(format!("not enough games ({games})"))),
        (None, _) if games > 0 => Err(ValuesError::Fit("one side won every game: too lopsided to measure".into())),
        (None, _) => Err(ValuesError::Fit("no games".into())),
        (Some(_), Err(e)) => Err(e),
        (Some(x), Ok(p)) => in_pawns(x, p),
    };
    match converted {
        Ok(p) => m.pawns = Some(p),
        Err(e) => m.pawns_note = e.to_string(),
    }
}

/// The calibration's Elo per pawn, or why there is none to convert with.
fn pawn_unit(cal: &MatchResult, k: u32) -> Result<Measure, ValuesError> {
    let games = cal.penta.games();
    if games < MIN_GAMES {
        return Err(ValuesError::Calibration(format!("the pawn-odds match has not enough games ({games})")));
    }
    cal.elo
        .map(|e| per_pawn(e, k))
        .ok_or_else(|| ValuesError::Calibration("the pawn-odds match has no finite Elo".to_string()))
}

/// Runs the calibration and comparison matches until each is precise enough or at its
/// budget, and combines the comparisons into absolute values where they determine them.
pub fn run(s: &Settings) -> Result<ImbalanceResult, ValuesError> {
    if s.comparisons.is_empty() {
        return Err(ValuesError::Settings("give at least one comparison (e.g. --compare F=R)".into()));
    }
    if s.max_pairs == 0 || s.batch_pairs == 0 {
        return Err(ValuesError::Settings("the game budget and the batch size must be positive".into()));
    }
    let pieces = Pieces::of(s.play.variant)?;
    let base = weights::material(s.play.variant, &pieces, &s.play.engine)?;
    // Every removal must be possible in the start position before any game is played.
    let start = s.play.variant.start_position();
    let k = check_calibration(&pieces, &start, &s.calibration)?;
    let calibration = MatchResult {
        comparison: None,
        label: "pawn-odds".into(),
        penta: Pentanomial::default(),
        score: None,
        elo: None,
        pawns: None,
        pawns_note: String::new(),
        engine: s.play.engine.clone(),
        done: false,
        note: format!("White lacks {} / Black lacks {}", s.calibration.0, s.calibration.1),
    };
    // First game: White keeps its pawn (has X) and Black lacks its own; then the reverse.
    let removal = [(String::new(), s.calibration.1.clone()), (s.calibration.0.clone(), String::new())];
    let dir = s.play.out.join(if k > 1 { format!("pawn-odds-{k}") } else { "pawn-odds".into() });
    let mut matches = vec![Match::new(s, calibration, removal, dir)?];
    for c in &s.comparisons {
        let (lack_w, lack_b) = c.removal();
        start
            .without(0, &lack_w)
            .and_then(|b| b.without(1, &lack_b))
            .map_err(|e| ValuesError::Comparison(format!("{}: {e}", c.text())))?;
        let mut engine = s.play.engine.clone();
        let mut note = String::new();
        if s.player.is_some() {
            note = "played by an external engine with its own evaluation (no neutral weights)".into();
        } else if s.neutral {
            match weights::neutral(c, &pieces, &base) {
                Some(n) => engine.extend(n),
                None => note = "no neutral weights for this comparison: played with the engine's own".into(),
            }
        }
        let result = MatchResult {
            comparison: Some(c.clone()),
            label: c.text(),
            penta: Pentanomial::default(),
            score: None,
            elo: None,
            pawns: None,
            pawns_note: String::new(),
            engine,
            done: false,
            note,
        };
        let removal = [(lack_w.clone(), lack_b.clone()), (lack_b, lack_w)];
        matches.push(Match::new(s, result, removal, s.play.out.join(slug(&c.text())))?);
    }
    loop {
        let active: Vec<usize> = (0..matches.len()).filter(|&i| !matches[i].result.done).collect();
        if active.is_empty() {
            break;
        }
        for &i in &active {
            let m = &mut matches[i];
            // A shard cannot stop early on its part of the games: it plays the budget.
            let step = if s.play.shard.is_some() { s.max_pairs } else { s.batch_pairs };
            let target = (m.pairs + step).min(m.budget(s));
            m.play_to(s, target)?;
        }
        let pawn = {
            let cal = &mut matches[0].result;
            evaluate(cal, Err(ValuesError::Calibration(String::new())));
            pawn_unit(cal, k)
        };
        for m in matches.iter_mut().skip(1) {
            evaluate(&mut m.result, pawn.clone());
            if m.result.done {
                continue;
            }
            let budget = m.budget(s);
            if m.pairs >= budget {
                m.result.done = true;
                let why = if budget < s.max_pairs {
                    "stopped: every usable start played"
                } else {
                    "stopped at the game budget"
                };
                m.result.note = join_note(&m.result.note, why);
            } else if m.pairs >= s.min_pairs.min(budget) {
                if m.result.elo.is_none() {
                    m.result.done = true;
                    m.result.note = join_note(&m.result.note, "one side won every game: too lopsided to measure");
                } else if let (Some(p), Some(target)) = (m.result.pawns, s.precision) {
                    if p.half_width() <= target {
                        m.result.done = true;
                        m.result.note = join_note(&m.result.note, &format!("reached ±{target} pawn"));
                    }
                }
            }
        }
        let all_done = matches.iter().skip(1).all(|m| m.result.done);
        let cal = &mut matches[0];
        if all_done || cal.pairs >= cal.budget(s) {
            cal.result.done = true;
        }
        for m in &matches {
            s.play.progress.note(&format!(
                "  {:<12} {:>6} games  {}",
                m.result.label,
                2 * m.pairs,
                describe(&m.result)
            ));
        }
    }
    // Later stages need every comparison's merged games: a shard plays only the matches.
    let whole = s.play.shard.is_none();
    let mut dirs: Vec<PathBuf> = matches.iter().map(|m| m.dir.clone()).collect();
    let brackets = match s.bracket {
        Some(n) if whole => {
            let max_pawns = pieces.counts(&start.material(0))?[pieces.pawn] / 2;
            // Rough differences in pawns from the engine's weights, for comparisons without
            // an estimate of their own.
            let rough: Vec<f64> = s
                .comparisons
                .iter()
                .map(|c| {
                    let a = c.coefficients(&pieces);
                    let mg: f64 = a.iter().zip(&base).map(|(&k, w)| k as f64 * w.0 as f64).sum();
                    mg / base[pieces.pawn].0 as f64
                })
                .collect();
            let (priced, more) = bracketing::play(s, n, &matches[1..], &rough, pieces.pawn_letter(), max_pawns)?;
            dirs.extend(more);
            priced
        }
        _ => vec![],
    };
    let scale_check = match s.scale_check && whole {
        true => {
            let (check, more) = scale_check::run(s, &matches, k)?;
            dirs.extend(more);
            Some(check)
        }
        false => None,
    };
    let calibration = matches[0].result.clone();
    let comparisons: Vec<MatchResult> = matches[1..].iter().map(|m| m.result.clone()).collect();
    let mut equations = Vec::new();
    if let Some(e) = calibration.elo {
        let mut a = vec![0; pieces.len()];
        a[pieces.pawn] = k as i32;
        equations.push(Equation { coefficients: a, elo: e });
    }
    for m in &comparisons {
        if let (Some(c), Some(e)) = (&m.comparison, m.elo) {
            equations.push(Equation { coefficients: c.coefficients(&pieces), elo: e });
        }
    }
    let combined = if calibration.elo.is_none() {
        Err(ValuesError::Calibration("the pawn-odds match has no finite result".to_string()))
    } else {
        combine(&equations, pieces.len(), pieces.pawn)
    };
    let letters = pieces.types.iter().map(|t| t.letter).collect();
    Ok(ImbalanceResult {
        calibration,
        calibration_pawns: k,
        comparisons,
        combined,
        letters,
        equations: equations.len(),
        dirs,
        bracket_combined: bracketing::combined(&brackets, &pieces),
        brackets,
        scale_check,
    })
}

fn join_note(a: &str, b: &str) -> String {
    if a.is_empty() {
        b.to_string()
    } else {
        format!("{a}; {b}")
    }
}

/// One line about a match's state: score, Elo and pawns so far.
pub fn describe(m: &MatchResult) -> String {
    let mut s = match m.score {
        Some(sc) => format!("score {:.1} % ± {:.1}", 100.0 * sc.value, 196.0 * sc.se),
        None => "no games".into(),
    };
    if let Some(e) = m.elo {
        s += &format!("  Elo {:+.1} ± {:.1}", e.value, 1.96 * e.se);
    }
    if let Some(p) = m.pawns {
        s += &format!("  {:+.2} pawns [{:+.2}, {:+.2}]", p.value, p.low, p.high);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calibration_counts_the_pawns_each_side_gives() {
        let v = crate::Variant::load("flying-bombers-grand", &[]).unwrap();
        let p = Pieces::of(v).unwrap();
        let start = v.start_position();
        let sq = |spec: &str| crate::values::pieces::calibration_squares(v, spec).unwrap();
        assert_eq!(check_calibration(&p, &start, &sq("f")), Ok(1));
        let two = sq("ef");
        assert_eq!(two, sq("e+f"));
        assert_eq!(check_calibration(&p, &start, &two), Ok(2));
        // Uneven handicaps and pieces other than pawns would change the unit: refused.
        let uneven = check_calibration(&p, &start, &(two.0.clone(), sq("f").1)).unwrap_err().to_string();
        assert!(uneven.contains("2 pawns but Black 1"), "{uneven}");
        assert!(check_calibration(&p, &start, &("a1".into(), "a10".into())).is_err());
        let e = per_pawn(Measure { value: 60.0, se: 8.0 }, 2);
        assert_eq!((e.value, e.se), (30.0, 4.0));
    }
}
