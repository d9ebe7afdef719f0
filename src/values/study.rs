//! The orchestrator of a value study: [`run`] plays and fits what a [`StudyPlan`] asks
//! (the imbalance matches first, so the regression can fit their games too, then the
//! regression's corpus and fits) and returns the table rows. `values regress`,
//! `values imbalance`, `experiment` and the report each build a plan and run it here.

use super::agreement;
use super::comparison::{self, Comparison};
use super::imbalance::{self, ImbalanceResult};
use super::method::{Fit, Method};
use super::pieces::Pieces;
use super::plan::{ImbalancePlan, Play, RegressionPlan, Source, StudyPlan};
use super::play::PlaySettings;
use super::regression::dataset::{self, Dataset, Selection};
use super::regression::{self, corpus, Regression};
use super::table::{self, Context, ValueRow};
use super::ValuesError;
use crate::tournament::Progress;
use crate::Variant;
use std::path::{Path, PathBuf};

/// What a plan gave.
#[derive(Clone, Debug, Default)]
pub struct StudyResult {
    /// The table: imbalance rows, regression rows, then the two estimators tested
    /// against each other. Empty for a shard, whose games alone give no figure.
    pub rows: Vec<ValueRow>,
    /// Fits that gave no figure (too few or too uniform games), each with why; the other
    /// fits' rows are in `rows`.
    pub failed: Vec<(Method, ValuesError)>,
    /// The comparisons the imbalance matches finally played (a rebuilt chain adds links).
    pub played: Vec<Comparison>,
}

impl Play {
    fn settings(&self, variant: Variant, random_plies: u32, out: PathBuf) -> PlaySettings {
        PlaySettings {
            variant,
            nodes: self.nodes,
            seed: self.seed,
            random_plies,
            max_drift: 150,
            adjudication: self.adjudication.clone(),
            engine: self.engine.clone(),
            concurrency: self.concurrency,
            progress: self.progress.clone(),
            out,
            shard: self.shard,
        }
    }
}

impl StudyPlan {
    fn context(&self, nodes: u64) -> Context {
        Context { variant: self.name().into(), options: self.options().join("+"), nodes, seed: self.play().seed }
    }
}

