//! The two piece-value studies as one call each, for the command line and for Rust
//! callers (the report): `regress` fits the regression on given run directories or on
//! self-play games it generates first; `imbalance` plays the comparisons and the pawn-odds
//! calibration (resuming from its directory) and combines them. Both return table rows.
//! The command line fills the requests from its own flags (`cli::values`).

use super::comparison::Comparison;
use super::imbalance::{self, ImbalanceResult};
use super::method::{Fit, Method};
use super::pieces::{calibration_squares, Pieces};
use super::play::PlaySettings;
use super::regression::dataset::{self, Dataset, Selection};
use super::regression::{self, corpus, Regression};
use super::selfplay::default_adjudication;
use super::table::{self, Context, ValueRow};
use super::ValuesError;
use crate::maths::logistic::Model;
use crate::tournament::Progress;
use crate::Variant;
use std::path::PathBuf;

#[derive(Clone, Debug)]
pub struct RegressRequest {
    pub variant: String,
    pub options: Vec<String>,
    /// Run directories (games.csv + positions.csv) to fit on, e.g. from `match --out`.
    pub data: Vec<PathBuf>,
    /// Play this many self-play games first (into --out) and fit on them.
    pub games: Option<u64>,
    /// Nodes per move of the self-play games.
    pub nodes: u64,
    /// Seed of openings, imbalances, weight jitter and the bootstrap.
    pub seed: u64,
    /// Where games go (with --games) and where values.csv/values.json are written.
    pub out: Option<PathBuf>,
    /// Random plies after each opening (seeded).
    pub random_plies: u32,
    /// Share of generated games that start with one random piece type missing per side.
    pub imbalance_fraction: f64,
    /// Scale each side's engine piece values by a random factor in [1-J, 1+J] per game.
    pub jitter: f64,
    /// Engine weight settings for generated games, e.g. `value.F=480` (repeatable).
    pub engine_set: Vec<String>,
    /// Opening plies of each game left out of the fit.
    pub skip_plies: u32,
    /// Fit only positions that still hold at least this share of the start position's
    /// pieces (pawns and kings not counted). Endgames pull every value towards the pawn's
    /// (see `values::regression::dataset::Selection`); 0 keeps them.
    pub min_pieces: f64,
    /// Fit the material each game started with against its result, one observation per
    /// game (see `values::regression::dataset::Selection::start`), instead of its positions.
    pub start: bool,
    /// `logistic` (result as 1, 1/2, 0) or `ordinal` (win/draw/loss).
    pub model: String,
    /// Bootstrap replicates (resampling whole games).
    pub bootstrap: usize,
    /// Start each generated game from a random one of the variant's setup combinations
    /// (Bland Chess 46: White's and Black's choices), so pieces only a setup brings in get
    /// values too.
    pub all_setups: bool,
    /// Also report a difference `X=Y` (e.g. `F=R` for F-R), as the imbalance command does.
    pub compare: Vec<String>,
    /// Parallel games (default: number of cores).
    pub concurrency: Option<usize>,
    /// Play only shard i of n of the games (`2/4`), for clusters: merge the shards'
    /// folders with `fairylab merge`, then run again without --shard for the figures.
    pub shard: Option<String>,
    pub progress: Progress,
}

#[derive(Clone, Debug)]
pub struct ImbalanceRequest {
    pub variant: String,
    pub options: Vec<String>,
    /// `X=Y`: the side with X plays the side with Y, e.g. `F=R`, `F=B+P` (repeatable).
    pub compare: Vec<String>,
    /// Most games per comparison (and for the pawn-odds calibration).
    pub games: u64,
    pub nodes: u64,
    /// Stop a comparison once its 95 % interval is within ± this many pawns.
    pub precision: Option<f64>,
    /// Game pairs played between two precision checks.
    pub batch: u64,
    /// No comparison stops before this many pairs.
    pub min_pairs: u64,
    /// Calibration pawns: file letters (`f`: each side's f-pawn; `ef`: a two-pawn handicap
    /// for large boards) or squares (`f2=f7`).
    pub calibration: String,
    pub random_plies: u32,
    /// Play every comparison with the engine's own weights instead of neutral ones.
    pub no_neutral: bool,
    /// Engine weight settings, e.g. `value.F=480` (repeatable).
    pub engine_set: Vec<String>,
    pub seed: u64,
    /// Run directory (games per match, values.csv, values.json); resumed if it exists.
    /// Default: runs/imbalance-<variant>[-<options>]-s<seed>.
    pub out: Option<PathBuf>,
    pub concurrency: Option<usize>,
    /// Play only shard i of n of the games (`2/4`), for clusters: merge the shards'
    /// folders with `fairylab merge`, then run again without --shard for the figures.
    pub shard: Option<String>,
    pub progress: Progress,
}

