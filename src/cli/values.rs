//! `fairylab values regress`, `fairylab values imbalance` and `fairylab experiment`:
//! piece values in pawns with 95 % intervals (see `crate::values`).

use super::common::RunFlags;
use super::progress::progress;
use crate::maths::logistic::Model;
use crate::values::experiment::{Experiment, Overrides};
use crate::values::method::Fit;
use crate::values::pieces::{calibration_squares, default_calibration, Pieces};
use crate::values::plan::{self, Bracket, Corpus, ImbalancePlan, Play, RegressionPlan, Source, StudyPlan};
use crate::values::selfplay::{default_adjudication, external_player};
use crate::values::table::{self, ValueRow};
use crate::values::ValuesError;
use crate::Error;
use clap::{Args, Subcommand};
use std::path::PathBuf;

#[derive(Args, Clone, Debug)]
pub struct ValuesArgs {
    #[command(subcommand)]
    pub command: ValuesCommand,
}

#[derive(Subcommand, Clone, Debug)]
pub enum ValuesCommand {
    /// Logistic regression of game results on material over self-play positions.
    Regress(RegressArgs),
    /// Imbalance matches (X against Y) calibrated by a pawn-odds match.
    Imbalance(ImbalanceArgs),
    /// Quiet, materially even positions from recorded games, as starts for `imbalance --starts`.
    Starts(StartsArgs),
}

#[derive(Args, Clone, Debug)]
pub struct StartsArgs {
    #[arg(long)]
    pub variant: String,
    #[arg(long = "option")]
    pub options: Vec<String>,
    /// Run directories whose positions.csv the starts come from (match, tournament or
    /// values run folders).
    #[arg(long, num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
    /// Plies a start may be taken at, `FROM..TO` inclusive (one per game, seeded).
    #[arg(long, default_value = "20..40")]
    pub plies: String,
    /// Largest recorded |score| of a start, in centipawns.
    #[arg(long, default_value_t = 100)]
    pub max_score: i32,
    /// Most starts written.
    #[arg(long, default_value_t = 2000)]
    pub count: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The EPD file to write.
    #[arg(long)]
    pub out: PathBuf,
}

impl StartsArgs {
    fn run(&self) -> Result<(), Error> {
        use crate::values::imbalance::starts;
        let variant = crate::Variant::load_with(&self.variant, &self.options)?;
        let plies = self
            .plies
            .split_once("..")
            .and_then(|(a, b)| Some((a.trim().parse::<u32>().ok()?, b.trim().parse::<u32>().ok()?)))
            .ok_or_else(|| Error::Usage(format!("--plies {}: give FROM..TO, e.g. 20..40", self.plies)))?;
        let sampling = starts::Sampling { plies, max_score: self.max_score, count: self.count, seed: self.seed };
        let fens = starts::sample(variant, &self.data, &sampling)?;
        if fens.is_empty() {
            return Err(Error::Usage(format!(
                "no position of {} is quiet, even in material, within {} cp and between plies {}..{}",
                self.data.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", "),
                self.max_score,
                plies.0,
                plies.1
            )));
        }
        let sources: Vec<String> = self.data.iter().map(|d| d.display().to_string()).collect();
        let comments = vec![
            format!("{} starts for `values imbalance --starts`, variant {}", fens.len(), variant.name()),
            format!("from {}", sources.join(", ")),
            format!(
                "one per game at plies {}..{}, quiet, even material, |score| <= {} cp; seed {}",
                plies.0, plies.1, self.max_score, self.seed
            ),
        ];
        starts::write(&self.out, &fens, &comments)?;
        eprintln!("seed {}: wrote {} starts to {}", self.seed, fens.len(), self.out.display());
        Ok(())
    }
}