/// Every combination of White's and Black's setup choices as a start FEN.
fn setup_fens(variant: Variant) -> Result<Vec<String>, ValuesError> {
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
fn regression_data(
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
fn fit_regression(
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
fn imbalance_table(ctx: &Context, r: &ImbalanceResult, progress: &Progress) -> Vec<ValueRow> {
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

/// Runs a plan: its imbalance matches, then its regression, then (with both) the test of
/// one estimator against the other. A shard plays its games and gives no rows; a fit that
/// fails is listed in [`StudyResult::failed`] so a long study keeps its other figures.
pub fn run(plan: &StudyPlan) -> Result<StudyResult, ValuesError> {
    let pieces = Pieces::of(plan.variant())?;
    let mut result = StudyResult::default();
    let mut imbalance_dirs = vec![];
    if let Some(im) = plan.imbalance() {
        imbalance_dirs = run_imbalance(plan, im, &pieces, &mut result)?;
    }
    if let Some(rg) = plan.regression() {
        run_regression(plan, rg, &pieces, &imbalance_dirs, &mut result)?;
    }
    let tests = agreement_rows(&result.rows);
    result.rows.extend(tests);
    Ok(result)
}

/// The imbalance matches (with a rebuilt chain, the second stage's) into `result`;
/// returns the matches' folders.
fn run_imbalance(
    plan: &StudyPlan,
    im: &ImbalancePlan,
    pieces: &Pieces,
    result: &mut StudyResult,
) -> Result<Vec<PathBuf>, ValuesError> {
    let progress = &plan.play().progress;
    progress.note(&format!(
        "seed {} (opening random plies derive from it); games in {}",
        plan.play().seed,
        im.out.display()
    ));
    let (rows, dirs) = imbalance_stage(plan, im)?;
    // A shard plays only the first stage: the rebuilt links need the merged games.
    if !im.rebuild_chain || plan.play().shard.is_some() {
        return Ok(played(result, rows, dirs, im));
    }
    // The chain again from the imbalance least-squares values, not the rough values the
    // first chain came from, whose links come out unbalanced exactly where the two
    // estimators disagree; all matches are then combined in one least squares.
    let pawn = pieces.pawn_letter();
    let own: Vec<(char, f64)> = rows
        .iter()
        .filter(|r| r.method == Method::ImbalanceLsq && r.support.is_supported())
        .filter_map(|r| Some((r.piece.chars().next()?, r.value)))
        .filter(|&(c, _)| c != pawn)
        .collect();
    let (counts, max_pawns) = start_counts(plan.variant(), pawn);
    let texts: Vec<String> = im.comparisons.iter().map(Comparison::text).collect();
    let new: Vec<String> = comparison::balanced_chain(&own, &counts, pawn, max_pawns)
        .into_iter()
        .filter(|c| !comparison::duplicates(c, &texts))
        .collect();
    if own.len() < 2 || new.is_empty() {
        return Ok(played(result, rows, dirs, im));
    }
    progress.note(&format!("chain rebuilt from the imbalance values: also playing {}", new.join(", ")));
    let mut again = im.clone();
    again.comparisons.extend(super::plan::comparisons(&new, pieces)?);
    let (rows, dirs) = imbalance_stage(plan, &again)?;
    Ok(played(result, rows, dirs, &again))
}

fn played(result: &mut StudyResult, rows: Vec<ValueRow>, dirs: Vec<PathBuf>, im: &ImbalancePlan) -> Vec<PathBuf> {
    result.rows.extend(rows);
    result.played = im.comparisons.clone();
    dirs
}

/// One set of imbalance matches. The brackets and the scale check also go in full to
/// `brackets.json` in the run folder.
fn imbalance_stage(plan: &StudyPlan, im: &ImbalancePlan) -> Result<(Vec<ValueRow>, Vec<PathBuf>), ValuesError> {
    let pairs = im.max_games / 2;
    let s = imbalance::Settings {
        play: plan.play().settings(plan.variant(), im.random_plies, im.out.clone()),
        comparisons: im.comparisons.clone(),
        calibration: im.calibration.clone(),
        max_pairs: pairs,
        batch_pairs: im.batch_pairs,
        min_pairs: im.min_pairs.min(pairs),
        precision: im.precision,
        neutral: im.neutral,
        player: plan.play().player.clone(),
        bracket: im.bracket.map(|b| b.matches()),
        scale_check: im.scale_check,
        starts: im.starts.clone(),
    };
    let r = imbalance::run(&s)?;
    if let Some((i, n)) = plan.play().shard {
        plan.play().progress.note(&format!(
            "shard {i}/{n} played in {}; merge the shards' folders (`fairylab merge`) and run again \
             without --shard for the figures",
            im.out.display()
        ));
        return Ok((vec![], r.dirs));
    }
    if im.bracket.is_some() || im.scale_check {
        write_brackets(&im.out, &r)?;
    }
    let rows = imbalance_table(&plan.context(plan.play().nodes), &r, &plan.play().progress);
    Ok((rows, r.dirs))
}

/// The regression's corpus (unless it fits run folders) and every fit with every model,
/// into `result`.
fn run_regression(
    plan: &StudyPlan,
    rg: &RegressionPlan,
    pieces: &Pieces,
    imbalance_dirs: &[PathBuf],
    result: &mut StudyResult,
) -> Result<(), ValuesError> {
    let progress = &plan.play().progress;
    let (mut dirs, nodes) = match &rg.source {
        Source::Runs(dirs) => {
            // The table records the node count when every folder states the same one.
            let all: Vec<Option<u64>> = dirs.iter().map(|d| dataset::run_nodes(d)).collect();
            let nodes = match all.first() {
                Some(Some(n)) if all.iter().all(|x| *x == Some(*n)) => *n,
                _ => 0,
            };
            (dirs.clone(), nodes)
        }
        Source::SelfPlay(c) => {
            // An external engine plays with its own evaluation, as it does the matches
            // without neutral weights, so one plan serves either player.
            let jitter = if plan.play().player.is_some() { 0.0 } else { c.jitter };
            if jitter != c.jitter {
                progress.note(&format!(
                    "[{}] regression: weight jitter {} does not apply to an external engine",
                    plan.label(),
                    c.jitter
                ));
            }
            let s = corpus::Settings {
                play: plan.play().settings(plan.variant(), c.random_plies, c.out.clone()),
                games: c.games,
                imbalance_fraction: c.imbalance_fraction,
                jitter,
                fens: if c.all_setups { setup_fens(plan.variant())? } else { vec![] },
            };
            progress.note(&format!(
                "seed {} (openings, imbalances, jitter and bootstrap derive from it)",
                plan.play().seed
            ));
            let finished = corpus::generate_with(&s, plan.play().player.as_ref())?;
            // A fit on part of the games would be another study: a shard fits only once
            // the corpus is complete (merged before).
            if let (Some((i, k)), true) = (plan.play().shard, finished < c.games) {
                progress.note(&format!(
                    "shard {i}/{k}: {finished} of {} games in {}; merge the shards' folders \
                     (`fairylab merge`) and run again without --shard to fit",
                    c.games,
                    c.out.display()
                ));
                return Ok(());
            }
            (vec![c.out.clone()], plan.play().nodes)
        }
    };
    if rg.include_imbalance_games {
        dirs.extend(imbalance_dirs.iter().cloned());
    }
    let contrasts: Vec<(String, Vec<i32>)> =
        rg.comparisons.iter().map(|c| (c.label(), c.coefficients(pieces))).collect();
    let scaled = super::scale::quantities(pieces, &super::scale::variant_headlines(plan.variant(), pieces));
    let ctx = plan.context(nodes);
    for &fit in &rg.fits {
        let min_pieces = if let Fit::Phase(mp) = fit { mp } else { rg.min_pieces };
        let selection = Selection { skip_plies: rg.skip_plies, min_pieces, start: fit == Fit::Start };
        let data = regression_data(plan.variant(), pieces, &dirs, selection, progress)?;
        for &model in &rg.models {
            let settings = regression::Settings {
                model,
                replicates: rg.bootstrap,
                seed: plan.play().seed,
                contrasts: contrasts.clone(),
                scaled: scaled.clone(),
            };
            let method = Method::regression(model, fit);
            match fit_regression(pieces, &data, &settings, progress) {
                Ok(r) => result.rows.extend(table::regression_rows(&ctx, &r, method)),
                Err(e) => result.failed.push((method, e)),
            }
        }
    }
    Ok(())
}

/// The two estimators tested against each other (`values::agreement`), as rows, when the
/// rows have both: the least-squares imbalance values, and the bracketed ones.
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
            let a = agreement::compare(&agreement::pairs_of(rows, &method, regression));
            if !a.pieces.is_empty() {
                out.extend(agreement::rows(&template, &a, &method, regression));
            }
        }
    }
    out
}

/// `brackets.json`: every bracket's matches and price, and the scale check.
fn write_brackets(dir: &Path, r: &ImbalanceResult) -> Result<(), ValuesError> {
    let doc = serde_json::json!({ "brackets": r.brackets, "scale_check": r.scale_check });
    let path = dir.join("brackets.json");
    let text = serde_json::to_string_pretty(&doc).map_err(|e| ValuesError::io("write", &path, e))?;
    std::fs::create_dir_all(dir)
        .and_then(|_| std::fs::write(&path, text + "\n"))
        .map_err(|e| ValuesError::io("write", &path, e))
}

/// Copies of each piece letter in a variant's start position (White's side), and the most
/// pawns one side can give in a comparison (half its pawns, so both sides keep some).
fn start_counts(variant: Variant, pawn: char) -> (Vec<(char, usize)>, usize) {
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

/// The regression's sensitivity to its phase filter: the games the plan's regression
/// fitted (its run folders, or its self-play games already played), refitted with
/// `min_pieces` instead of the plan's, each piece's value under both and their
/// difference from one paired bootstrap over games. Plays nothing: without the games
/// (a shard, or a study not yet run) it is an error.
pub fn sensitivity(plan: &StudyPlan, min_pieces: f64) -> Result<Vec<regression::Shift>, ValuesError> {
    let Some(rg) = plan.regression() else {
        return Err(ValuesError::Settings("the sensitivity refits a regression: the plan has none".into()));
    };
    if !(0.0..=1.0).contains(&min_pieces) {
        return Err(ValuesError::Settings(format!("--min-pieces {min_pieces} must lie between 0 and 1")));
    }
    let pieces = Pieces::of(plan.variant())?;
    let dirs = match &rg.source {
        Source::Runs(dirs) => dirs.clone(),
        Source::SelfPlay(c) => vec![c.out.clone()],
    };
    let load = |min_pieces| {
        let selection = Selection { skip_plies: rg.skip_plies, min_pieces, start: false };
        let (games, _) = dataset::load_runs(&dirs, plan.variant(), &pieces, selection)?;
        Dataset::build(&pieces, &games)
    };
    let (base, other) = (load(rg.min_pieces)?, load(min_pieces)?);
    let model = *rg.models.first().ok_or_else(|| ValuesError::Settings("the regression has no model".into()))?;
    let settings = regression::Settings {
        model,
        replicates: rg.bootstrap,
        seed: plan.play().seed,
        contrasts: vec![],
        scaled: vec![],
    };
    regression::shift(&pieces, &base, &other, &settings)
}