/// Study settings beyond the requests (which callers build field by field, so they keep
/// their fields): the player, local pawn pricing and the neutral-weight scale check.
#[derive(Clone, Debug, Default)]
pub struct Extras {
    /// An external UCI engine playing every game, as an `--engine` spec with `cmd=`
    /// (`name=fs cmd=/path option.UCI_Variant=chess`); fairylab's own engine by default.
    pub engine: Option<String>,
    /// Bracket each comparison with 2 or 3 matches of X against Y plus k pawns.
    pub bracket: Option<u32>,
    /// Play the pawn-odds match under each comparison's neutral weights too.
    pub scale_check: bool,
    /// An EPD/FEN file of start positions for the matches (`imbalance::starts`).
    pub starts: Option<PathBuf>,
}

impl Extras {
    /// The external player, checked.
    pub fn player(&self) -> Result<Option<crate::tournament::engines::EngineSpec>, ValuesError> {
        self.engine.as_deref().map(super::selfplay::external_player).transpose()
    }

    /// The bracket size, checked.
    pub fn bracket(&self) -> Result<Option<u32>, ValuesError> {
        match self.bracket {
            Some(n) if !(2..=3).contains(&n) => {
                Err(ValuesError::Settings(format!("--bracket {n}: give 2 or 3 matches")))
            }
            b => Ok(b),
        }
    }

    /// The start positions, read and checked (empty: the variant's start).
    pub fn starts(&self, variant: Variant) -> Result<Vec<String>, ValuesError> {
        match &self.starts {
            Some(path) => crate::tournament::openings::read_file(variant, &path.to_string_lossy())
                .map_err(|e| ValuesError::flag("--starts", e)),
            None => Ok(vec![]),
        }
    }
}

fn settings(list: &[String]) -> Result<Vec<(String, f32)>, ValuesError> {
    list.iter()
        .map(|s| {
            crate::eval::weights::parse_setting(s)
                .map_err(|e| ValuesError::flag("--engine-set", ValuesError::Engine(e)))
        })
        .collect()
}

fn options_label(options: &[String]) -> String {
    options.join("+")
}

/// Every combination of White's and Black's setup choices as a start FEN.
pub(super) fn setup_fens(variant: Variant) -> Result<Vec<String>, ValuesError> {
    let choices = variant.setup_choices();
    if choices.is_empty() {
        return Err(ValuesError::Settings(format!("--all-setups: {} has no setup choices", variant.name())));
    }
    let mut fens = vec![];
    for w in &choices {
        for b in &choices {
            fens.push(
                variant.setup_position(&format!("{w}/{b}")).map_err(|e| ValuesError::Position(e.to_string()))?.fen(),
            );
        }
    }
    Ok(fens)
}

/// The regression's data from run folders: each game's quiet positions, identical games
/// kept once (with a note).
pub fn regression_data(
    variant: Variant,
    pieces: &Pieces,
    dirs: &[PathBuf],
    selection: Selection,
    progress: &Progress,
) -> Result<Dataset, ValuesError> {
    let (games, dups) = dataset::load_runs(dirs, variant, pieces, selection)?;
    if dups > 0 {
        progress.note(&format!("dropped {dups} duplicate games (identical engines replay a game when colours swap)"));
    }
    Dataset::build(pieces, &games)
}

/// Fits the regression, saying what it could not estimate.
pub fn fit_regression(
    pieces: &Pieces,
    data: &Dataset,
    settings: &regression::Settings,
    progress: &Progress,
) -> Result<Regression, ValuesError> {
    let r = regression::estimate(pieces, data, settings)?;
    progress.note(&format!(
        "bootstrap: {} refits, {} failed; the pawn's coefficient is {:.2} standard errors from zero",
        settings.replicates, r.failed_replicates, r.pawn_z
    ));
    if let Some(e) = r.estimates.iter().find(|e| !e.support.is_supported()) {
        progress.warn(&format!("values in pawns not supported by these games: {}", e.note));
    }
    if !r.missing.is_empty() {
        let m: String = r.missing.iter().collect();
        progress.warn(&format!(
            "no estimate for {m}: their counts never differ between the sides in the selected positions"
        ));
    }
    Ok(r)
}

