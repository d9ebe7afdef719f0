//! Experiment files (`configs/experiments/*.toml`): one question, all settings, one
//! command (`fairylab experiment FILE`). A file names the variant, the option sets to
//! repeat the experiment under, the engine budget and seed, and which estimators to run:
//!
//! ```toml
//! name = "bomber-vs-rook-grand"
//! variant = "flying-bombers-grand"
//! option_sets = [[], ["immediate-landing"]]
//! seed = 1
//! nodes = 2000
//!
//! [imbalance]
//! compare = ["F=R"]
//! max_games = 4000
//! precision = 0.1
//!
//! [regress]
//! games = 2000
//! ```
//!
//! Results go to `<out>/values.csv` and `values.json` (all option sets), games to
//! `<out>/<option set>/{imbalance,regress}/`, which an interrupted run resumes.

use super::method::Fit;
use super::pieces::{calibration_squares, default_calibration, Pieces};
use super::plan::{self, Bracket, Corpus, ImbalancePlan, Play, RegressionPlan, Source, StudyPlan};
use super::regression::dataset::Selection;
use super::selfplay::{default_adjudication, external_player};
use super::study;
use super::table::{self, ValueRow};
use super::ValuesError;
use crate::maths::logistic::Model;
use crate::tournament::Progress;
use crate::Variant;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Experiment {
    /// The file's text, written beside the table it makes (`experiment.toml`), so a table
    /// kept as a study carries what it measured.
    #[serde(skip)]
    pub source: String,
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub variant: String,
    /// Option sets to run the experiment under; `[[]]` (no options) by default.
    #[serde(default = "no_options")]
    pub option_sets: Vec<Vec<String>>,
    pub seed: u64,
    /// Nodes per move.
    pub nodes: u64,
    /// Parallel games (0 or absent: all cores).
    #[serde(default)]
    pub concurrency: usize,
    /// Output directory (default `runs/<name>`).
    #[serde(default)]
    pub out: Option<PathBuf>,
    /// Engine weight settings for every game, e.g. `{ "value.F" = 480 }`.
    #[serde(default)]
    pub engine: BTreeMap<String, f32>,
    /// Resign adjudication: a side that sees itself this many centipawns down for four
    /// moves loses (0 = play every game out).
    #[serde(default = "default_resign")]
    pub resign_score: i32,
    /// An external UCI engine playing every game (`--engine` spec with `cmd=`); absent:
    /// fairylab's own engine with `engine` weights.
    #[serde(default)]
    pub player: Option<String>,
    #[serde(default)]
    pub imbalance: Option<ImbalanceSection>,
    #[serde(default)]
    pub regress: Option<RegressSection>,
}

fn no_options() -> Vec<Vec<String>> {
    vec![vec![]]
}
fn default_resign() -> i32 {
    default_adjudication().resign_score
}
fn yes() -> bool {
    true
}
impl ImbalanceSection {
    /// The calibration pawns named, or the variant's default.
    pub fn calibration_for(&self, variant: Variant) -> String {
        self.calibration.clone().unwrap_or_else(|| default_calibration(variant))
    }
}

