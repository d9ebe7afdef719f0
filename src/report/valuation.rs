//! A report's piece values: both estimators played for one set of rules, the headline
//! priced in local pawns, and the values' sensitivity to the phase filter and the search.

use super::figures::Interval;
use super::{PawnPrices, PieceValue, Pricing, ReportConfig, ReportError, Sensitivity, SensitivityRow};
use crate::maths::logistic::Model;
use crate::tournament::Progress;
use crate::values::method::{Fit, Method};
use crate::values::pieces::{calibration_squares, default_calibration, Pieces};
use crate::values::plan::{self, Bracket, Corpus, ImbalancePlan, Play, RegressionPlan, Source, StudyPlan};
use crate::values::regression::dataset::Selection;
use crate::values::selfplay::default_adjudication;
use crate::values::table::ValueRow;
use crate::values::ValuesError;
use crate::Variant;
use std::path::Path;

/// Piece values of a variant (with options) by regression on self-play with varied
/// material, plus imbalance matches calibrated by pawn odds: F=R in bomber games, with
/// `chain` a chain through every piece, and one near-balanced match for each `focus`
/// piece (those an option changes). With `pricing.bracket` the headline F=R is also
/// bracketed (its prices go to `beside.prices`), and with `pricing.sensitivity` the
/// regression is refitted with another phase filter and the headline replayed at the
/// stronger search (`beside.sensitivity`). A failed estimate (too few or too uniform
/// games) becomes a note, not an error.
#[allow(clippy::too_many_arguments)]
pub(super) fn piece_values(
    name: &str,
    options: &[String],
    cfg: &ReportConfig,
    dir: &Path,
    chain: bool,
    focus: &[char],
    pricing: Pricing,
    notes: &mut Vec<String>,
    beside: &mut Beside,
) -> Vec<PieceValue> {
    let variant = match Variant::load_with(name, options) {
        Ok(v) => v,
        Err(e) => {
            notes.push(format!("Piece values of {name} not measured: {e}"));
            return vec![];
        }
    };
    let board = variant.start_fen().split_whitespace().next().unwrap_or("");
    // The headline match: the first comparison of the card whose two pieces the start
    // position holds (a match can only trade what is on the board).
    let headline = Pieces::of(variant)
        .ok()
        .and_then(|p| {
            crate::values::scale::variant_headlines(variant, &p)
                .into_iter()
                .find(|h| board.contains(h.piece) && board.contains(h.other))
        })
        .map(|h| h.equation());
    let is_headline = |c: &str| headline.as_deref().is_some_and(|h| c == h || reversed(c) == h);
    let label = if options.is_empty() { name.to_string() } else { format!("{name} with {}", options.join("+")) };
    let regress = regression_plan(cfg, variant, options, dir, headline.as_deref(), pricing.regression_games);
    let (mut rows, fit_failed) = match regress.as_ref().map_err(Clone::clone).and_then(rows_of) {
        Ok(r) => (r, false),
        Err(e) => {
            notes.push(format!("Piece values by regression ({label}) not available: {e}"));
            (vec![], true)
        }
    };
    // The second estimator: imbalance matches, for bomber games at least the headline F=R,
    // and with `chain` a chain of near-balanced comparisons through every piece, built
    // from the regression's values, so both estimators give every piece's value.
    let mut compare: Vec<String> = vec![];
    let pawn = Pieces::of(variant).map_or('P', |p| p.pawn_letter());
    if chain || !focus.is_empty() {
        let rough: Vec<(char, f64)> = rows
            .iter()
            .filter(|r| r.unit == "pawns" && r.method.is_regression() && r.piece.chars().count() == 1)
            .filter(|r| r.support.is_supported())
            .filter_map(|r| Some((r.piece.chars().next()?, r.value)))
            .collect();
        // Without a regression (too few games to fit, or no supported value) the engine's
        // own material weights are rough values enough to pick near-balanced matches.
        // A shard without the whole regression corpus (no rows and no failed fit) leaves
        // the chain to the run after the merge: a chain from part of the games would
        // differ from shard to shard. Once the corpus is whole, every shard and the
        // unsharded run see the same fit, so they choose the same chain.
        let whole_corpus = cfg.shard.is_none() || fit_failed || !rows.is_empty();
        let rough = match (rough.len() > 1, whole_corpus) {
            (true, _) => rough,
            (false, false) => vec![],
            (false, true) => engine_values(variant).unwrap_or_default(),
        };
        // Matches start from the start position: only its pieces can be traded.
        let rough: Vec<(char, f64)> = rough.into_iter().filter(|&(c, _)| board.contains(c)).collect();
        let max_pawns = board.matches(pawn).count() / 2;
        if chain {
            let counts: Vec<(char, usize)> = rough.iter().map(|&(c, _)| (c, board.matches(c).count())).collect();
            compare = crate::values::comparison::balanced_chain(&rough, &counts, pawn, max_pawns);
            // Three matches beyond the unknowns, so additivity is tested.
            let extra = crate::values::comparison::redundant(&rough, &counts, pawn, max_pawns, &compare, 3);
            compare.extend(extra);
        }
        // The headline piece's own match is the headline, added below.
        let headline_piece = headline.as_deref().and_then(|h| h.chars().next());
        for &x in focus.iter().filter(|&&x| Some(x) != headline_piece) {
            if let Some(c) = crate::values::comparison::balanced_against(x, &rough, pawn, max_pawns) {
                compare.push(c);
            }
        }
    }
    if let Some(h) = headline.as_ref().filter(|_| !compare.iter().any(|c| is_headline(c))) {
        compare.push(h.clone());
    }
    if !pricing.matches {
        compare.clear();
    }
    if !compare.is_empty() {
        // With a chain, its links are rebuilt from the imbalance values and replayed.
        let imb = imbalance_plan(cfg, variant, options, dir, &compare, chain);
        let played = imb.as_ref().map_err(Clone::clone).and_then(rows_of);
        match played {
            Ok(r) => {
                if let Some(lsq) = r.iter().find(|r| r.method == Method::ImbalanceLsq) {
                    notes.push(format!("Imbalance matches ({label}): {}.", lsq.note));
                }
                rows.extend(r)
            }
            Err(e) => notes.push(format!("Imbalance matches {} ({label}) not available: {e}", compare.join(", "))),
        }
        let played = compare.iter().find(|c| is_headline(c)).cloned();
        if let (Some(h), true) = (&played, pricing.bracket) {
            // A shard has no merged games to centre a bracket on: the run after the merge
            // plays the bracket (and the scale check with it).
            if cfg.shard.is_none() {
                match imb
                    .as_ref()
                    .map_err(|e| e.clone().into())
                    .and_then(|imb| local_prices(imb, h, headline.as_deref().unwrap_or(h), pricing.scale_check))
                {
                    Ok((prices, extra)) => {
                        beside.prices.push(prices);
                        rows.extend(extra);
                    }
                    Err(e) => notes.push(format!("Local pawn price of {h} ({label}) not available: {e}")),
                }
            }
        }
        // The replay at the stronger search needs nothing merged: a shard plays its part.
        // A report given one node budget (`--nodes N`) has no stronger search to replay at.
        // Games without a headline replay one link of their chain instead.
        let anchor = played.or_else(|| sensitivity_anchor(&compare));
        if let (Some(a), true, Some(&stronger)) = (&anchor, pricing.sensitivity, cfg.nodes().get(1)) {
            let replay = imb.as_ref().map_err(|e| e.clone().into());
            match replay.and_then(|imb| node_sensitivity(imb, a, headline.as_deref(), &rows, stronger, dir)) {
                Ok(s) if cfg.shard.is_none() => beside.sensitivity.push(s),
                Ok(_) => {}
                Err(e) => notes.push(format!("{a} at {stronger} nodes ({label}) not available: {e}")),
            }
        }
    }
    // The refit needs the whole regression corpus: not on a shard.
    if pricing.sensitivity && cfg.shard.is_none() && !fit_failed {
        match regress.as_ref().map_err(|e| e.clone().into()).and_then(|r| phase_sensitivity(r, &rows)) {
            Ok(s) => beside.sensitivity.insert(0, s),
            Err(e) => notes.push(format!("Phase-filter sensitivity ({label}) not available: {e}")),
        }
    }
    if let Err(e) = crate::values::table::write(dir, &rows) {
        notes.push(format!("Piece values ({label}) not saved: {e}"));
    }
    let value = |r: &ValueRow| headline_oriented(PieceValue::of_row(r), headline.as_deref());
    let scaled = [crate::values::scale::ORTHODOX_UNIT, crate::values::scale::RATIO_UNIT];
    beside.scaled = rows.iter().filter(|r| scaled.contains(&r.unit.as_str())).map(value).collect();
    let mut rows: Vec<PieceValue> = rows.iter().filter(|r| r.unit == "pawns").map(value).collect();
    // Pieces before comparisons, each piece's estimators next to each other.
    rows.sort_by(|a, b| {
        (a.piece.chars().count(), &a.piece, &a.method).cmp(&(b.piece.chars().count(), &b.piece, &b.method))
    });
    rows
}