/// The imbalance matches' rows, saying what they could not give.
pub fn imbalance_table(ctx: &Context, r: &ImbalanceResult, progress: &Progress) -> Vec<ValueRow> {
    if let Err(e) = &r.combined {
        progress.note(&format!("note: no absolute values from the comparisons: {e}"));
    }
    for m in &r.comparisons {
        if !m.note.is_empty() {
            progress.note(&format!("{}: {}", m.label, m.note));
        }
    }
    table::imbalance_rows(ctx, r)
}

/// Regression study (`fairylab values regress`). With a shard, the shard's games are
/// played and no rows come back unless the corpus is complete (merged before), since a
/// fit on part of the games would be another study.
pub fn regress(a: &RegressRequest) -> Result<Vec<ValueRow>, ValuesError> {
    regress_with(a, &Extras::default())
}

/// [`regress`] with extras (of which the regression uses the player).
pub fn regress_with(a: &RegressRequest, x: &Extras) -> Result<Vec<ValueRow>, ValuesError> {
    let player = x.player()?;
    let variant = Variant::load_with(&a.variant, &a.options)?;
    let shard = a.shard.as_deref().map(crate::tournament::parse_shard).transpose()?;
    let pieces = Pieces::of(variant)?;
    let model = Model::parse(&a.model).map_err(|e| ValuesError::flag("--model", ValuesError::Settings(e)))?;
    if a.bootstrap < 10 {
        return Err(ValuesError::Settings("--bootstrap needs at least 10 replicates".into()));
    }
    let contrasts = a
        .compare
        .iter()
        .map(|c| Comparison::parse(c, &pieces).map(|c| (c.label(), c.coefficients(&pieces))))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| ValuesError::flag("--compare", e))?;
    let mut nodes = 0;
    let dirs = match (&a.games, a.data.is_empty()) {
        (Some(_), false) => return Err(ValuesError::Settings("give either --data or --games, not both".into())),
        (None, true) => {
            return Err(ValuesError::Settings("give --data DIR... (run directories) or --games N --out DIR".into()))
        }
        (None, false) if shard.is_some() => {
            return Err(ValuesError::Settings("--shard plays games: it needs --games, not --data".into()))
        }
        (None, false) => {
            // The table records the node count when every directory states the same one.
            let all: Vec<Option<u64>> = a.data.iter().map(|d| dataset::run_nodes(d)).collect();
            if let Some(Some(n)) = all.first() {
                if all.iter().all(|x| *x == Some(*n)) {
                    nodes = *n;
                }
            }
            a.data.clone()
        }
        (Some(n), true) => {
            let out =
                a.out.clone().ok_or_else(|| ValuesError::Settings("--games needs --out DIR for the games".into()))?;
            let s = corpus::Settings {
                play: PlaySettings {
                    variant,
                    nodes: a.nodes,
                    seed: a.seed,
                    random_plies: a.random_plies,
                    max_drift: 150,
                    engine: settings(&a.engine_set)?,
                    adjudication: default_adjudication(),
                    concurrency: crate::tournament::concurrency(a.concurrency)?,
                    progress: a.progress.clone(),
                    out: out.clone(),
                    shard,
                },
                games: *n,
                imbalance_fraction: a.imbalance_fraction,
                jitter: a.jitter,
                fens: if a.all_setups { setup_fens(variant)? } else { vec![] },
            };
            s.validate()?;
            a.progress.note(&format!("seed {} (openings, imbalances, jitter and bootstrap derive from it)", a.seed));
            let finished = corpus::generate_with(&s, player.as_ref())?;
            if let (Some((i, k)), true) = (shard, finished < *n) {
                a.progress.note(&format!(
                    "shard {i}/{k}: {finished} of {} games in {}; merge the shards' folders \
                     (`fairylab merge`) and run again without --shard to fit",
                    *n,
                    out.display()
                ));
                return Ok(vec![]);
            }
            nodes = a.nodes;
            vec![out]
        }
    };
    let selection = Selection { skip_plies: a.skip_plies, min_pieces: a.min_pieces, start: a.start };
    let data = regression_data(variant, &pieces, &dirs, selection, &a.progress)?;
    let scaled = super::scale::quantities(&pieces, &super::scale::variant_headlines(variant, &pieces));
    let settings = regression::Settings { model, replicates: a.bootstrap, seed: a.seed, contrasts, scaled };
    let r = fit_regression(&pieces, &data, &settings, &a.progress)?;
    let ctx = Context { variant: variant.name().into(), options: options_label(&a.options), nodes, seed: a.seed };
    let method = Method::regression(model, if a.start { Fit::Start } else { Fit::Positions });
    Ok(table::regression_rows(&ctx, &r, method))
}