fn default_plies() -> u32 {
    8
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImbalanceSection {
    pub compare: Vec<String>,
    /// Most games per match (comparison or calibration).
    pub max_games: u64,
    #[serde(default = "default_batch")]
    pub batch_pairs: u64,
    #[serde(default = "default_min_pairs")]
    pub min_pairs: u64,
    /// Target ± of each comparison's 95 % interval, in pawns.
    #[serde(default)]
    pub precision: Option<f64>,
    /// The calibration pawns: file letters (`f`, `ef`) or squares (`f2=f7`); see
    /// [`calibration_squares`]. Absent: the variant's [`default_calibration`], as the
    /// report and `values imbalance` use (the f-pawn only on 8-file boards).
    #[serde(default)]
    pub calibration: Option<String>,
    #[serde(default = "default_plies")]
    pub random_plies: u32,
    #[serde(default = "yes")]
    pub neutral_weights: bool,
    /// Price each comparison locally with this many bracket matches (2 or 3).
    #[serde(default)]
    pub bracket: Option<u32>,
    /// Play the pawn-odds match under each comparison's neutral weights too.
    #[serde(default)]
    pub scale_check: bool,
    /// An EPD/FEN file of start positions (relative to the working directory), e.g.
    /// middlegames from `fairylab values starts`; absent: the variant's start.
    #[serde(default)]
    pub starts: Option<PathBuf>,
}

fn default_batch() -> u64 {
    50
}
fn default_min_pairs() -> u64 {
    100
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegressSection {
    pub games: u64,
    /// `logistic` and/or `ordinal`: each is fitted to the same positions.
    #[serde(default = "default_models")]
    pub models: Vec<String>,
    #[serde(default = "default_skip")]
    pub skip_plies: u32,
    /// See `dataset::Selection::min_pieces`.
    #[serde(default = "default_min_pieces")]
    pub min_pieces: f64,
    #[serde(default = "default_bootstrap")]
    pub bootstrap: usize,
    #[serde(default = "default_plies")]
    pub random_plies: u32,
    #[serde(default = "default_fraction")]
    pub imbalance_fraction: f64,
    #[serde(default)]
    pub jitter: f64,
    /// Also fit on the positions of this experiment's imbalance matches.
    #[serde(default)]
    pub include_imbalance_games: bool,
    /// Refit on the positions holding at least this share of the start position's pieces
    /// (rows `regression-<model>-min-pieces-<x>` and their own log-ratio rows): the
    /// imbalance matches trade with nearly every piece on the board, and a pawn's worth
    /// against the pieces grows as they come off, so the two estimators agree only when
    /// they look at the same phase.
    #[serde(default)]
    pub phase_min_pieces: Option<f64>,
    /// Also fit the material each game started with against its result, one observation
    /// per game (rows `regression-<model>-start`): material priced by everything that
    /// follows from it, as the imbalance matches price it, on the same games. Set beside
    /// the position fit, it tells whether the two estimators differ because one prices
    /// material given the rest of the board and the other by its consequences.
    #[serde(default)]
    pub start_fit: bool,
    /// Start the regression's games from every combination of the players' setup choices
    /// (Bland Chess 46), so the pieces only other setups hold get values too.
    #[serde(default)]
    pub all_setups: bool,
}

fn default_models() -> Vec<String> {
    vec!["logistic".into()]
}
fn default_skip() -> u32 {
    Selection::default().skip_plies
}
fn default_min_pieces() -> f64 {
    Selection::default().min_pieces
}
fn default_bootstrap() -> usize {
    super::regression::DEFAULT_REPLICATES
}
fn default_fraction() -> f64 {
    0.5
}

/// Run-time overrides from the command line.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    pub out: Option<PathBuf>,
    /// Multiplies every game budget (a quick look at a long experiment).
    pub scale: Option<f64>,
    pub concurrency: Option<usize>,
    pub progress: Progress,
    /// Play only shard `i` of `n` of every match and corpus (no table is written): merge
    /// the shards' folders with `fairylab merge` and run unsharded for the figures.
    pub shard: Option<(u64, u64)>,
    /// An external UCI engine instead of the file's player (`--engine`).
    pub engine: Option<String>,
}

/// How the copy of an experiment file written beside its table records the command
/// line's overrides, one per line at the top.
pub const PLAYED_WITH: &str = "# played with ";

impl Experiment {
    /// Parses and checks an experiment file's text: unknown keys, missing fields, unknown
    /// variants, options, pieces and impossible budgets are errors before anything runs.
    pub fn parse(text: &str, origin: &str) -> Result<Experiment, ValuesError> {
        let mut e: Experiment = toml::from_str(text).map_err(|err| ValuesError::ExperimentSyntax {
            origin: origin.to_string(),
            line: err.span().map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1),
            message: err.message().to_string(),
        })?;
        e.source = text.to_string();
        let fail = |m: String| Err(ValuesError::in_experiment(origin, ValuesError::Settings(m)));
        let within = |err: ValuesError| ValuesError::in_experiment(origin, err);
        if e.nodes == 0 {
            return fail("nodes must be positive".into());
        }
        if e.option_sets.is_empty() {
            return fail("option_sets is empty (use [[]] for no options)".into());
        }
        if e.imbalance.is_none() && e.regress.is_none() {
            return fail("nothing to do: add an [imbalance] or a [regress] section".into());
        }
        if let Some(r) = &e.regress {
            if r.games == 0 {
                return fail("[regress] games must be positive".into());
            }
        }
        // Everything else is the plans' own check, so the file is refused before a game.
        e.plans(&Overrides::default()).map_err(within)?;
        Ok(e)
    }

    pub fn load(path: &Path) -> Result<Experiment, ValuesError> {
        let text = std::fs::read_to_string(path).map_err(|e| ValuesError::io("read", path, e))?;
        Self::parse(&text, &path.display().to_string())
    }

    pub fn engine_settings(&self) -> Vec<(String, f32)> {
        self.engine.iter().map(|(k, v)| (k.clone(), *v)).collect()
    }

    fn out_dir(&self, o: &Overrides) -> PathBuf {
        o.out.clone().or_else(|| self.out.clone()).unwrap_or_else(|| PathBuf::from("runs").join(&self.name))
    }

    /// The file's one conversion into study plans, one per option set: the command line's
    /// overrides applied, budgets scaled, games in `<out>/<option set>/{imbalance,regress}`.
    pub fn plans(&self, o: &Overrides) -> Result<Vec<StudyPlan>, ValuesError> {
        let out = self.out_dir(o);
        let scale = o.scale.unwrap_or(1.0);
        if scale.is_nan() || scale <= 0.0 {
            return Err(ValuesError::Settings("--scale must be positive".into()));
        }
        let scaled = |n: u64| ((n as f64 * scale).round() as u64).max(2);
        // The file's `concurrency = 0` means one game per core; an override of 0 is refused.
        let concurrency = match o.concurrency {
            Some(c) => crate::tournament::concurrency(Some(c))?,
            None => crate::tournament::concurrency((self.concurrency > 0).then_some(self.concurrency))?,
        };
        let mut adjudication = default_adjudication();
        adjudication.resign_score = self.resign_score;
        if self.resign_score <= 0 {
            adjudication.resign_moves = 0;
        }
        let player = match (&o.engine, &self.player) {
            (Some(text), _) => Some(external_player(text).map_err(|e| ValuesError::flag("--engine", e))?),
            (None, Some(text)) => Some(external_player(text).map_err(|e| ValuesError::flag("player", e))?),
            (None, None) => None,
        };
        let mut plans = vec![];
        for opts in &self.option_sets {
            let variant = Variant::load_with(&self.variant, opts)?;
            let pieces = Pieces::of(variant)?;
            let label = if opts.is_empty() { "default".to_string() } else { opts.join("+") };
            let dir = out.join(&label);
            let play = Play {
                nodes: self.nodes,
                seed: self.seed,
                engine: self.engine_settings(),
                player: player.clone(),
                adjudication: adjudication.clone(),
                concurrency,
                shard: o.shard,
                progress: o.progress.clone(),
            };
            let imbalance = match &self.imbalance {
                Some(im) => Some(ImbalancePlan {
                    comparisons: plan::comparisons(&im.compare, &pieces)?,
                    max_games: scaled(im.max_games),
                    batch_pairs: im.batch_pairs,
                    min_pairs: im.min_pairs,
                    precision: im.precision,
                    calibration: calibration_squares(variant, &im.calibration_for(variant))?,
                    random_plies: im.random_plies,
                    neutral: im.neutral_weights,
                    bracket: Bracket::of(im.bracket).map_err(|e| ValuesError::flag("[imbalance] bracket", e))?,
                    scale_check: im.scale_check,
                    starts: plan::starts(variant, im.starts.as_deref())
                        .map_err(|e| ValuesError::flag("[imbalance] starts", e))?,
                    rebuild_chain: false,
                    out: dir.join("imbalance"),
                }),
                None => None,
            };
            let regression = match &self.regress {
                Some(rg) => Some(RegressionPlan {
                    source: Source::SelfPlay(Corpus {
                        games: scaled(rg.games),
                        out: dir.join("regress"),
                        random_plies: rg.random_plies,
                        imbalance_fraction: rg.imbalance_fraction,
                        jitter: rg.jitter,
                        all_setups: rg.all_setups,
                    }),
                    skip_plies: rg.skip_plies,
                    min_pieces: rg.min_pieces,
                    // The report's phase filter, then the refits asked for.
                    fits: std::iter::once(Fit::Positions)
                        .chain(rg.phase_min_pieces.map(Fit::Phase))
                        .chain(rg.start_fit.then_some(Fit::Start))
                        .collect(),
                    models: rg
                        .models
                        .iter()
                        .map(|m| Model::parse(m).map_err(|e| ValuesError::Settings(format!("[regress] {e}"))))
                        .collect::<Result<_, _>>()?,
                    bootstrap: rg.bootstrap,
                    // The imbalance section's comparisons, estimated by regression too.
                    comparisons: match &self.imbalance {
                        Some(im) => plan::comparisons(&im.compare, &pieces)?,
                        None => vec![],
                    },
                    include_imbalance_games: rg.include_imbalance_games,
                }),
                None => None,
            };
            plans.push(StudyPlan::new(variant, self.variant.clone(), opts.clone(), play, regression, imbalance)?);
        }
        Ok(plans)
    }

    /// Runs every option set's plan; writes and returns the table.
    pub fn run(&self, o: &Overrides) -> Result<Vec<ValueRow>, ValuesError> {
        let plans = self.plans(o)?;
        let out = self.out_dir(o);
        let note = |text: String| o.progress.note(&text);
        if let Some(p) = plans.first().and_then(|p| p.play().player.as_ref()) {
            note(format!("every game played by {} (external UCI engine)", p.name));
        }
        note(format!(
            "experiment {} (seed {}, {} nodes per move, fairylab {})",
            self.name,
            self.seed,
            self.nodes,
            table::VERSION
        ));
        let mut rows = Vec::new();
        for plan in &plans {
            note(format!("== {} [{}]", self.variant, plan.label()));
            let result = study::run(plan)?;
            // A long experiment keeps its other figures when one fit fails (too few games).
            for (method, e) in &result.failed {
                note(format!("note: [{}] no {method} estimate: {e}", plan.label()));
            }
            rows.extend(result.rows);
        }
        if let Some((i, n)) = o.shard {
            note(format!(
                "shard {i}/{n} played in {}; merge the shards' folders (`fairylab merge`) and run again without --shard",
                out.display()
            ));
            return Ok(vec![]);
        }
        table::write(&out, &rows)?;
        let mut source = String::new();
        if let Some(x) = o.scale {
            source += &format!("{}--scale {x}\n", PLAYED_WITH);
        }
        if let Some(x) = &o.engine {
            source += &format!("{}--engine \"{x}\"\n", PLAYED_WITH);
        }
        let path = out.join("experiment.toml");
        std::fs::write(&path, source + &self.source).map_err(|e| ValuesError::io("write", &path, e))?;
        note(format!(
            "wrote {}, {} and {}",
            out.join("values.csv").display(),
            out.join("values.json").display(),
            path.display()
        ));
        Ok(rows)
    }
}