/// How a report plays its studies' games: the first node budget, the engine's own
/// weights, the report's seed, workers and shard; silently, since the report says what
/// it plays.
fn play(cfg: &ReportConfig) -> Play {
    Play {
        nodes: cfg.nodes()[0],
        seed: cfg.seed,
        engine: vec![],
        player: None,
        adjudication: default_adjudication(),
        concurrency: cfg.concurrency,
        shard: cfg.shard,
        progress: Progress::silent(),
    }
}

/// The report budget's regression of one rules setting: `games` self-play games in
/// `dir/regress`, the headline comparison (`F=R`) estimated beside the values.
pub(super) fn regression_plan(
    cfg: &ReportConfig,
    variant: Variant,
    options: &[String],
    dir: &Path,
    headline: Option<&str>,
    games: u64,
) -> Result<StudyPlan, ValuesError> {
    let pieces = Pieces::of(variant)?;
    let regression = RegressionPlan {
        source: Source::SelfPlay(Corpus {
            games,
            out: dir.join("regress"),
            random_plies: 8,
            imbalance_fraction: 0.5,
            jitter: 0.0,
            // Setup choices (Bland Chess 46) bring pieces the start position lacks: games
            // start from every combination, so those pieces get values too.
            all_setups: !variant.setup_choices().is_empty(),
        }),
        skip_plies: 10,
        min_pieces: Selection::default().min_pieces,
        fits: vec![Fit::Positions],
        models: vec![Model::Logistic],
        bootstrap: 1000,
        comparisons: plan::comparisons(&headline.iter().map(|h| h.to_string()).collect::<Vec<_>>(), &pieces)?,
        include_imbalance_games: false,
    };
    StudyPlan::new(variant, variant.name().into(), options.to_vec(), play(cfg), Some(regression), None)
}

