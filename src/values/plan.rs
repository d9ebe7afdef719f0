//! One value study's settings, typed and checked once. The command line, an experiment
//! file and a report budget each turn their own spelling of the settings into a
//! [`StudyPlan`] (`cli::values`, `Experiment::plans`, `report::valuation`); the
//! orchestrator (`values::study::run`) plays and fits what a plan asks without checking
//! again, as a `Position` is only made from a checked `Setup`.

use super::comparison::Comparison;
use super::method::Fit;
use super::pieces::Pieces;
use super::ValuesError;
use crate::games::Adjudication;
use crate::maths::logistic::Model;
use crate::tournament::engines::EngineSpec;
use crate::tournament::Progress;
use crate::Variant;
use std::path::{Path, PathBuf};

/// A value study: the games it plays and the estimators it runs on them. Only
/// [`StudyPlan::new`] makes one, and it refuses settings no study could run, so a plan
/// in hand is a checked one (its parts are read, never changed).
#[derive(Clone, Debug)]
pub struct StudyPlan {
    variant: Variant,
    /// The variant as the table names it (a file's own spelling is kept).
    name: String,
    options: Vec<String>,
    play: Play,
    regression: Option<RegressionPlan>,
    imbalance: Option<ImbalancePlan>,
}

/// How every game of the study is played (both estimators share it).
#[derive(Clone, Debug)]
pub struct Play {
    pub nodes: u64,
    /// Seed of openings, imbalances, weight jitter and the bootstrap.
    pub seed: u64,
    /// Engine weight settings before any per-game change (jitter, neutralisation).
    pub engine: Vec<(String, f32)>,
    /// An external UCI engine playing every game; fairylab's own engine without one.
    pub player: Option<EngineSpec>,
    pub adjudication: Adjudication,
    /// Parallel games.
    pub concurrency: usize,
    /// Play only shard `i` of `n` of the games (clusters merge the shards' folders).
    pub shard: Option<(u64, u64)>,
    pub progress: Progress,
}

/// Where the regression's games come from.
#[derive(Clone, Debug)]
pub enum Source {
    /// Run folders already played (games.csv + positions.csv).
    Runs(Vec<PathBuf>),
    /// Self-play games played first (resumed from their folder).
    SelfPlay(Corpus),
}

/// The regression's own self-play games.
#[derive(Clone, Debug)]
pub struct Corpus {
    pub games: u64,
    pub out: PathBuf,
    pub random_plies: u32,
    /// Share of games that start with one random piece type missing per side.
    pub imbalance_fraction: f64,
    /// Each side's piece values scaled by a random factor in [1-J, 1+J] per game.
    pub jitter: f64,
    /// Games start from every combination of the players' setup choices.
    pub all_setups: bool,
}

#[derive(Clone, Debug)]
pub struct RegressionPlan {
    pub source: Source,
    /// Opening plies of each game left out of the fit.
    pub skip_plies: u32,
    /// The phase filter of the position fit (see `dataset::Selection::min_pieces`).
    pub min_pieces: f64,
    /// The fits to make, each with every model: on positions, refitted on a fuller
    /// board, on the material each game started with.
    pub fits: Vec<Fit>,
    pub models: Vec<Model>,
    /// Bootstrap replicates (resampling whole games).
    pub bootstrap: usize,
    /// Differences estimated beside the single values (`F-R`).
    pub comparisons: Vec<Comparison>,
    /// Also fit on the positions of the plan's imbalance matches.
    pub include_imbalance_games: bool,
}

#[derive(Clone, Debug)]
pub struct ImbalancePlan {
    pub comparisons: Vec<Comparison>,
    /// Most games per match (comparison or calibration).
    pub max_games: u64,
    /// Game pairs between two precision checks.
    pub batch_pairs: u64,
    /// No comparison stops before this many pairs.
    pub min_pairs: u64,
    /// Stop a comparison once its 95 % interval is within ± this many pawns.
    pub precision: Option<f64>,
    /// Squares of the calibration pawns (White's, Black's).
    pub calibration: (String, String),
    pub random_plies: u32,
    /// Neutral weights for each comparison instead of the engine's own.
    pub neutral: bool,
    pub bracket: Option<Bracket>,
    /// Play the pawn-odds match under each comparison's neutral weights too.
    pub scale_check: bool,
    /// Start positions (FENs) of the matches; empty: the variant's start.
    pub starts: Vec<String>,
    /// Rebuild the chain from the matches' own values and play the new links.
    pub rebuild_chain: bool,
    /// Run folder of the matches, resumed if it exists.
    pub out: PathBuf,
}

/// How many matches price a comparison locally: 2 or 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bracket(u32);

impl Bracket {
    pub fn new(matches: u32) -> Result<Bracket, ValuesError> {
        match matches {
            2 | 3 => Ok(Bracket(matches)),
            n => Err(ValuesError::Bracket(n)),
        }
    }

    /// An optional bracket size, checked.
    pub fn of(matches: Option<u32>) -> Result<Option<Bracket>, ValuesError> {
        matches.map(Bracket::new).transpose()
    }

    pub fn matches(self) -> u32 {
        self.0
    }
}

/// A shard `i/n` as text, checked.
pub fn shard(text: &str) -> Result<(u64, u64), ValuesError> {
    let bad = || ValuesError::Shard(text.to_string());
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let shard = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    check_shard(shard)?;
    Ok(shard)
}

fn check_shard((i, n): (u64, u64)) -> Result<(), ValuesError> {
    if n == 0 || i == 0 || i > n {
        return Err(ValuesError::Shard(format!("{i}/{n}")));
    }
    Ok(())
}

