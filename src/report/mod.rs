//! Balance reports: one command runs (or resumes) the experiments a variant's report
//! needs and writes `report.md`, a self-contained `report.html` (inline SVG charts) and
//! every figure as CSV/JSON beside them.

mod budget;
mod diagrams;
pub use budget::{Budget, Pricing};
pub mod card;
mod estimators;
pub mod figures;
mod format;
pub mod glossary;
pub mod matrix;
pub mod names;
pub mod published;
mod render;
pub mod study;
mod value_text;
pub use estimators::agreement as estimator_agreement;
pub use format::{cell_score as format_cell_score, elo as format_elo, pct as format_pct};
pub use render::{html as render_html, markdown as render_markdown};
pub use value_text::price_verdict as render_price_verdict;
mod error;
mod files;
mod summary;
pub use error::ReportError;
pub use files::{summary, write};
pub mod showcase;
pub mod svg;
mod valuation;
pub mod verdict;
mod viewer;

use crate::search::Limits;
use crate::tournament::{self, engines::EngineSpec, openings::OpeningConfig, output, Mode, Progress, Settings};
use crate::values::pieces::Pieces;
use crate::values::support::Support;
use crate::Variant;
use figures::{Balance, Interval, Lengths};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use valuation::{evaluators, piece_values, Beside};
pub use valuation::{independent_difference, OTHER_MIN_PIECES};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct OptionFigures {
    pub option: String,
    pub balance: Balance,
    /// Piece values measured with the option on (same methods as the report's own).
    #[serde(default)]
    pub piece_values: Vec<PieceValue>,
    /// The pieces whose worth the option changes (from the variant file).
    #[serde(default)]
    pub pieces: Vec<String>,
    /// The regression's values on the orthodox scale and ratios with the option on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scaled: Vec<PieceValue>,
    /// Studies of the report's rules with this option, feeding the option's card.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<study::Study>,
    /// The orthodox scale with the option on, which differs from the report's when the
    /// option changes an orthodox piece (Super Jump Knights: the knight leaves the anchor).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale_anchor: Option<String>,
}

/// The engine that played a report's games: the build's commit and a digest of the engine
/// configuration (weights and search switches) the variant's games used.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct EngineId {
    pub version: String,
    pub commit: String,
    pub config_digest: String,
}

impl EngineId {
    pub fn of(variant: &str) -> EngineId {
        let config = crate::eval::EngineConfig::for_variant(variant)
            .map_or_else(|e| format!("unreadable: {e}"), |c| format!("{c:?}"));
        EngineId {
            version: env!("CARGO_PKG_VERSION").into(),
            commit: env!("FAIRYLAB_COMMIT").into(),
            config_digest: crate::tournament::manifest::digest(&[config]).unwrap_or_default(),
        }
    }
}

/// A piece letter and its name, as the card prints it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PieceName {
    pub letter: char,
    pub name: String,
    #[serde(default)]
    pub pawn: bool,
}