/// The report budget's imbalance matches of one rules setting in `dir/imbalance`: the
/// budget's games per match, no early stop, the report's calibration pawns; with `chain`
/// the chain is rebuilt from the matches' own values and its new links played.
pub(super) fn imbalance_plan(
    cfg: &ReportConfig,
    variant: Variant,
    options: &[String],
    dir: &Path,
    compare: &[String],
    chain: bool,
) -> Result<StudyPlan, ValuesError> {
    let pieces = Pieces::of(variant)?;
    let imbalance = ImbalancePlan {
        comparisons: plan::comparisons(compare, &pieces)?,
        max_games: cfg.budget.imbalance_games(),
        batch_pairs: cfg.budget.pairs(),
        min_pairs: cfg.budget.pairs(),
        precision: None,
        calibration: calibration_squares(variant, &default_calibration(variant))?,
        random_plies: 8,
        neutral: true,
        bracket: None,
        scale_check: false,
        starts: vec![],
        rebuild_chain: chain,
        out: dir.join("imbalance"),
    };
    StudyPlan::new(variant, variant.name().into(), options.to_vec(), play(cfg), None, Some(imbalance))
}

/// The imbalance plan `imb` for the one comparison `h` alone at `nodes` per move, changed
/// by `change`, checked again.
fn replay(
    imb: &StudyPlan,
    h: &str,
    nodes: u64,
    change: impl FnOnce(&mut ImbalancePlan) -> Result<(), ValuesError>,
) -> Result<StudyPlan, ValuesError> {
    let mut im =
        imb.imbalance().cloned().ok_or_else(|| ValuesError::Settings("no imbalance matches to replay".into()))?;
    im.comparisons = plan::comparisons(&[h.to_string()], &Pieces::of(imb.variant())?)?;
    im.rebuild_chain = false;
    change(&mut im)?;
    let play = Play { nodes, ..imb.play().clone() };
    StudyPlan::new(imb.variant(), imb.name().into(), imb.options().to_vec(), play, None, Some(im))
}

