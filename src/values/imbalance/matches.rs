//! One match of the imbalance study (a comparison, the pawn-odds calibration, a bracket
//! or scale-check replay): its settings, its result so far and how it is played. The
//! study (`imbalance::run`) and its later stages (`bracketing`, `scale_check`) all build
//! on these, so they live apart from the study that orders them.

use super::calibration::{elo, pair_score, Interval, Measure};
use super::starts;
use crate::stats::Pentanomial;
use crate::tournament::game_result;
use crate::values::comparison::Comparison;
use crate::values::pieces::Pieces;
use crate::values::play::PlaySettings;
use crate::values::selfplay::{self, Job, Plan};
use crate::values::weights;
use crate::values::ValuesError;
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

pub(super) fn slug(label: &str) -> String {
    label
        .replace('=', "-vs-")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || "+-".contains(c) { c } else { '_' })
        .collect()
}

pub(super) struct Match {
    pub(super) result: MatchResult,
    /// Pieces White and Black lack in the pair's first game (White has X) and in its
    /// second (Black has X).
    pub(super) removal: [(String, String); 2],
    pub(super) dir: PathBuf,
    pub(super) pairs: u64,
    /// The given starts this match's removals can use (empty: the variant's start).
    pub(super) starts: Vec<String>,
}

impl Match {
    /// A match of the study; with given starts, only those its removals leave quiet, and
    /// each piece letter removes an instance picked by the position (`P*`, see
    /// `Board::without`): which rook or pawn is nearest the a-file in a middlegame is no
    /// rule of the game, and the edge pawn that rule would take is worth less than most.
    pub(super) fn new(
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
    pub(super) fn budget(&self, s: &Settings) -> u64 {
        match self.starts.len() {
            0 => s.max_pairs,
            n => s.max_pairs.min(n as u64),
        }
    }

    pub(super) fn jobs(&self, pairs: u64) -> Vec<Job> {
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

    pub(super) fn plan(&self, s: &Settings) -> Plan {
        let description = format!(
            "imbalance pairs: (White lacks, Black lacks) = {:?} then {:?}; engine {:?}",
            self.removal[0], self.removal[1], self.result.engine
        );
        Plan { player: s.player.clone(), ..s.play.plan(description, self.starts.clone()) }
    }

    /// Plays (or reads back) the first `pairs` pairs and records the X side's results.
    pub(super) fn play_to(&mut self, s: &Settings, pairs: u64) -> Result<(), ValuesError> {
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

/// The Elo of the side with X in a match so far.
pub(super) fn pair_score_elo(m: &MatchResult) -> Option<Measure> {
    pair_score(&m.penta).and_then(elo)
}

/// The Elo of one pawn from a handicap of `k` pawns (Elo adds up roughly linearly over
/// small handicaps).
pub fn per_pawn(e: Measure, k: u32) -> Measure {
    Measure { value: e.value / k as f64, se: e.se / k as f64 }
}