#[derive(Args, Clone, Debug)]
pub struct RegressArgs {
    #[arg(long)]
    pub variant: String,
    #[arg(long = "option")]
    pub options: Vec<String>,
    /// Run directories (games.csv + positions.csv) to fit on, e.g. from `match --out`.
    #[arg(long, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Play this many self-play games first (into --out) and fit on them.
    #[arg(long)]
    pub games: Option<u64>,
    /// Nodes per move of the self-play games.
    #[arg(long, default_value_t = 2000)]
    pub nodes: u64,
    /// Seed of openings, imbalances, weight jitter and the bootstrap.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where games go (with --games) and where values.csv/values.json are written.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Random plies after each opening (seeded).
    #[arg(long, default_value_t = 8)]
    pub random_plies: u32,
    /// Share of generated games that start with one random piece type missing per side.
    #[arg(long, default_value_t = 0.5)]
    pub imbalance_fraction: f64,
    /// Scale each side's engine piece values by a random factor in [1-J, 1+J] per game.
    #[arg(long, default_value_t = 0.0)]
    pub jitter: f64,
    /// Engine weight settings for generated games, e.g. `value.F=480` (repeatable).
    #[arg(long = "engine-set")]
    pub engine_set: Vec<String>,
    /// Opening plies of each game left out of the fit.
    #[arg(long, default_value_t = 10)]
    pub skip_plies: u32,
    /// Fit only positions that still hold at least this share of the start position's
    /// pieces (pawns and kings not counted). Endgames pull every value towards the pawn's
    /// (see `values::regression::dataset::Selection`); 0 keeps them.
    #[arg(long, default_value_t = 0.5)]
    pub min_pieces: f64,
    /// Fit the material each game started with (after any random plies) against its
    /// result, one observation per game, instead of its positions: material priced by all
    /// that follows from it, as imbalance matches price it. Rows `regression-MODEL-start`.
    #[arg(long)]
    pub start: bool,
    /// `logistic` (result as 1, 1/2, 0) or `ordinal` (win/draw/loss).
    #[arg(long, default_value = "logistic")]
    pub model: String,
    /// Bootstrap replicates (resampling whole games).
    #[arg(long, default_value_t = crate::values::regression::DEFAULT_REPLICATES)]
    pub bootstrap: usize,
    /// Start each generated game from a random one of the variant's setup combinations
    /// (Bland Chess 46: White's and Black's choices), so pieces only a setup brings in get
    /// values too.
    #[arg(long)]
    pub all_setups: bool,
    /// Also report a difference `X=Y` (e.g. `F=R` for F-R), as the imbalance command does.
    #[arg(long = "compare")]
    pub compare: Vec<String>,
    /// An external UCI engine as the player of every game, in `match --engine` syntax
    /// with `cmd=` (`"name=fs cmd=/usr/bin/fairy-stockfish option.Threads=1"`); the
    /// variant goes to it as `UCI_Variant` unless an option sets it.
    #[arg(long)]
    pub engine: Option<String>,
    #[command(flatten)]
    pub run: RunFlags,
}

#[derive(Args, Clone, Debug)]
pub struct ImbalanceArgs {
    #[arg(long)]
    pub variant: String,
    #[arg(long = "option")]
    pub options: Vec<String>,
    /// `X=Y`: the side with X plays the side with Y, e.g. `F=R`, `F=B+P` (repeatable).
    #[arg(long = "compare", required = true)]
    pub compare: Vec<String>,
    /// Most games per comparison (and for the pawn-odds calibration).
    #[arg(long, default_value_t = 2000)]
    pub games: u64,
    #[arg(long, default_value_t = 2000)]
    pub nodes: u64,
    /// Stop a comparison once its 95 % interval is within ± this many pawns.
    #[arg(long)]
    pub precision: Option<f64>,
    /// Game pairs played between two precision checks.
    #[arg(long, default_value_t = 50)]
    pub batch: u64,
    /// No comparison stops before this many pairs.
    #[arg(long, default_value_t = 100)]
    pub min_pairs: u64,
    /// Calibration pawns: file letters (`f`: each side's f-pawn; `ef`: a two-pawn handicap
    /// for large boards) or squares (`f2=f7`). Default: as the report chooses (`f` on 8
    /// files, the two central files on wider boards), so both give the same figures.
    #[arg(long)]
    pub calibration: Option<String>,
    #[arg(long, default_value_t = 8)]
    pub random_plies: u32,
    /// Play every comparison with the engine's own weights instead of neutral ones.
    #[arg(long)]
    pub no_neutral: bool,
    /// Engine weight settings, e.g. `value.F=480` (repeatable).
    #[arg(long = "engine-set")]
    pub engine_set: Vec<String>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Run directory (games per match, values.csv, values.json); resumed if it exists.
    /// Default: runs/imbalance-<variant>[-<options>]-s<seed>.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Price each comparison X=Y locally: after its match, play X against Y plus k pawns
    /// for N (2 or 3) values of k around its estimate and interpolate to an even score
    /// (rows `imbalance-bracket`, `imbalance-bracket-lsq`; details in brackets.json).
    #[arg(long, value_name = "N")]
    pub bracket: Option<u32>,
    /// Play the pawn-odds match under each comparison's neutral weights too and test
    /// whether they change the Elo of a pawn (rows `pawn-odds@X=Y`).
    #[arg(long)]
    pub scale_check: bool,
    /// Start every match from these positions (an EPD/FEN file, one position per line,
    /// e.g. quiet middlegames from `values starts`) instead of the start position: pair k
    /// from position k, each side losing its pieces there. Each match drops the positions
    /// where its removals are impossible or leave material hanging, and plays no more
    /// pairs than it has positions left. Each piece letter then removes an instance
    /// picked by the position (`P*`), not the one nearest the a-file. Use with
    /// `--random-plies 0` and `--calibration P`.
    #[arg(long)]
    pub starts: Option<PathBuf>,
    /// An external UCI engine as the player of every game, in `match --engine` syntax
    /// with `cmd=` (`"name=fs cmd=/usr/bin/fairy-stockfish option.Threads=1"`); the
    /// variant goes to it as `UCI_Variant` unless an option sets it.
    #[arg(long)]
    pub engine: Option<String>,
    #[command(flatten)]
    pub run: RunFlags,
}