#[cfg(test)]
mod tests {
    use super::{Experiment, Overrides};
    use crate::values::ValuesError;

    const FILE: &str = "name = \"t\"\nvariant = \"chess\"\nseed = 1\nnodes = 100\n\n[imbalance]\nmax_games = 10\n";

    fn inner(e: ValuesError) -> ValuesError {
        match e {
            ValuesError::Experiment { error, .. } => *error,
            other => other,
        }
    }

    /// An experiment file's plans are checked when the file is read (and a shard when the
    /// command line adds it), with the errors the other sources give.
    #[test]
    fn a_file_with_a_bad_comparison_bracket_or_shard_is_refused_by_its_plans() {
        let bad = Experiment::parse(&format!("{FILE}compare = [\"B=X\"]\n"), "t.toml").unwrap_err();
        assert!(bad.to_string().starts_with("t.toml: "), "{bad}");
        assert!(matches!(inner(bad), ValuesError::Comparison(_)));
        let four = Experiment::parse(&format!("{FILE}compare = [\"B=N\"]\nbracket = 4\n"), "t.toml").unwrap_err();
        match inner(four) {
            ValuesError::Flag { flag, error } => {
                assert_eq!((flag.as_str(), *error), ("[imbalance] bracket", ValuesError::Bracket(4)))
            }
            e => panic!("{e:?}"),
        }
        let e = Experiment::parse(&format!("{FILE}compare = [\"B=N\"]\n"), "t.toml").unwrap();
        assert_eq!(e.plans(&Overrides::default()).map(|p| p.len()), Ok(1));
        let shard = e.plans(&Overrides { shard: Some((5, 4)), ..Overrides::default() }).unwrap_err();
        assert_eq!(shard, ValuesError::Shard("5/4".into()));
    }
}