/// Imbalance study (`fairylab values imbalance`); also returns the run directory. With a
/// shard, its games are played (the whole budget: no early stop) and no rows come back.
pub fn imbalance(a: &ImbalanceRequest) -> Result<(Vec<ValueRow>, PathBuf), ValuesError> {
    imbalance_with(a, &Extras::default())
}

/// [`imbalance`] with an external player, bracketed comparisons or the scale check. The
/// brackets and the check are also written in full to `brackets.json` in the run
/// directory.
pub fn imbalance_with(a: &ImbalanceRequest, x: &Extras) -> Result<(Vec<ValueRow>, PathBuf), ValuesError> {
    let player = x.player()?;
    let bracket = x.bracket()?;
    let variant = Variant::load_with(&a.variant, &a.options)?;
    let shard = a.shard.as_deref().map(crate::tournament::parse_shard).transpose()?;
    let pieces = Pieces::of(variant)?;
    let comparisons = a
        .compare
        .iter()
        .map(|c| Comparison::parse(c, &pieces).map_err(|e| ValuesError::flag("--compare", e)))
        .collect::<Result<Vec<_>, _>>()?;
    if a.games < 2 || a.nodes == 0 || a.batch == 0 {
        return Err(ValuesError::Settings("--games must be at least 2, --nodes and --batch positive".into()));
    }
    if let Some(p) = a.precision {
        if p.is_nan() || p <= 0.0 {
            return Err(ValuesError::Settings(format!("--precision {p} must be a positive number of pawns")));
        }
    }
    let calibration =
        calibration_squares(variant, &a.calibration).map_err(|e| ValuesError::flag("--calibration", e))?;
    let out = a.out.clone().unwrap_or_else(|| {
        let opts = if a.options.is_empty() { String::new() } else { format!("-{}", options_label(&a.options)) };
        PathBuf::from("runs").join(format!("imbalance-{}{opts}-s{}", variant.name(), a.seed))
    });
    a.progress.note(&format!("seed {} (opening random plies derive from it); games in {}", a.seed, out.display()));
    let s = imbalance::Settings {
        play: PlaySettings {
            variant,
            nodes: a.nodes,
            random_plies: a.random_plies,
            max_drift: 150,
            seed: a.seed,
            adjudication: default_adjudication(),
            engine: settings(&a.engine_set)?,
            concurrency: crate::tournament::concurrency(a.concurrency)?,
            progress: a.progress.clone(),
            out: out.clone(),
            shard,
        },
        comparisons,
        calibration,
        max_pairs: a.games / 2,
        batch_pairs: a.batch,
        min_pairs: a.min_pairs.min(a.games / 2),
        precision: a.precision,
        neutral: !a.no_neutral,
        player,
        bracket,
        scale_check: x.scale_check,
        starts: x.starts(variant)?,
    };
    let r = imbalance::run(&s)?;
    if bracket.is_some() || x.scale_check {
        write_brackets(&out, &r)?;
    }
    if let Some((i, n)) = shard {
        a.progress.note(&format!(
            "shard {i}/{n} played in {}; merge the shards' folders (`fairylab merge`) and run again \
             without --shard for the figures",
            out.display()
        ));
        return Ok((vec![], out));
    }
    let ctx =
        Context { variant: variant.name().into(), options: options_label(&a.options), nodes: a.nodes, seed: a.seed };
    Ok((imbalance_table(&ctx, &r, &a.progress), out))
}

/// `brackets.json`: every bracket's matches and price, and the scale check.
pub fn write_brackets(dir: &std::path::Path, r: &ImbalanceResult) -> Result<(), ValuesError> {
    let doc = serde_json::json!({ "brackets": r.brackets, "scale_check": r.scale_check });
    let path = dir.join("brackets.json");
    let text = serde_json::to_string_pretty(&doc).map_err(|e| ValuesError::io("write", &path, e))?;
    std::fs::create_dir_all(dir)
        .and_then(|_| std::fs::write(&path, text + "\n"))
        .map_err(|e| ValuesError::io("write", &path, e))
}

