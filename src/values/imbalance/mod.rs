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
pub mod scale_check;
pub mod starts;

use crate::stats::interval::MIN_GAMES;
use crate::stats::Pentanomial;
use crate::tournament::game_result;
use crate::values::comparison::Comparison;
use crate::values::pieces::Pieces;
use crate::values::play::PlaySettings;
use crate::values::selfplay::{self, Job, Plan};
use crate::values::weights;
use crate::values::ValuesError;
use calibration::{elo, in_pawns, pair_score, Interval, Measure};
use combine::{combine, Combined, Equation};
use std::path::PathBuf;

#[derive(Clone, Debug)]
pub struct Settings {
    /// The matches' games; `play.engine` is before neutralisation, `play.shard` plays shard
    /// `i` of `n` of every match's pairs, all of the budget (merge the shards' folders, then
    /// run unsharded for the figures).
    pub play: PlaySettings,
    pub comparisons: Vec<Comparison>,
    /// Squares of the pawns removed in the calibration match (White's, Black's).
    pub calibration: (String, String),
    /// Most game pairs per match.
    pub max_pairs: u64,
    pub batch_pairs: u64,
    /// No comparison stops before this many pairs.
    pub min_pairs: u64,
    /// Target half-width of the 95 % interval in pawns (`None`: play `max_pairs`).
    pub precision: Option<f64>,
    /// Neutral weights for each comparison (see `weights`).
    pub neutral: bool,
    /// An external UCI engine playing every match instead of fairylab's (no neutral
    /// weights then: it keeps its own evaluation, one configuration for the whole study).
    pub player: Option<crate::tournament::engines::EngineSpec>,
    /// Price each comparison locally by this many matches of X against Y plus k pawns
    /// around balance (2 or 3; see `bracketing`).
    pub bracket: Option<u32>,
    /// Play the pawn-odds match again under each comparison's neutral weights and test
    /// whether they move the Elo of a pawn (see `scale_check`).
    pub scale_check: bool,
    /// Positions (FENs) the matches start from instead of the variant's start, pair `k`
    /// from start `k` (see `starts`). Each match drops those on which its removals are
    /// impossible or create tactics, and plays no more pairs than it has starts left.
    pub starts: Vec<String>,
}

/// One match and its result so far.
#[derive(Clone, Debug)]
pub struct MatchResult {
    /// `None` for the calibration.
    pub comparison: Option<Comparison>,
    pub label: String,
    /// Results of the side with X per pair.
    pub penta: Pentanomial,
    pub score: Option<Measure>,
    pub elo: Option<Measure>,
    /// `value(X) - value(Y)` in pawns (for comparisons).
    pub pawns: Option<Interval>,
    /// Why `pawns` is `None` for a comparison with games (not enough of them, or no
    /// bounded interval in pawns).
    pub pawns_note: String,
    /// The engine weight settings used (after neutralisation).
    pub engine: Vec<(String, f32)>,
    pub done: bool,
    /// Why a match stopped, or a note about its settings.
    pub note: String,
}

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

fn slug(label: &str) -> String {
    label
        .replace('=', "-vs-")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || "+-".contains(c) { c } else { '_' })
        .collect()
}

struct Match {
    result: MatchResult,
    /// Pieces White and Black lack in the pair's first game (White has X) and in its
    /// second (Black has X).
    removal: [(String, String); 2],
    dir: PathBuf,
    pairs: u64,
    /// The given starts this match's removals can use (empty: the variant's start).
    starts: Vec<String>,
}