/// The flags' shared part of a plan: how the games are played.
fn play(nodes: u64, seed: u64, engine_set: &[String], engine: Option<&str>, run: &RunFlags) -> Result<Play, Error> {
    let engine_set = engine_set
        .iter()
        .map(|s| {
            crate::eval::weights::parse_setting(s)
                .map_err(|e| ValuesError::flag("--engine-set", ValuesError::Engine(e)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Play {
        nodes,
        seed,
        engine: engine_set,
        player: engine.map(external_player).transpose().map_err(|e| ValuesError::flag("--engine", e))?,
        adjudication: default_adjudication(),
        concurrency: run.workers.threads()?,
        shard: run.shard.as_deref().map(plan::shard).transpose().map_err(|e| ValuesError::flag("--shard", e))?,
        progress: progress(run.workers.quiet),
    })
}

impl RegressArgs {
    /// The flags' one conversion into a study plan.
    pub fn plan(&self) -> Result<StudyPlan, Error> {
        let variant = crate::Variant::load_with(&self.variant, &self.options)?;
        let pieces = Pieces::of(variant)?;
        let play = play(self.nodes, self.seed, &self.engine_set, self.engine.as_deref(), &self.run)?;
        let source = match (self.games, self.data.is_empty()) {
            (Some(_), false) => return Err(usage("give either --data or --games, not both")),
            (None, true) => return Err(usage("give --data DIR... (run directories) or --games N --out DIR")),
            (None, false) => Source::Runs(self.data.clone()),
            (Some(games), true) => Source::SelfPlay(Corpus {
                games,
                out: self.out.clone().ok_or_else(|| usage("--games needs --out DIR for the games"))?,
                random_plies: self.random_plies,
                imbalance_fraction: self.imbalance_fraction,
                jitter: self.jitter,
                all_setups: self.all_setups,
            }),
        };
        let regression = RegressionPlan {
            source,
            skip_plies: self.skip_plies,
            min_pieces: self.min_pieces,
            fits: vec![if self.start { Fit::Start } else { Fit::Positions }],
            models: vec![Model::parse(&self.model).map_err(|e| ValuesError::flag("--model", ValuesError::Settings(e)))?],
            bootstrap: self.bootstrap,
            comparisons: plan::comparisons(&self.compare, &pieces).map_err(|e| ValuesError::flag("--compare", e))?,
            include_imbalance_games: false,
        };
        let name = variant.name().to_string();
        Ok(StudyPlan::new(variant, name, self.options.clone(), play, Some(regression), None)?)
    }
}

impl ImbalanceArgs {
    /// The flags' one conversion into a study plan.
    pub fn plan(&self) -> Result<StudyPlan, Error> {
        let variant = crate::Variant::load_with(&self.variant, &self.options)?;
        let pieces = Pieces::of(variant)?;
        let play = play(self.nodes, self.seed, &self.engine_set, self.engine.as_deref(), &self.run)?;
        let calibration = self.calibration.clone().unwrap_or_else(|| default_calibration(variant));
        let out = self.out.clone().unwrap_or_else(|| {
            let opts = if self.options.is_empty() { String::new() } else { format!("-{}", self.options.join("+")) };
            PathBuf::from("runs").join(format!("imbalance-{}{opts}-s{}", variant.name(), self.seed))
        });
        let imbalance = ImbalancePlan {
            comparisons: plan::comparisons(&self.compare, &pieces).map_err(|e| ValuesError::flag("--compare", e))?,
            max_games: self.games,
            batch_pairs: self.batch,
            min_pairs: self.min_pairs,
            precision: self.precision,
            calibration: calibration_squares(variant, &calibration)
                .map_err(|e| ValuesError::flag("--calibration", e))?,
            random_plies: self.random_plies,
            neutral: !self.no_neutral,
            bracket: Bracket::of(self.bracket).map_err(|e| ValuesError::flag("--bracket", e))?,
            scale_check: self.scale_check,
            starts: plan::starts(variant, self.starts.as_deref()).map_err(|e| ValuesError::flag("--starts", e))?,
            rebuild_chain: false,
            out,
        };
        let name = variant.name().to_string();
        Ok(StudyPlan::new(variant, name, self.options.clone(), play, None, Some(imbalance))?)
    }
}

fn usage(text: &str) -> Error {
    Error::Values(ValuesError::Settings(text.into()))
}

#[derive(Args, Clone, Debug)]
pub struct ExperimentArgs {
    /// Experiment file, e.g. configs/experiments/chess-values.toml.
    pub file: PathBuf,
    /// Output directory instead of the file's.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Multiply every game budget by this factor (e.g. 0.1 for a quick look).
    #[arg(long)]
    pub scale: Option<f64>,
    /// An external UCI engine as the player of every game, in `match --engine` syntax
    /// with `cmd=` (`"name=fs cmd=/usr/bin/fairy-stockfish option.Threads=1"`); the
    /// variant goes to it as `UCI_Variant` unless an option sets it.
    #[arg(long)]
    pub engine: Option<String>,
    #[command(flatten)]
    pub run: RunFlags,
}

fn finish(rows: &[ValueRow], out: Option<&PathBuf>) -> Result<(), Error> {
    // A shard's games alone give no figures (the study said what to do next).
    if rows.is_empty() {
        return Ok(());
    }
    print!("{}", table::format(rows));
    if let Some(dir) = out {
        table::write(dir, rows)?;
        eprintln!("wrote {} and {}", dir.join("values.csv").display(), dir.join("values.json").display());
    }
    Ok(())
}

/// Entry point of `fairylab values ...`.
pub fn run(a: &ValuesArgs) -> Result<(), Error> {
    match &a.command {
        ValuesCommand::Regress(r) => {
            let result = crate::values::run(&r.plan()?)?;
            if let Some((_, e)) = result.failed.into_iter().next() {
                return Err(e.into());
            }
            finish(&result.rows, r.out.as_ref())
        }
        ValuesCommand::Imbalance(i) => {
            let plan = i.plan()?;
            let result = crate::values::run(&plan)?;
            finish(&result.rows, plan.imbalance().map(|im| &im.out))
        }
        ValuesCommand::Starts(s) => s.run(),
    }
}

/// Entry point of `fairylab experiment FILE`.
pub fn experiment(a: &ExperimentArgs) -> Result<(), Error> {
    let e = Experiment::load(&a.file)?;
    let shard = a.run.shard.as_deref().map(plan::shard).transpose().map_err(|e| ValuesError::flag("--shard", e))?;
    // Checked here (0 is refused), passed as given: without the flag the file's value holds.
    a.run.workers.threads()?;
    let concurrency = a.run.workers.concurrency;
    let o = Overrides {
        out: a.out.clone(),
        scale: a.scale,
        concurrency,
        progress: progress(a.run.workers.quiet),
        shard,
        engine: a.engine.clone(),
    };
    let rows = e.run(&o)?;
    if shard.is_none() {
        print!("{}", table::format(&rows));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{ValuesArgs, ValuesCommand};
    use crate::values::ValuesError;
    use crate::Error;
    use clap::Parser;

    #[derive(Parser)]
    struct Line {
        #[command(flatten)]
        values: ValuesArgs,
    }

    /// The flag's name and the plan's error of a `values` command line.
    fn refusal(args: &[&str]) -> (String, ValuesError) {
        let line = Line::try_parse_from(std::iter::once("values").chain(args.iter().copied())).unwrap();
        let plan = match &line.values.command {
            ValuesCommand::Regress(r) => r.plan(),
            ValuesCommand::Imbalance(i) => i.plan(),
            ValuesCommand::Starts(_) => unreachable!(),
        };
        match plan {
            Err(Error::Values(ValuesError::Flag { flag, error })) => (flag, *error),
            other => panic!("{args:?}: {other:?}"),
        }
    }

    /// The command line's plans are checked when they are made, with the errors the
    /// experiment files and the report give.
    #[test]
    fn flags_with_a_bad_comparison_shard_or_bracket_are_refused_by_the_plan() {
        let imbalance = ["imbalance", "--variant", "chess", "--compare"];
        let (flag, e) = refusal(&[&imbalance[..], &["B=X"]].concat());
        assert!(flag == "--compare" && matches!(e, ValuesError::Comparison(_)), "{flag}: {e:?}");
        let (flag, e) = refusal(&[&imbalance[..], &["B=N", "--bracket", "4"]].concat());
        assert_eq!((flag.as_str(), e), ("--bracket", ValuesError::Bracket(4)));
        let regress = ["regress", "--variant", "chess", "--games", "4", "--out", "unused"];
        let (flag, e) = refusal(&[&regress[..], &["--shard", "5/4"]].concat());
        assert_eq!((flag.as_str(), e), ("--shard", ValuesError::Shard("5/4".into())));
        let (flag, e) = refusal(&[&regress[..], &["--compare", "F=R"]].concat());
        assert!(flag == "--compare" && matches!(e, ValuesError::Comparison(_)), "{flag}: {e:?}");
    }
}