/// A piece that stands in for an orthodox one (`replaces` in the variant file), and the
/// orthodox piece's value in chess by the same method and budget.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Replacement {
    pub piece: PieceValue,
    pub orthodox: PieceValue,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SetupCell {
    pub white: String,
    pub black: String,
    pub games: u64,
    pub white_score: Interval,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SetupMatrix {
    pub choices: Vec<String>,
    pub cells: Vec<SetupCell>,
    /// White's choice with the best worst case over Black's choices, and that score; None
    /// when no cell has enough games.
    pub best_white: Option<(String, f64)>,
    /// Black's choice with the best worst case (lowest White score it allows at most).
    pub best_black: Option<(String, f64)>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PieceValue {
    pub piece: String,
    #[serde(deserialize_with = "figures::nan_if_null")]
    pub value: f64,
    #[serde(deserialize_with = "figures::nan_if_null")]
    pub low: f64,
    #[serde(deserialize_with = "figures::nan_if_null")]
    pub high: f64,
    /// Without support the figures are NaN and the pages print "not enough data".
    #[serde(default)]
    pub support: Support,
    pub method: String,
    pub games: u64,
    /// Nodes per move of the games behind the figure (0 where unknown: reports written
    /// before it was recorded, whose figures were all played at the first balance budget).
    #[serde(default)]
    pub nodes: u64,
    /// `pawns` (left out of JSON), `orthodox-scale` or `ratio` (`values::scale`).
    #[serde(default = "pawns", skip_serializing_if = "is_pawns")]
    pub unit: String,
}

fn pawns() -> String {
    "pawns".into()
}

fn is_pawns(u: &String) -> bool {
    u == "pawns"
}

impl PieceValue {
    /// A value study's row as the report shows it.
    pub fn of_row(r: &crate::values::table::ValueRow) -> PieceValue {
        PieceValue {
            piece: r.piece.clone(),
            value: r.value,
            low: r.ci_low,
            high: r.ci_high,
            support: r.support,
            method: r.method.to_string(),
            games: r.games,
            nodes: r.nodes,
            unit: r.unit.clone(),
        }
    }

    /// `value,ci_low,ci_high` for a CSV row: empty fields without support.
    fn csv_figures(&self) -> String {
        if self.support.is_supported() {
            format!("{:.3},{:.3},{:.3}", self.value, self.low, self.high)
        } else {
            ",,".into()
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Tuning {
    pub config: String,
    pub games: u64,
    /// The tuned engine's Elo against the default one.
    pub elo: Interval,
    /// (weight, default, tuned) for the material weights.
    pub weights: Vec<(String, f64, f64)>,
}

/// The headline comparison priced twice: in pawns of the start position's pawn-odds match
/// (the `imbalance` row) and in local pawns, by its own bracket of matches of X against Y
/// plus k pawns, priced where the score is even (`imbalance-bracket`); with the Elo of a
/// pawn each price implies. Undefined figures are NaN (null in JSON).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PawnPrices {
    /// The option added to the report's rules; none for its own rules.
    #[serde(default)]
    pub option: Option<String>,
    /// The comparison as the headline reads it (`F-R`).
    pub comparison: String,
    /// The difference in start-position pawns, and the Elo of such a pawn.
    pub calibrated: Interval,
    pub pawn_odds_elo: Interval,
    /// The difference in local pawns, and the local pawn's Elo (the bracket line's slope).
    pub bracketed: Interval,
    pub local_elo: Interval,
    /// The pawn-odds match replayed under the comparison's neutral weights: whether those
    /// weights move the Elo of a pawn (the scale check).
    pub neutral_pawn_odds_elo: Interval,
    /// Whether the scale check was played (not at the quick budget; reports written before
    /// this field all played it).
    #[serde(default = "played")]
    pub scale_checked: bool,
    /// Which pawns the bracket added, its line test, and the scale check's test.
    pub note: String,
    /// Games of the bracket's matches.
    pub games: u64,
}

fn played() -> bool {
    true
}

/// How much figures move when one setting of their measurement changes, on the same
/// games (the regression's phase filter) or on games played again (the search budget).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Sensitivity {
    /// The setting changed (`min-pieces`, `nodes`), its report value and the other one.
    pub setting: String,
    pub base: String,
    pub other: String,
    pub rows: Vec<SensitivityRow>,
    /// How the difference's interval was made.
    pub note: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SensitivityRow {
    /// A piece letter, a difference (`F-R`) or `elo-per-pawn`.
    pub quantity: String,
    /// `pawns` or `elo`.
    pub unit: String,
    pub base: Interval,
    pub other: Interval,
    /// `other - base` with its 95 % interval.
    pub difference: Interval,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ReportData {
    pub variant: String,
    pub title: String,
    pub options: Vec<String>,
    pub budget: Budget,
    pub seed: u64,
    pub version: String,
    pub balance: Vec<Balance>,
    pub lengths: Lengths,
    pub terminations: BTreeMap<String, u64>,
    pub piece_values: Vec<PieceValue>,
    #[serde(default)]
    pub replacements: Vec<Replacement>,
    pub option_effects: Vec<OptionFigures>,
    pub setup: Option<SetupMatrix>,
    pub tuning: Option<Tuning>,
    pub notes: Vec<String>,
    /// The headline priced in local pawns beside the pawn-odds price, in the report's rules
    /// and with each option (absent from reports made before it existed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pawn_prices: Vec<PawnPrices>,
    /// The piece values' sensitivity to the regression's phase filter and to the search
    /// budget (absent from reports made before it existed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sensitivity: Vec<Sensitivity>,
    /// The two estimators tested against each other (log-ratio per piece, common scale
    /// factor); derived from `piece_values` whenever a report is written, so never read.
    #[serde(default, skip_deserializing)]
    pub agreement: Option<crate::values::agreement::Agreement>,
    /// The figures set beside those published for the variant (its file's `[published]`);
    /// derived like `agreement`.
    #[serde(default, skip_deserializing, skip_serializing_if = "Option::is_none")]
    pub published: Option<published::PublishedCheck>,
    /// Experiments on the same variant attached as evidence (`report --study`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub studies: Vec<study::Study>,
    /// The regression's values on the orthodox scale and its ratios (`values::scale`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scaled: Vec<PieceValue>,
    /// Studies with one estimator (a larger regression), attached to feed the card.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<study::Study>,
    /// How the orthodox scale is anchored ("Q + R + B + N = 20 (textbook 9, 5, 3, 3)").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale_anchor: Option<String>,
    /// The card's comparisons as ratios (`F/R`), from the variant file or derived.
    #[serde(default)]
    pub headline: Vec<String>,
    /// Every non-royal piece with its name, in the variant file's order.
    #[serde(default)]
    pub pieces: Vec<PieceName>,
    /// The engine that played the games (absent from reports made before it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<EngineId>,
    /// The answer card, derived from the figures above whenever a report is written.
    #[serde(default, skip_deserializing)]
    pub answer: Option<card::AnswerCard>,
    /// A few of the report's games, chosen to show its headline piece at work (absent from
    /// reports made before they were kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games: Option<showcase::Showcase>,
}

impl ReportData {
    /// Fills the figures derived from the others (the estimators' agreement, the answer
    /// card).
    pub fn derive(&mut self) {
        let a = estimators::agreement(&self.piece_values);
        self.agreement = (!a.pieces.is_empty() || !a.untested.is_empty()).then_some(a);
        self.published = published::check(self);
        // The headline is the question the variant file asks, not a figure: a page rendered
        // again asks today's (and reports made before the card kept none). A variant that
        // no longer loads by name, a user's file, keeps what was recorded.
        if let Ok(v) = Variant::load_with(&self.variant, &self.options) {
            self.describe(v);
        }
        let names: Vec<(char, String)> = self.pieces.iter().map(|p| (p.letter, p.name.clone())).collect();
        self.answer = Some(card::build(self, &names));
    }

    /// The variant's pieces, headline and scale anchor, as the card reads them.
    fn describe(&mut self, variant: Variant) {
        let Ok(pieces) = Pieces::of(variant) else { return };
        self.pieces =
            pieces.types.iter().map(|t| PieceName { letter: t.letter, name: t.name.clone(), pawn: t.pawn }).collect();
        self.headline =
            crate::values::scale::variant_headlines(variant, &pieces).iter().map(|h| h.ratio_label()).collect();
        self.scale_anchor = crate::values::scale::anchor_text(&pieces);
        for o in &mut self.option_effects {
            let mut options = self.options.clone();
            options.push(o.option.clone());
            if let Some(p) = Variant::load_with(&self.variant, &options).ok().and_then(|v| Pieces::of(v).ok()) {
                o.scale_anchor = crate::values::scale::anchor_text(&p);
            }
        }
    }
}

pub struct ReportConfig {
    pub variant: String,
    pub options: Vec<String>,
    pub budget: Budget,
    pub out: PathBuf,
    pub concurrency: usize,
    pub seed: u64,
    pub progress: Progress,
    /// Play only shard `i` of `n` of every run's games and write no report: for clusters.
    /// Merge the shards' folders (`tournament::output::merge_tree`) and run unsharded.
    pub shard: Option<(u64, u64)>,
    /// Game pairs of the balance runs instead of the budget's: one number for every run,
    /// or one per node budget (a calibration wants many games where they are cheap).
    pub balance_pairs: Option<Vec<u64>>,
    /// Node budgets per move instead of the budget's: the balance runs play at each, and
    /// everything else at the first.
    pub nodes: Option<Vec<u64>>,
    /// Value tables of experiments on the same variant, shown as evidence (kept with those
    /// an earlier report.json in `out` holds).
    pub studies: Vec<study::Study>,
}

impl ReportConfig {
    /// The node budgets of the balance runs; the first also plays everything else.
    pub fn nodes(&self) -> Vec<u64> {
        match &self.nodes {
            Some(n) if !n.is_empty() => n.clone(),
            _ => self.budget.nodes().to_vec(),
        }
    }

    /// Game pairs of the `i`-th balance run.
    fn balance_pairs(&self, i: usize) -> u64 {
        match self.balance_pairs.as_deref() {
            Some([all]) => *all,
            Some(each) => each.get(i).copied().unwrap_or_else(|| self.budget.pairs()),
            None => self.budget.pairs(),
        }
    }
}

/// The opening margin of the balance games (centipawns): random plies only among moves this
/// near the best, so that the openings keep the start's balance (a first-move advantage
/// is a few tens of Elo, smaller than what a random move usually gives away).
const BALANCE_MARGIN: i32 = 25;

fn self_play(
    variant: Variant,
    nodes: u64,
    pairs: u64,
    cfg: &ReportConfig,
    dir: &Path,
    fens: Vec<String>,
    plies: u32,
) -> Result<Vec<output::GameRow>, ReportError> {
    let settings = Settings {
        variant,
        engines: vec![
            EngineSpec::parse("name=A").map_err(ReportError::Engine)?,
            EngineSpec::parse(&format!("name=B nodes={}", crate::tournament::engines::twin_nodes(nodes)))
                .map_err(ReportError::Engine)?,
        ],
        mode: Mode::RoundRobin,
        rounds: pairs,
        concurrency: cfg.concurrency,
        openings: OpeningConfig {
            fens,
            random_plies: plies,
            margin: Some(BALANCE_MARGIN),
            seed: cfg.seed,
            ..Default::default()
        },
        limits: Limits::nodes(nodes),
        clock: None,
        adjudication: Default::default(),
        sprt: None,
        out: Some(dir.to_path_buf()),
        pgn: None,
        shard: cfg.shard,
        progress: cfg.progress.clone(),
    };
    tournament::run(&settings)?;
    output::read_games(dir).map_err(ReportError::Games)
}

/// Runs (or resumes) the report's experiments and writes the report files.
pub fn run(cfg: &ReportConfig) -> Result<ReportData, ReportError> {
    let variant = Variant::load_with(&cfg.variant, &cfg.options)?;
    let runs = cfg.out.join("runs");
    let mut data = ReportData {
        variant: variant.name().into(),
        title: variant.title().into(),
        options: cfg.options.clone(),
        budget: cfg.budget,
        seed: cfg.seed,
        version: env!("CARGO_PKG_VERSION").into(),
        balance: vec![],
        lengths: figures::lengths(&[]),
        terminations: BTreeMap::new(),
        piece_values: vec![],
        replacements: vec![],
        option_effects: vec![],
        setup: None,
        tuning: None,
        notes: vec![],
        pawn_prices: vec![],
        sensitivity: vec![],
        agreement: None,
        published: None,
        studies: vec![],
        scaled: vec![],
        evidence: vec![],
        scale_anchor: None,
        headline: vec![],
        pieces: vec![],
        engine: Some(EngineId::of(variant.name())),
        answer: None,
        games: None,
    };
    data.describe(variant);
    let (evidence, studies): (Vec<study::Study>, Vec<study::Study>) =
        study::kept(&cfg.out)?.into_iter().partition(|s| s.for_card_only());
    (data.evidence, data.studies) = (evidence, studies);
    let others = study::attach(&mut data, &cfg.studies);
    // Studies of the rules plus one option wait for the option's figures (below).
    let for_option = |s: &study::Study| {
        variant.available_options().iter().any(|(o, _)| s.matches_with(&data.variant, &data.options, Some(o)))
    };
    let others: Vec<&study::Study> = others.into_iter().filter(|s| !for_option(s)).collect();
    if let Some(s) = others.iter().find(|s| !data.studies.iter().any(|a| a.source == s.source)) {
        return Err(ReportError::Study(format!(
            "--study {}: the study is of {} ({}), the report of {} ({})",
            s.source,
            s.variant,
            if s.options.is_empty() { "no options".into() } else { s.options.join(", ") },
            data.variant,
            if data.options.is_empty() { "no options".into() } else { data.options.join(", ") }
        )));
    }
    balance(variant, cfg, &runs, &mut data)?;
    data.option_effects = option_effects(variant, cfg, &runs)?;
    study::attach(&mut data, &cfg.studies);
    if let Some(matrix) = setup_matrix(variant, cfg, &runs)? {
        data.setup = Some(matrix);
        data.notes.push(
            "The Bland Chess 46 start position is provisional (rules README #15): the source diagram is missing."
                .into(),
        );
    }
    all_piece_values(variant, cfg, &runs, &mut data)?;
    if cfg.shard.is_none() {
        data.games = showcase::choose(variant, &runs, &cfg.nodes())?;
    }
    data.tuning = tuning(variant, cfg, &runs)?;
    data.notes.push(format!(
        "Self-play between two copies of the default engine, the second with 1/16 more nodes per move so that the two games of a pair differ; each opening is the start position plus 4 seeded random plies (seed {}), each drawn among the moves a 300-node search scores within {} centipawns of the best (so that openings stay near the start's balance), and no opening repeats (when the 4-ply lines within that margin are used up, the next openings are a ply longer); each is played twice with colours swapped, which cancels the small strength difference in White's score.",
        cfg.seed, BALANCE_MARGIN
    ));
    if cfg.nodes.is_some() || cfg.balance_pairs.is_some() {
        let runs: Vec<String> = cfg
            .nodes()
            .iter()
            .enumerate()
            .map(|(i, n)| format!("{n} nodes per move, {} game pairs", cfg.balance_pairs(i)))
            .collect();
        data.notes.push(format!(
            "Balance runs set on the command line (`--nodes`, `--pairs`): {}; everything else at the `{}` budget and {} nodes per move.",
            runs.join("; "),
            cfg.budget,
            cfg.nodes()[0]
        ));
    }
    data.derive();
    // A shard's figures cover part of the games: they are never written as a report.
    if cfg.shard.is_none() {
        write(&cfg.out, &data)?;
    }
    Ok(data)
}

/// Balance at two strengths; the game shape (lengths, terminations) from the stronger one.
fn balance(variant: Variant, cfg: &ReportConfig, runs: &Path, data: &mut ReportData) -> Result<(), ReportError> {
    let mut last = vec![];
    for (i, nodes) in cfg.nodes().into_iter().enumerate() {
        cfg.progress.note(&format!("balance at {nodes} nodes per move"));
        let pairs = cfg.balance_pairs(i);
        let games = self_play(variant, nodes, pairs, cfg, &runs.join(format!("balance-{nodes}")), vec![], 4)?;
        data.balance.push(figures::balance(&format!("{nodes} nodes"), nodes, &games));
        last = games;
    }
    data.lengths = figures::lengths(&last);
    data.terminations = figures::terminations(&last);
    Ok(())
}

/// The balance with each option the report does not apply (their piece values come later).
fn option_effects(variant: Variant, cfg: &ReportConfig, runs: &Path) -> Result<Vec<OptionFigures>, ReportError> {
    let mut effects = vec![];
    for (opt, _) in variant.available_options() {
        if cfg.options.contains(opt) {
            continue;
        }
        let mut opts = cfg.options.clone();
        opts.push(opt.clone());
        let v = Variant::load_with(&cfg.variant, &opts)?;
        let nodes = cfg.nodes()[0];
        cfg.progress.note(&format!("option {opt}"));
        let games = self_play(v, nodes, cfg.budget.pairs(), cfg, &runs.join(format!("option-{opt}")), vec![], 4)?;
        effects.push(OptionFigures {
            option: opt.clone(),
            balance: figures::balance(opt, nodes, &games),
            piece_values: vec![],
            pieces: variant.option_pieces(opt).iter().map(|c| c.to_string()).collect(),
            scaled: vec![],
            evidence: vec![],
            scale_anchor: None,
        });
    }
    Ok(effects)
}

/// Setup choices (Bland Chess 46): White's choice against Black's, and each side's best.
fn setup_matrix(variant: Variant, cfg: &ReportConfig, runs: &Path) -> Result<Option<SetupMatrix>, ReportError> {
    let choices = variant.setup_choices();
    if choices.is_empty() {
        return Ok(None);
    }
    let nodes = cfg.nodes()[0];
    let mut cells = vec![];
    for w in &choices {
        for b in &choices {
            let field = format!("{w}/{b}");
            let fen = variant.setup_position(&field).map_err(|e| ReportError::Position(e.to_string()))?.fen();
            cfg.progress.note(&format!("setup {field}"));
            let dir = runs.join(format!("setup-{w}-{b}"));
            let games = self_play(variant, nodes, cfg.budget.small_pairs(), cfg, &dir, vec![fen], 2)?;
            let bal = figures::balance(&field, nodes, &games);
            cells.push(SetupCell {
                white: w.clone(),
                black: b.clone(),
                games: bal.games,
                white_score: bal.white_score,
            });
        }
    }
    let best_white = matrix::maximin(&choices, &cells, true);
    let best_black = matrix::maximin(&choices, &cells, false);
    Ok(Some(SetupMatrix { choices, cells, best_white, best_black }))
}

/// Piece values by both estimators: regression on self-play with varied material, and
/// imbalance matches (a chain through every piece, plus "Flying Bomber against Rook" in
/// the bomber games) calibrated by pawn odds. Options get the regression, F=R and a match
/// for each piece they change; pieces that stand in for orthodox ones (Noble WingS) get
/// the same estimate in chess beside them.
fn all_piece_values(
    variant: Variant,
    cfg: &ReportConfig,
    runs: &Path,
    data: &mut ReportData,
) -> Result<(), ReportError> {
    cfg.progress.note("piece values");
    let chain = cfg.budget.imbalance_chain();
    if !chain {
        data.notes.push(format!(
            "Imbalance matches: at the `{}` budget only the headline match of the report's own rules, its pawn-odds calibration and its bracket are played, and the options get the regression only (the card compares them by its ratios); the chain through every piece, the options' matches and the scale check start at `standard`.",
            cfg.budget
        ));
    }
    let mut beside = Beside::default();
    data.piece_values = piece_values(
        &cfg.variant,
        &cfg.options,
        cfg,
        &runs.join("values"),
        chain,
        &[],
        cfg.budget.pricing(true),
        &mut data.notes,
        &mut beside,
    );
    data.pawn_prices.append(&mut beside.prices);
    data.sensitivity.append(&mut beside.sensitivity);
    data.scaled.append(&mut beside.scaled);
    for o in &mut data.option_effects {
        cfg.progress.note(&format!("piece values with {}", o.option));
        let mut opts = cfg.options.clone();
        opts.push(o.option.clone());
        let focus = variant.option_pieces(&o.option);
        let dir = runs.join(format!("values-{}", o.option));
        o.piece_values = piece_values(
            &cfg.variant,
            &opts,
            cfg,
            &dir,
            false,
            focus,
            cfg.budget.pricing(false),
            &mut data.notes,
            &mut beside,
        );
        for mut p in beside.prices.drain(..) {
            p.option = Some(o.option.clone());
            data.pawn_prices.push(p);
        }
        o.scaled.append(&mut beside.scaled);
    }
    let replaced: Vec<(char, char)> =
        Pieces::of(variant)?.types.iter().filter_map(|t| Some((t.letter, t.replaces?))).collect();
    if replaced.is_empty() {
        return Ok(());
    }
    cfg.progress.note("orthodox piece values for the replaced pieces");
    let chess = piece_values(
        "chess",
        &[],
        cfg,
        &runs.join("values-chess"),
        false,
        &[],
        cfg.budget.orthodox_pricing(),
        &mut data.notes,
        &mut Beside::default(),
    );
    let regression = |list: &[PieceValue], l: char| {
        list.iter().find(|v| v.piece == l.to_string() && v.method.starts_with("regression")).cloned()
    };
    for (own, orth) in replaced {
        if let (Some(a), Some(b)) = (regression(&data.piece_values, own), regression(&chess, orth)) {
            data.replacements.push(Replacement { piece: a, orthodox: b });
        }
    }
    Ok(())
}

/// A tuned engine config, where one exists: its gain over the default and its material
/// weights.
fn tuning(variant: Variant, cfg: &ReportConfig, runs: &Path) -> Result<Option<Tuning>, ReportError> {
    let tuned = format!("configs/engines/{}-tuned.toml", variant.name());
    if !cfg.options.is_empty() || !Path::new(&tuned).exists() {
        return Ok(None);
    }
    cfg.progress.note(&format!("tuned engine {tuned}"));
    let nodes = cfg.nodes()[0];
    let settings = Settings {
        variant,
        engines: vec![
            EngineSpec::parse(&format!("name=tuned config={tuned}")).map_err(ReportError::Engine)?,
            EngineSpec::parse("name=default").map_err(ReportError::Engine)?,
        ],
        mode: Mode::RoundRobin,
        rounds: cfg.budget.pairs(),
        concurrency: cfg.concurrency,
        openings: OpeningConfig { random_plies: 4, seed: cfg.seed, ..Default::default() },
        limits: Limits::nodes(nodes),
        clock: None,
        adjudication: Default::default(),
        sprt: None,
        out: Some(runs.join("tuning")),
        pgn: None,
        shard: cfg.shard,
        progress: cfg.progress.clone(),
    };
    let summary = tournament::run(&settings)?;
    let e = &summary.encounters[0];
    // Too few games for a two-sided estimate: NaN, which the pages print as not enough data.
    let elo = e.penta.elo().map_or(Interval { value: f64::NAN, low: f64::NAN, high: f64::NAN }, |x| Interval {
        value: x.value,
        low: x.lower,
        high: x.upper,
    });
    let (default, tuned_ev) = evaluators(variant, &tuned)?;
    let weights = default
        .layout
        .names
        .iter()
        .enumerate()
        .filter(|(_, n)| n.starts_with("value."))
        .map(|(i, n)| (n.clone(), default.weights()[i] as f64, tuned_ev.weights()[i] as f64))
        .collect();
    Ok(Some(Tuning { config: tuned, games: e.wdl.games(), elo, weights }))
}

#[cfg(test)]
mod tests {
    use super::valuation::{engine_values, evaluator, headline_oriented};
    use super::*;

    #[test]
    fn engine_values_are_the_material_weights_in_pawns() {
        let chess = Variant::load("chess", &[]).unwrap();
        let v = engine_values(chess).unwrap();
        let get = |c: char| v.iter().find(|x| x.0 == c).map(|x| x.1);
        let ev = evaluator(chess, &crate::eval::EngineConfig::for_variant("chess").unwrap()).unwrap();
        let pawns =
            |c: char| ev.weight(&format!("value.{c}.mg")).map(|w| w as f64 / ev.weight("value.P.mg").unwrap() as f64);
        assert_eq!(get('P'), Some(1.0));
        assert_eq!(get('N'), pawns('N'));
        assert_eq!(get('Q'), pawns('Q'));
        assert_eq!(get('K'), None, "the king has no material weight");
        // With textbook values the chain links each piece to the next cheaper ones.
        let textbook = [('P', 1.0), ('N', 3.2), ('B', 3.3), ('R', 5.0), ('Q', 9.5)];
        let counts: Vec<(char, usize)> = textbook.iter().map(|&(c, _)| (c, if c == 'Q' { 1 } else { 2 })).collect();
        let chain = crate::values::comparison::balanced_chain(&textbook, &counts, 'P', 4);
        assert_eq!(chain, ["N=P+P+P", "B=N", "R=B+P+P", "Q=R+R"]);
    }

    #[test]
    fn a_rook_against_bomber_estimate_reads_as_bomber_against_rook() {
        let v = |piece: &str, value, low, high| PieceValue {
            piece: piece.into(),
            value,
            low,
            high,
            support: Support::Supported,
            method: "imbalance".into(),
            games: 10,
            nodes: 1000,
            unit: "pawns".into(),
        };
        let f = headline_oriented(v("R-F", 0.25, -0.5, 1.0), Some("F=R"));
        assert_eq!((f.piece.as_str(), f.value, f.low, f.high), ("F-R", -0.25, -1.0, 0.5));
        let kept = headline_oriented(v("R-F", 0.25, -0.5, 1.0), None);
        assert_eq!(kept.piece, "R-F", "without a headline nothing is turned");
        let same = headline_oriented(v("Q-(R+R)", 1.0, 0.5, 1.5), Some("F=R"));
        assert_eq!((same.piece.as_str(), same.value, same.low, same.high), ("Q-(R+R)", 1.0, 0.5, 1.5));
    }
}