impl Match {
    /// A match of the study; with given starts, only those its removals leave quiet, and
    /// each piece letter removes an instance picked by the position (`P*`, see
    /// `Board::without`): which rook or pawn is nearest the a-file in a middlegame is no
    /// rule of the game, and the edge pawn that rule would take is worth less than most.
    fn new(
        s: &Settings,
        mut result: MatchResult,
        mut removal: [(String, String); 2],
        dir: PathBuf,
    ) -> Result<Match, ValuesError> {
        let mut starts = vec![];
        if !s.starts.is_empty() {
            removal = removal.map(|(w, b)| (starts::hashed(&w), starts::hashed(&b)));
            if result.comparison.is_none() {
                result.note = format!("White lacks {} / Black lacks {}", removal[1].0, removal[0].1);
            }
            let variant = s.play.variant;
            let pieces = Pieces::of(variant)?;
            // Half the endgame pawn (the centipawn anchor of every engine config): the
            // middlegame pawn is 54 cp in Grand Chess, and a 27 cp margin kept only 138 of
            // 1,528 starts for a knight against five pawns (309 at 50 cp).
            let margin = (weights::material(variant, &pieces, &[])?[pieces.pawn].1 / 2.0).round() as i32;
            let (kept, dropped) = starts::usable(variant, &s.starts, &removal, margin)?;
            if kept.is_empty() {
                return Err(ValuesError::Position(format!(
                    "{}: none of the {} start positions can be used: on each, its removals are impossible or \
                     leave material hanging or a king in check",
                    result.label,
                    s.starts.len()
                )));
            }
            s.play.progress.note(&format!(
                "  {:<12} {} of {} starts usable ({dropped} dropped: a removal impossible, or it lets a side \
                 win over {margin} cp at once)",
                result.label,
                kept.len(),
                s.starts.len()
            ));
            starts = kept;
        }
        Ok(Match { result, removal, dir, pairs: 0, starts })
    }

    /// Most pairs: the budget, or fewer when there are fewer starts (each pair has its own).
    fn budget(&self, s: &Settings) -> u64 {
        match self.starts.len() {
            0 => s.max_pairs,
            n => s.max_pairs.min(n as u64),
        }
    }

    fn jobs(&self, pairs: u64) -> Vec<Job> {
        let e = &self.result.engine;
        (0..pairs)
            .flat_map(|k| {
                let first = Job {
                    id: 2 * k,
                    // Given starts are used in order, each by one pair only.
                    opening: if self.starts.is_empty() { selfplay::opening_index(k) } else { k },
                    imbalance: Some(self.removal[0].clone()),
                    white: e.clone(),
                    black: e.clone(),
                };
                let second = Job { id: 2 * k + 1, imbalance: Some(self.removal[1].clone()), ..first.clone() };
                [first, second]
            })
            .collect()
    }

    fn plan(&self, s: &Settings) -> Plan {
        let description = format!(
            "imbalance pairs: (White lacks, Black lacks) = {:?} then {:?}; engine {:?}",
            self.removal[0], self.removal[1], self.result.engine
        );
        Plan { player: s.player.clone(), ..s.play.plan(description, self.starts.clone()) }
    }

    /// Plays (or reads back) the first `pairs` pairs and records the X side's results.
    fn play_to(&mut self, s: &Settings, pairs: u64) -> Result<(), ValuesError> {
        let pairs = pairs.min(self.budget(s));
        let scores = selfplay::play(&self.plan(s), &self.dir, &self.jobs(pairs))?;
        let mut penta = Pentanomial::default();
        for k in 0..pairs {
            // Score of the side with X: White in the first game, Black in the second.
            let (Some(a), Some(b)) = (scores.get(&(2 * k)), scores.get(&(2 * k + 1))) else { continue };
            penta.record(game_result(*a), game_result(1.0 - *b));
        }
        self.result.penta = penta;
        self.pairs = pairs;
        Ok(())
    }
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

/// The Elo of the side with X in a match so far.
fn pair_score_elo(m: &MatchResult) -> Option<Measure> {
    pair_score(&m.penta).and_then(elo)
}

/// The Elo of one pawn from a handicap of `k` pawns (Elo adds up roughly linearly over
/// small handicaps).
pub fn per_pawn(e: Measure, k: u32) -> Measure {
    Measure { value: e.value / k as f64, se: e.se / k as f64 }
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
        let sq = |spec: &str| crate::values::experiment::calibration_squares(v, spec).unwrap();
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