/// A plan's rows; a fit that failed is the plan's failure (the report notes it).
fn rows_of(plan: &StudyPlan) -> Result<Vec<ValueRow>, ValuesError> {
    let result = crate::values::run(plan)?;
    match result.failed.into_iter().next() {
        Some((_, e)) => Err(e),
        None => Ok(result.rows),
    }
}

/// The comparison a game without a headline replays at the stronger search: one that
/// weighs a piece orthodox chess lacks (the designer's question) if any does, and among
/// those the one with the fewest pieces, whose result in pawns is the most precise.
pub(super) fn sensitivity_anchor(compare: &[String]) -> Option<String> {
    let fairy = |c: &String| c.chars().any(|l| l.is_ascii_uppercase() && !"PNBRQK".contains(l));
    let size = |c: &String| c.chars().filter(|l| l.is_ascii_uppercase()).count();
    compare.iter().min_by_key(|c| (!fairy(c), size(c))).cloned()
}

/// The imbalance chain may compare rook against bomber ("R-F"); the headline (`F=R`) asks
/// the bomber's worth against the rook's, so every such estimate is turned to read "F-R".
pub(super) fn headline_oriented(v: PieceValue, headline: Option<&str>) -> PieceValue {
    let Some(h) = headline else { return v };
    let label = h.replace('=', "-");
    if v.piece != reversed(&label) {
        return v;
    }
    PieceValue { piece: label, value: -v.value, low: -v.high, high: -v.low, ..v }
}

/// `Y=X` of `X=Y` (and `Y-X` of `X-Y`); other text unchanged.
pub(super) fn reversed(c: &str) -> String {
    for sep in ['=', '-'] {
        if let Some((a, b)) = c.split_once(sep) {
            if a.chars().count() == 1 && b.chars().count() == 1 {
                return format!("{b}{sep}{a}");
            }
        }
    }
    c.to_string()
}

/// What [`piece_values`] measures beside the values themselves.
#[derive(Default)]
pub(super) struct Beside {
    pub(super) prices: Vec<PawnPrices>,
    pub(super) sensitivity: Vec<Sensitivity>,
    /// The regression's values on the orthodox scale and its ratios (the card's figures).
    pub(super) scaled: Vec<PieceValue>,
}

/// The other phase filter of the sensitivity table: stricter than the default half of the
/// start position's pieces, so the refit keeps the positions nearest the full board, the
/// material context in which the imbalance matches start. A value that moves towards the
/// imbalance one here says the two estimators differ by phase, not by error.
pub const OTHER_MIN_PIECES: f64 = 0.75;

/// A row's figures as an interval, NaN without support.
pub(super) fn row_interval(r: &ValueRow) -> Interval {
    if !r.support.is_supported() {
        return Interval::UNDEFINED;
    }
    Interval { value: r.value, low: r.ci_low, high: r.ci_high }
}

/// `x - y` turned to `y - x` (the headline reads F-R where a chain played R=F).
pub(super) fn negated(i: &Interval) -> Interval {
    Interval { value: -i.value, low: -i.high, high: -i.low }
}

