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

use super::comparison::Comparison;
use super::imbalance;
use super::method::{Fit, Method};
use super::pieces::{calibration_squares, default_calibration, Pieces};
use super::play::PlaySettings;
use super::regression;
use super::regression::corpus;
use super::regression::dataset::Selection;
use super::selfplay::default_adjudication;
use super::study;
use super::table::{self, Context, ValueRow};
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

/// The two estimators tested against each other (`values::agreement`), as rows, when an
/// option set has both: the least-squares imbalance values, and the bracketed ones.
fn agreement_rows(rows: &[ValueRow]) -> Vec<ValueRow> {
    let Some(template) = rows.iter().find(|r| r.method.is_regression()) else { return vec![] };
    let template = ValueRow { games: 0, ..template.clone() };
    // The first model's fit, and its refits (on the fuller board, on the start's material)
    // when there are any.
    let mut regressions = vec![template.method.clone()];
    if let Method::Regression { model, fit: Fit::Positions } = template.method {
        let refit = |phase: bool| {
            rows.iter().map(|r| &r.method).find(|m| match m {
                Method::Regression { model: other, fit: Fit::Phase(_) } => phase && *other == model,
                Method::Regression { model: other, fit: Fit::Start } => !phase && *other == model,
                _ => false,
            })
        };
        regressions.extend([refit(true), refit(false)].into_iter().flatten().cloned());
    }
    let mut out = vec![];
    for regression in &regressions {
        for method in [Method::ImbalanceLsq, Method::ImbalanceBracketLsq] {
            let a = super::agreement::compare(&super::agreement::pairs_of(rows, &method, regression));
            if !a.pieces.is_empty() {
                out.extend(super::agreement::rows(&template, &a, &method, regression));
            }
        }
    }
    out
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
        for opts in &e.option_sets {
            let refs: Vec<&str> = opts.iter().map(|s| s.as_str()).collect();
            let v = Variant::load(&e.variant, &refs).map_err(|err| within(err.into()))?;
            let p = Pieces::of(v).map_err(within)?;
            super::weights::material(v, &p, &e.engine_settings())
                .map_err(|err| within(ValuesError::flag("engine", err)))?;
            if let Some(im) = &e.imbalance {
                if im.compare.is_empty() {
                    return fail("[imbalance] compare is empty".into());
                }
                for c in &im.compare {
                    Comparison::parse(c, &p).map_err(within)?;
                }
                calibration_squares(v, &im.calibration_for(v)).map_err(within)?;
                if im.max_games < 2 || im.batch_pairs == 0 {
                    return fail("[imbalance] max_games must be at least 2 and batch_pairs positive".into());
                }
                if im.precision.is_some_and(|p| p.is_nan() || p <= 0.0) {
                    return fail("[imbalance] precision must be positive".into());
                }
                if im.bracket.is_some_and(|n| !(2..=3).contains(&n)) {
                    return fail("[imbalance] bracket must be 2 or 3 matches".into());
                }
                if let Some(path) = &im.starts {
                    crate::tournament::openings::read_file(v, &path.to_string_lossy())
                        .map_err(|err| within(ValuesError::flag("[imbalance] starts", err)))?;
                }
            }
            if let Some(r) = &e.regress {
                if r.models.is_empty() {
                    return fail("[regress] models is empty".into());
                }
                for m in &r.models {
                    Model::parse(m).map_err(|err| within(ValuesError::Settings(format!("[regress] {err}"))))?;
                }
                if r.games == 0 || r.bootstrap < 10 {
                    return fail("[regress] games must be positive and bootstrap at least 10".into());
                }
                if !(0.0..=1.0).contains(&r.min_pieces) {
                    return fail(format!("[regress] min_pieces {} must lie between 0 and 1", r.min_pieces));
                }
                if r.all_setups && v.setup_choices().is_empty() {
                    return fail(format!("[regress] all_setups: {} has no setup choices", v.name()));
                }
                if let Some(mp) = r.phase_min_pieces {
                    if !(0.0..=1.0).contains(&mp) || mp == r.min_pieces {
                        return fail(format!(
                            "[regress] phase_min_pieces {mp} must lie between 0 and 1 and differ from min_pieces ({})",
                            r.min_pieces
                        ));
                    }
                }
            }
        }
        if let Some(p) = &e.player {
            super::selfplay::external_player(p).map_err(|err| within(ValuesError::flag("player", err)))?;
        }
        Ok(e)
    }

    pub fn load(path: &Path) -> Result<Experiment, ValuesError> {
        let text = std::fs::read_to_string(path).map_err(|e| ValuesError::io("read", path, e))?;
        Self::parse(&text, &path.display().to_string())
    }

    pub fn engine_settings(&self) -> Vec<(String, f32)> {
        self.engine.iter().map(|(k, v)| (k.clone(), *v)).collect()
    }

    /// Runs every option set and estimator; writes and returns the table.
    pub fn run(&self, o: &Overrides) -> Result<Vec<ValueRow>, ValuesError> {
        let out = o.out.clone().or_else(|| self.out.clone()).unwrap_or_else(|| PathBuf::from("runs").join(&self.name));
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
        let note = |text: String| o.progress.note(&text);
        let mut adjudication = default_adjudication();
        adjudication.resign_score = self.resign_score;
        if self.resign_score <= 0 {
            adjudication.resign_moves = 0;
        }
        let player = match o.engine.as_ref().or(self.player.as_ref()) {
            Some(text) => Some(super::selfplay::external_player(text)?),
            None => None,
        };
        if let Some(p) = &player {
            note(format!("every game played by {} (external UCI engine)", p.name));
        }
        let mut rows = Vec::new();
        note(format!(
            "experiment {} (seed {}, {} nodes per move, fairylab {})",
            self.name,
            self.seed,
            self.nodes,
            table::VERSION
        ));
        for opts in &self.option_sets {
            let refs: Vec<&str> = opts.iter().map(|s| s.as_str()).collect();
            let variant = Variant::load(&self.variant, &refs)?;
            let label = if opts.is_empty() { "default".to_string() } else { opts.join("+") };
            let dir = out.join(&label);
            let ctx =
                Context { variant: self.variant.clone(), options: opts.join("+"), nodes: self.nodes, seed: self.seed };
            let pieces = Pieces::of(variant)?;
            note(format!("== {} [{}]", self.variant, label));
            let first = rows.len();
            let mut imbalance_dirs = Vec::new();
            if let Some(im) = &self.imbalance {
                let comparisons =
                    im.compare.iter().map(|c| Comparison::parse(c, &pieces)).collect::<Result<Vec<_>, _>>()?;
                let s = imbalance::Settings {
                    play: PlaySettings {
                        variant,
                        nodes: self.nodes,
                        random_plies: im.random_plies,
                        max_drift: 150,
                        seed: self.seed,
                        adjudication: adjudication.clone(),
                        engine: self.engine_settings(),
                        concurrency,
                        progress: o.progress.clone(),
                        out: dir.join("imbalance"),
                        shard: o.shard,
                    },
                    comparisons,
                    calibration: calibration_squares(variant, &im.calibration_for(variant))?,
                    max_pairs: scaled(im.max_games) / 2,
                    batch_pairs: im.batch_pairs,
                    min_pairs: im.min_pairs.min(scaled(im.max_games) / 2),
                    precision: im.precision,
                    neutral: im.neutral_weights,
                    player: player.clone(),
                    bracket: im.bracket,
                    scale_check: im.scale_check,
                    starts: match &im.starts {
                        Some(path) => crate::tournament::openings::read_file(variant, &path.to_string_lossy())
                            .map_err(|e| ValuesError::flag("[imbalance] starts", e))?,
                        None => vec![],
                    },
                };
                let r = imbalance::run(&s)?;
                if o.shard.is_none() {
                    rows.extend(study::imbalance_table(&ctx, &r, &o.progress));
                    if im.bracket.is_some() || im.scale_check {
                        study::write_brackets(&s.play.out, &r)?;
                    }
                }
                imbalance_dirs = r.dirs;
            }
            if let Some(rg) = &self.regress {
                let cs = corpus::Settings {
                    play: PlaySettings {
                        variant,
                        nodes: self.nodes,
                        seed: self.seed,
                        random_plies: rg.random_plies,
                        max_drift: 150,
                        engine: self.engine_settings(),
                        adjudication: adjudication.clone(),
                        concurrency,
                        progress: o.progress.clone(),
                        out: dir.join("regress"),
                        shard: o.shard,
                    },
                    games: scaled(rg.games),
                    imbalance_fraction: rg.imbalance_fraction,
                    // An external engine plays with its own evaluation, as it does the
                    // matches without neutral weights, so one file serves either player.
                    jitter: if player.is_some() { 0.0 } else { rg.jitter },
                    fens: if rg.all_setups { study::setup_fens(variant)? } else { vec![] },
                };
                if player.is_some() && rg.jitter > 0.0 {
                    note(format!(
                        "[{label}] regression: weight jitter {} does not apply to an external engine",
                        rg.jitter
                    ));
                }
                corpus::generate_with(&cs, player.as_ref())?;
                if o.shard.is_some() {
                    continue;
                }
                let mut dirs = vec![cs.play.out.clone()];
                if rg.include_imbalance_games {
                    dirs.extend(imbalance_dirs.iter().cloned());
                }
                // The imbalance section's comparisons, estimated by regression too.
                let contrasts = match &self.imbalance {
                    Some(im) => im
                        .compare
                        .iter()
                        .map(|c| Comparison::parse(c, &pieces).map(|c| (c.label(), c.coefficients(&pieces))))
                        .collect::<Result<Vec<_>, _>>()?,
                    None => vec![],
                };
                let scaled = super::scale::quantities(&pieces, &super::scale::variant_headlines(variant, &pieces));
                // The report's phase filter, then the refit on the fuller board if asked.
                let fits = std::iter::once((rg.min_pieces, Fit::Positions))
                    .chain(rg.phase_min_pieces.map(|mp| (mp, Fit::Phase(mp))))
                    .chain(rg.start_fit.then_some((rg.min_pieces, Fit::Start)));
                for (min_pieces, fit) in fits {
                    let sel = Selection { skip_plies: rg.skip_plies, min_pieces, start: fit == Fit::Start };
                    let data = study::regression_data(variant, &pieces, &dirs, sel, &o.progress)?;
                    for m in &rg.models {
                        let model = Model::parse(m).map_err(ValuesError::Settings)?;
                        let settings = regression::Settings {
                            model,
                            replicates: rg.bootstrap,
                            seed: self.seed,
                            contrasts: contrasts.clone(),
                            scaled: scaled.clone(),
                        };
                        let method = Method::regression(model, fit);
                        // A long experiment should not lose its imbalance table because the
                        // regression could not be fitted (too few games): say so and go on.
                        match study::fit_regression(&pieces, &data, &settings, &o.progress) {
                            Ok(r) => rows.extend(table::regression_rows(&ctx, &r, method)),
                            Err(e) => note(format!("note: [{label}] no {method} estimate: {e}")),
                        }
                    }
                }
            }
            rows.extend(agreement_rows(&rows[first..]));
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