/// The start positions of an EPD/FEN file, checked against the variant; none without a
/// file (the matches start from the variant's start).
pub fn starts(variant: Variant, file: Option<&Path>) -> Result<Vec<String>, ValuesError> {
    match file {
        Some(path) => Ok(crate::tournament::openings::read_file(variant, &path.to_string_lossy())?),
        None => Ok(vec![]),
    }
}

/// Comparisons `X=Y` as text, parsed against the variant's pieces.
pub fn comparisons(texts: &[String], pieces: &Pieces) -> Result<Vec<Comparison>, ValuesError> {
    texts.iter().map(|c| Comparison::parse(c, pieces)).collect()
}

fn refuse(text: String) -> Result<(), ValuesError> {
    Err(ValuesError::Settings(text))
}

impl StudyPlan {
    /// The plan, once its parts are possible together: budgets, shares and filters in
    /// range, engine weights the variant's evaluation takes, a shard that exists.
    pub fn new(
        variant: Variant,
        name: String,
        options: Vec<String>,
        play: Play,
        regression: Option<RegressionPlan>,
        imbalance: Option<ImbalancePlan>,
    ) -> Result<StudyPlan, ValuesError> {
        let plan = StudyPlan { variant, name, options, play, regression, imbalance };
        plan.check()?;
        Ok(plan)
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The variant as the table names it.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn options(&self) -> &[String] {
        &self.options
    }

    pub fn play(&self) -> &Play {
        &self.play
    }

    pub fn regression(&self) -> Option<&RegressionPlan> {
        self.regression.as_ref()
    }

    pub fn imbalance(&self) -> Option<&ImbalancePlan> {
        self.imbalance.as_ref()
    }

    /// The option set as folders and notes name it: `default`, or the options joined by `+`.
    pub fn label(&self) -> String {
        if self.options.is_empty() {
            "default".into()
        } else {
            self.options.join("+")
        }
    }

    fn check(&self) -> Result<(), ValuesError> {
        if self.play.nodes == 0 {
            return refuse("--nodes must be positive".into());
        }
        if self.play.concurrency == 0 {
            return refuse("concurrency must be at least 1".into());
        }
        if let Some(s) = self.play.shard {
            check_shard(s)?;
        }
        let pieces = Pieces::of(self.variant)?;
        super::weights::material(self.variant, &pieces, &self.play.engine)
            .map_err(|e| ValuesError::flag("engine", e))?;
        if let Some(r) = &self.regression {
            self.check_regression(r)?;
        }
        if let Some(i) = &self.imbalance {
            check_imbalance(i)?;
        }
        Ok(())
    }

    fn check_regression(&self, r: &RegressionPlan) -> Result<(), ValuesError> {
        if r.models.is_empty() || r.fits.is_empty() {
            return refuse("the regression needs a model and a fit".into());
        }
        if r.bootstrap < 10 {
            return refuse("--bootstrap needs at least 10 replicates".into());
        }
        if !(0.0..=1.0).contains(&r.min_pieces) {
            return refuse(format!("--min-pieces {} must lie between 0 and 1", r.min_pieces));
        }
        for fit in &r.fits {
            if let Fit::Phase(mp) = *fit {
                if !(0.0..=1.0).contains(&mp) || mp == r.min_pieces {
                    return refuse(format!(
                        "phase_min_pieces {mp} must lie between 0 and 1 and differ from min_pieces ({})",
                        r.min_pieces
                    ));
                }
            }
        }
        match &r.source {
            Source::Runs(dirs) if dirs.is_empty() => refuse("the regression has no run folders to fit".into()),
            Source::Runs(_) if self.play.shard.is_some() => {
                refuse("--shard plays games: it needs --games, not --data".into())
            }
            Source::Runs(_) => Ok(()),
            Source::SelfPlay(c) => {
                if c.games == 0 {
                    return refuse("--games must be positive".into());
                }
                if !(0.0..=1.0).contains(&c.imbalance_fraction) {
                    return refuse(format!("imbalance fraction {} must be between 0 and 1", c.imbalance_fraction));
                }
                if !(0.0..0.9).contains(&c.jitter) {
                    return refuse(format!("weight jitter {} must be at least 0 and below 0.9", c.jitter));
                }
                if c.all_setups && self.variant.setup_choices().is_empty() {
                    return refuse(format!("--all-setups: {} has no setup choices", self.variant.name()));
                }
                Ok(())
            }
        }
    }
}

fn check_imbalance(i: &ImbalancePlan) -> Result<(), ValuesError> {
    if i.comparisons.is_empty() {
        return refuse("the imbalance matches need a comparison".into());
    }
    if i.max_games < 2 || i.batch_pairs == 0 {
        return refuse("--games (max_games) must be at least 2 and --batch (batch_pairs) positive".into());
    }
    if i.precision.is_some_and(|p| p.is_nan() || p <= 0.0) {
        return refuse(format!("--precision {} must be a positive number of pawns", i.precision.unwrap_or_default()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bracket_is_two_or_three_matches() {
        assert_eq!(Bracket::new(3).map(Bracket::matches), Ok(3));
        assert_eq!(Bracket::new(4), Err(ValuesError::Bracket(4)));
    }

    #[test]
    fn a_shard_names_one_of_its_parts() {
        assert_eq!(shard("2/4"), Ok((2, 4)));
        for bad in ["5/4", "0/3", "1/0", "x", "1/y"] {
            assert!(matches!(shard(bad), Err(ValuesError::Shard(_))), "{bad}");
        }
    }
}