/// Copies of each piece letter in a variant's start position (White's side), and the most
/// pawns one side can give in a comparison (half its pawns, so both sides keep some).
pub fn start_counts(variant: Variant, pawn: char) -> (Vec<(char, usize)>, usize) {
    let fen = variant.start_fen();
    let board = fen.split_whitespace().next().unwrap_or("");
    let mut counts: Vec<(char, usize)> = vec![];
    for c in board.chars().filter(|c| c.is_ascii_uppercase()) {
        match counts.iter_mut().find(|x| x.0 == c) {
            Some(x) => x.1 += 1,
            None => counts.push((c, 1)),
        }
    }
    let pawns = counts.iter().find(|x| x.0 == pawn).map_or(0, |x| x.1);
    (counts, pawns / 2)
}

/// The imbalance study with its chain rebuilt from its own values: plays `a.compare`,
/// then builds the chain again from the imbalance least-squares values (not the rough
/// values the first chain came from, whose links come out unbalanced exactly where the
/// two estimators disagree) and plays the links that are new, all matches combined in one
/// least squares. Also returns the comparisons finally played. A shard plays only the
/// first stage: the rebuilt links need the merged games.
pub fn imbalance_rebuilt(a: &ImbalanceRequest) -> Result<(Vec<ValueRow>, Vec<String>), ValuesError> {
    imbalance_rebuilt_with(a, &Extras::default())
}

/// [`imbalance_rebuilt`] with extras (player, brackets, scale check) for both stages.
pub fn imbalance_rebuilt_with(a: &ImbalanceRequest, x: &Extras) -> Result<(Vec<ValueRow>, Vec<String>), ValuesError> {
    let (rows, _) = imbalance_with(a, x)?;
    if a.shard.is_some() {
        return Ok((rows, a.compare.clone()));
    }
    let variant = Variant::load_with(&a.variant, &a.options)?;
    let pawn = Pieces::of(variant)?.pawn_letter();
    let own: Vec<(char, f64)> = rows
        .iter()
        .filter(|r| r.method == Method::ImbalanceLsq && r.support.is_supported())
        .filter_map(|r| Some((r.piece.chars().next()?, r.value)))
        .filter(|&(c, _)| c != pawn)
        .collect();
    let (counts, max_pawns) = start_counts(variant, pawn);
    let new: Vec<String> = super::comparison::balanced_chain(&own, &counts, pawn, max_pawns)
        .into_iter()
        .filter(|c| !super::comparison::duplicates(c, &a.compare))
        .collect();
    if own.len() < 2 || new.is_empty() {
        return Ok((rows, a.compare.clone()));
    }
    a.progress.note(&format!("chain rebuilt from the imbalance values: also playing {}", new.join(", ")));
    let mut again = a.clone();
    again.compare.extend(new);
    let (rows, _) = imbalance_with(&again, x)?;
    Ok((rows, again.compare))
}

/// The regression's sensitivity to its phase filter: the games `a` fitted (its `--data`
/// directories, or the self-play games already in its `--out`), refitted with
/// `min_pieces` instead of `a.min_pieces`, each piece's value under both and their
/// difference from one paired bootstrap over games. Plays nothing: without the games
/// (a shard, or a study not yet run) it is an error.
pub fn regress_sensitivity(a: &RegressRequest, min_pieces: f64) -> Result<Vec<regression::Shift>, ValuesError> {
    if !(0.0..=1.0).contains(&min_pieces) {
        return Err(ValuesError::Settings(format!("--min-pieces {min_pieces} must lie between 0 and 1")));
    }
    let variant = Variant::load_with(&a.variant, &a.options)?;
    let pieces = Pieces::of(variant)?;
    let model = Model::parse(&a.model).map_err(|e| ValuesError::flag("--model", ValuesError::Settings(e)))?;
    let dirs = match (&a.games, &a.out) {
        (None, _) if !a.data.is_empty() => a.data.clone(),
        (Some(_), Some(out)) => vec![out.clone()],
        _ => {
            return Err(ValuesError::Settings(
                "the sensitivity refits games already played: give --data or --games with --out".into(),
            ))
        }
    };
    let load = |min_pieces| {
        let (games, _) = dataset::load_runs(
            &dirs,
            variant,
            &pieces,
            Selection { skip_plies: a.skip_plies, min_pieces, start: false },
        )?;
        Dataset::build(&pieces, &games)
    };
    let (base, other) = (load(a.min_pieces)?, load(min_pieces)?);
    let settings =
        regression::Settings { model, replicates: a.bootstrap, seed: a.seed, contrasts: vec![], scaled: vec![] };
    regression::shift(&pieces, &base, &other, &settings)
}