/// `b - a` of two independently measured figures with a 95 % interval by the method of
/// variance estimates recovery (Zou and Donner), which keeps each interval's asymmetry
/// (Fieller's intervals in pawns are not symmetric).
pub fn independent_difference(a: &Interval, b: &Interval) -> Interval {
    if !a.is_defined() || !b.is_defined() {
        return Interval::UNDEFINED;
    }
    let d = b.value - a.value;
    let low = d - ((b.value - b.low).powi(2) + (a.high - a.value).powi(2)).sqrt();
    let high = d + ((b.high - b.value).powi(2) + (a.value - a.low).powi(2)).sqrt();
    Interval { value: d, low, high }
}

/// The headline comparison `h` (`F=R` or `R=F`, as `imb` played it) bracketed by three
/// matches of X against Y plus k pawns, with `scale_check` the pawn-odds match replayed
/// under its neutral weights. Its own match and the pawn-odds match are read back from `imb`'s run
/// directory, not played again. Returns the prices (oriented as F-R) and the new table
/// rows (the bracket's, the local pawn's Elo, the scale check's) for values.csv.
pub(super) fn local_prices(
    imb: &StudyPlan,
    h: &str,
    headline: &str,
    scale_check: bool,
) -> Result<(PawnPrices, Vec<ValueRow>), ReportError> {
    let one = replay(imb, h, imb.play().nodes, |im| {
        im.bracket = Some(Bracket::new(3)?);
        im.scale_check = scale_check;
        Ok(())
    })?;
    let rows = rows_of(&one)?;
    let label = crate::values::comparison::Comparison::label_of_text(h);
    let find = |piece: &str, method: Method| rows.iter().find(|r| r.piece == piece && r.method == method);
    let get = |piece: &str, method: Method| find(piece, method).map_or(Interval::UNDEFINED, row_interval);
    let wanted = headline.replace('=', "-");
    let orient = |i: Interval| if label != wanted { negated(&i) } else { i };
    let bracket = find(&label, Method::ImbalanceBracket);
    let neutral = rows.iter().find(|r| r.piece == "elo-per-pawn" && matches!(r.method, Method::PawnOddsUnder(_)));
    let notes: Vec<&str> =
        [bracket.map(|r| r.note.as_str()), neutral.map(|r| r.note.as_str())].into_iter().flatten().collect();
    let prices = PawnPrices {
        option: None,
        comparison: wanted.clone(),
        calibrated: orient(get(&label, Method::Imbalance)),
        pawn_odds_elo: get("elo-per-pawn", Method::PawnOdds),
        bracketed: orient(get(&label, Method::ImbalanceBracket)),
        local_elo: get(&format!("elo-per-pawn@{label}"), Method::ImbalanceBracket),
        neutral_pawn_odds_elo: neutral.map_or(Interval::UNDEFINED, row_interval),
        scale_checked: scale_check,
        note: notes.join("; "),
        games: bracket.map_or(0, |r| r.games),
    };
    let extra = rows
        .into_iter()
        .filter(|r| {
            matches!(r.method, Method::ImbalanceBracket | Method::ImbalanceBracketLsq | Method::PawnOddsUnder(_))
        })
        .collect();
    Ok((prices, extra))
}

/// The comparison `h` (the headline, or [`sensitivity_anchor`]'s) and the pawn-odds match
/// replayed at `nodes` per move (the report's stronger balance search) into `dir/imbalance-NODES`, against the same figures
/// at the report's own budget, read from `rows`. Each replayed match gets the games that
/// cost what one match at the report's budget does (a quarter of them at four times the
/// nodes): with all of them this check alone would cost as much as eight more matches,
/// for a figure whose question (does the result move by more than its error?) a
/// somewhat wider interval still answers.
pub(super) fn node_sensitivity(
    imb: &StudyPlan,
    h: &str,
    headline: Option<&str>,
    rows: &[ValueRow],
    nodes: u64,
    dir: &Path,
) -> Result<Sensitivity, ReportError> {
    let (base_nodes, base_games) = (imb.play().nodes, imb.imbalance().map_or(0, |im| im.max_games));
    let games = (base_games * base_nodes / nodes.max(1)).max(2);
    let again = replay(imb, h, nodes, |im| {
        im.max_games = games;
        im.out = dir.join(format!("imbalance-{nodes}"));
        Ok(())
    })?;
    let stronger = rows_of(&again)?;
    let label = crate::values::comparison::Comparison::label_of_text(h);
    let flipped = |piece: &str| headline.is_some_and(|hl| hl.replace('=', "-") == reversed(piece));
    let get = |list: &[ValueRow], piece: &str, method: &Method| {
        let i = list.iter().find(|r| r.piece == piece && r.method == *method).map_or(Interval::UNDEFINED, row_interval);
        if flipped(piece) {
            negated(&i)
        } else {
            i
        }
    };
    let row = |piece: &str, method: Method, quantity: &str, unit: &str| {
        let (base, other) = (get(rows, piece, &method), get(&stronger, piece, &method));
        SensitivityRow {
            quantity: quantity.into(),
            unit: unit.into(),
            difference: independent_difference(&base, &other),
            base,
            other,
        }
    };
    Ok(Sensitivity {
        setting: "nodes".into(),
        base: base_nodes.to_string(),
        other: nodes.to_string(),
        rows: vec![
            row(&label, Method::Imbalance, &if flipped(&label) { reversed(&label) } else { label.clone() }, "pawns"),
            row("elo-per-pawn", Method::PawnOdds, "elo-per-pawn", "elo"),
        ],
        note: format!(
            "{games} games per match at {nodes} nodes against {} at {}, new games at each budget, so the difference's interval combines two independent ones (method of variance estimates recovery)",
            base_games, base_nodes
        ),
    })
}

/// Every piece's regression value refitted on the same games with [`OTHER_MIN_PIECES`]
/// as the phase filter; the report's own values (`rows`) are the base.
pub(super) fn phase_sensitivity(regress: &StudyPlan, rows: &[ValueRow]) -> Result<Sensitivity, ReportError> {
    let shifts = crate::values::study::sensitivity(regress, OTHER_MIN_PIECES)?;
    let (min_pieces, bootstrap) = regress.regression().map_or((0.0, 0), |r| (r.min_pieces, r.bootstrap));
    let as_interval = |e: &crate::values::regression::Estimate| {
        if e.support.is_supported() {
            Interval { value: e.value, low: e.low, high: e.high }
        } else {
            Interval::UNDEFINED
        }
    };
    let rows = shifts
        .iter()
        .map(|x| {
            // The base as the report's own table prints it.
            let shown = rows.iter().find(|r| r.piece == x.name && r.method.is_regression());
            let (value, low, high) = x.difference;
            SensitivityRow {
                quantity: x.name.clone(),
                unit: "pawns".into(),
                base: shown.map_or_else(|| as_interval(&x.base), row_interval),
                other: as_interval(&x.other),
                difference: Interval { value, low, high },
            }
        })
        .collect();
    Ok(Sensitivity {
        setting: "min-pieces".into(),
        base: min_pieces.to_string(),
        other: OTHER_MIN_PIECES.to_string(),
        rows,
        note: format!(
            "the difference's interval is BCa over {} paired bootstrap replicates of whole games (both fits on each)",
            bootstrap
        ),
    })
}

/// The default engine's middlegame material weights in pawns, per piece on the board.
pub(super) fn engine_values(variant: Variant) -> Result<Vec<(char, f64)>, ReportError> {
    let ev = evaluator(variant, &crate::eval::EngineConfig::for_variant(variant.name()).map_err(ReportError::Engine)?)?;
    let pawn = ev
        .weight("value.P.mg")
        .filter(|&p| p > 0.0)
        .ok_or_else(|| ReportError::Engine("no positive pawn weight".into()))?;
    let board = variant.start_fen().split_whitespace().next().unwrap_or("").to_string();
    let mut out: Vec<(char, f64)> = vec![];
    for c in board.chars().filter(|c| c.is_ascii_uppercase()) {
        if out.iter().any(|o| o.0 == c) {
            continue;
        }
        if let Some(w) = ev.weight(&format!("value.{c}.mg")) {
            out.push((c, w as f64 / pawn as f64));
        }
    }
    Ok(out)
}

/// The variant's default evaluator and the one of an engine config file.
pub(super) fn evaluators(
    variant: Variant,
    path: &str,
) -> Result<(crate::eval::Evaluator, crate::eval::Evaluator), ReportError> {
    let default = crate::eval::EngineConfig::for_variant(variant.name()).map_err(ReportError::Engine)?;
    let tuned = crate::eval::EngineConfig::load(path).map_err(ReportError::Engine)?;
    Ok((evaluator(variant, &default)?, evaluator(variant, &tuned)?))
}

pub(super) fn evaluator(
    variant: Variant,
    cfg: &crate::eval::EngineConfig,
) -> Result<crate::eval::Evaluator, ReportError> {
    Ok(match variant {
        Variant::Narrow(r) => cfg.evaluator(r, &[]).map_err(ReportError::Engine)?,
        Variant::Wide(r) => cfg.evaluator(r, &[]).map_err(ReportError::Engine)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(shard: Option<(u64, u64)>) -> ReportConfig {
        ReportConfig {
            variant: "chess".into(),
            options: vec![],
            budget: super::super::Budget::Tiny,
            out: std::env::temp_dir().join("fairylab-plan-never-written"),
            concurrency: 1,
            seed: 1,
            progress: Progress::silent(),
            shard,
            balance_pairs: None,
            nodes: None,
            studies: vec![],
        }
    }

    /// The report budget's plans are checked where they are made, with the errors the
    /// command line and experiment files give.
    #[test]
    fn the_budgets_plans_refuse_a_bad_comparison_shard_or_bracket() {
        let chess = Variant::load("chess", &[]).unwrap();
        let dir = Path::new("unused");
        let shard = regression_plan(&config(Some((5, 4))), chess, &[], dir, Some("B=N"), 96);
        assert!(matches!(shard, Err(ValuesError::Shard(ref s)) if s == "5/4"), "{shard:?}");
        let cfg = config(None);
        let bad = imbalance_plan(&cfg, chess, &[], dir, &["B=X".into()], false);
        assert!(matches!(bad, Err(ValuesError::Comparison(_))), "{bad:?}");
        let imb = imbalance_plan(&cfg, chess, &[], dir, &["B=N".into()], false).unwrap();
        let four = replay(&imb, "B=N", imb.play().nodes, |im| {
            im.bracket = Some(Bracket::new(4)?);
            Ok(())
        });
        assert!(matches!(four, Err(ValuesError::Bracket(4))), "{four:?}");
        let three = replay(&imb, "B=N", imb.play().nodes, |im| {
            im.bracket = Some(Bracket::new(3)?);
            Ok(())
        });
        assert!(three.is_ok_and(|p| p.imbalance().is_some_and(|im| im.comparisons.len() == 1)));
    }
    #[test]
    fn the_sensitivity_anchor_prefers_a_fairy_piece_then_the_fewest_pieces() {
        let list = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let noble = list(&["Q=R+R+P", "E=R+P+P", "B=N", "A=B+P+P"]);
        assert_eq!(sensitivity_anchor(&noble).as_deref(), Some("E=R+P+P"));
        let chess = list(&["Q=R+R+P", "R=N+P+P", "B=N"]);
        assert_eq!(sensitivity_anchor(&chess).as_deref(), Some("B=N"));
        assert_eq!(sensitivity_anchor(&[]), None);
    }

    #[test]
    fn a_comparison_is_labelled_as_the_imbalance_tables_label_it() {
        use crate::values::{comparison::Comparison, pieces::Pieces};
        let pieces = Pieces::of(crate::Variant::load("bland-chess-46", &[]).unwrap()).unwrap();
        for text in ["W=P+P+P", "R=W+W+P+P", "W=P", "R=W"] {
            let c = Comparison::parse(text, &pieces).unwrap();
            assert_eq!(Comparison::label_of_text(text), c.label(), "{text}");
        }
    }
}
