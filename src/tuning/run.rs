//! From run directories to tuned weights: load, filter, split, extract, fit K, fit weights.
//! Shared by `fairylab tune` and the training loop.

use super::matrix::{Dataset, Extractor};
use super::positions::{self, Filter, LoadStats};
use super::texel::{self, TuneOptions, TuneReport};
use crate::eval::{config, EngineConfig, Layout};
use crate::{Error, Variant};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Where the positions came from and how many survived each step.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct DataReport {
    pub dirs: Vec<String>,
    pub rows: usize,
    pub dropped_captures: usize,
    pub dropped_early: usize,
    /// Positions with another engine to move than `--labels-from` names.
    #[serde(default)]
    pub dropped_mover: usize,
    pub dropped_checks: usize,
    pub train: usize,
    pub validation: usize,
    pub entries_per_position: f64,
}

/// A complete tuning run: data, fit and the names of the weights that were held fixed.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunReport {
    pub variant: String,
    pub seed: u64,
    pub fixed: Vec<String>,
    pub data: DataReport,
    pub tune: TuneReport,
}

/// The weights of an engine config (defaults, then the file's weights), in layout order.
pub fn config_weights(variant: Variant, cfg: &EngineConfig) -> Result<(Layout, Vec<f32>), Error> {
    let ev = match variant {
        Variant::Narrow(r) => cfg.evaluator(r, &[]),
        Variant::Wide(r) => cfg.evaluator(r, &[]),
    }
    .map_err(Error::Tuning)?;
    Ok(((*ev.layout).clone(), ev.into_weights()))
}

/// The weight that fixes the scale: the pawn's endgame value (`value.P.eg` in chess-like
/// games). Held at its starting value, it keeps the tuned evaluation in centipawns.
pub fn scale_weight(variant: Variant) -> Option<String> {
    let (pawn, layout) = match variant {
        Variant::Narrow(r) => (r.pawn_type, Layout::new(r)),
        Variant::Wide(r) => (r.pawn_type, Layout::new(r)),
    };
    let i = layout.value[pawn?].eg;
    layout.names.get(i).cloned()
}

/// Resolves weight names (as given to `--fix`) to indices; a name without `.mg`/`.eg`
/// fixes both halves.
pub fn weight_indices(layout: &Layout, names: &[String]) -> Result<Vec<usize>, Error> {
    let mut out = Vec::new();
    for name in names {
        if let Some(i) = layout.index(name) {
            out.push(i);
            continue;
        }
        match (layout.index(&format!("{name}.mg")), layout.index(&format!("{name}.eg"))) {
            (Some(a), Some(b)) => out.extend([a, b]),
            _ => return Err(Error::Tuning(format!("unknown evaluation weight '{name}'"))),
        }
    }
    Ok(out)
}

/// Loads and prepares training and validation data from run directories.
pub fn prepare(
    variant: Variant,
    ex: &Extractor,
    dirs: &[PathBuf],
    filter: &Filter,
    validation: f64,
    seed: u64,
) -> Result<(Dataset, Dataset, DataReport), Error> {
    let (labelled, LoadStats { rows, dropped_captures, dropped_early, dropped_mover, .. }) =
        positions::load_runs(dirs, filter)?;
    let (train, val) = positions::split(labelled, validation, seed)?;
    let (train, c1) = Dataset::from_positions(ex, variant, &train, filter.skip_checks)?;
    let (val, c2) = Dataset::from_positions(ex, variant, &val, filter.skip_checks)?;
    if train.is_empty() {
        return Err(Error::Tuning("no training positions left after filtering".into()));
    }
    let report = DataReport {
        dirs: dirs.iter().map(|d| d.display().to_string()).collect(),
        rows,
        dropped_captures,
        dropped_early,
        dropped_mover,
        dropped_checks: c1 + c2,
        train: train.len(),
        validation: val.len(),
        entries_per_position: (train.entries() + val.entries()) as f64 / (train.len() + val.len()) as f64,
    };
    Ok((train, val, report))
}

/// Tunes `start` weights on the positions of `dirs`; `fixed` names weights to hold.
#[allow(clippy::too_many_arguments)]
pub fn tune_runs(
    variant: Variant,
    dirs: &[PathBuf],
    start: &[f32],
    fixed: &[String],
    filter: &Filter,
    validation: f64,
    opts: &TuneOptions,
) -> Result<RunReport, Error> {
    let ex = Extractor::new(variant);
    let fixed_idx = weight_indices(ex.layout(), fixed)?;
    let (train, val, data) = prepare(variant, &ex, dirs, filter, validation, opts.seed)?;
    opts.progress.note(&format!(
        "{} rows: {} dropped as captures, {} in check, {} early, {} with another engine to move; {} training, {} validation positions ({:.1} terms each)",
        data.rows, data.dropped_captures, data.dropped_checks, data.dropped_early, data.dropped_mover, data.train,
        data.validation, data.entries_per_position
    ));
    if val.is_empty() && validation > 0.0 {
        opts.progress.warn("the validation split is empty (too few game pairs); no early stopping");
    }
    let opts = TuneOptions { fixed: fixed_idx, ..opts.clone() };
    let tune = texel::tune(&train, &val, ex.terms(), start, &opts)?;
    Ok(RunReport { variant: variant.name().to_string(), seed: opts.seed, fixed: fixed.to_vec(), data, tune })
}

/// The tuned weights, with the search settings they were fitted under, as an engine config file.
pub fn write_config(
    variant: Variant,
    layout: &Layout,
    report: &RunReport,
    search: &config::SearchConfig,
    path: &std::path::Path,
) -> Result<(), Error> {
    let t = &report.tune;
    let desc = format!(
        "Texel-tuned on {} positions (seed {}, K {:.3}); validation loss {} -> {}",
        t.train_positions,
        report.seed,
        t.k,
        t.start_val_loss.map_or("-".into(), |v| format!("{v:.6}")),
        t.final_val_loss.map_or("-".into(), |v| format!("{v:.6}")),
    );
    // The starting config's search settings stay with the weights fitted for them.
    let text = config::to_toml(variant.name(), &desc, layout, &t.weights) + "\n" + &search.to_toml();
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .map_err(|e| Error::Tuning(format!("cannot create {}: {e}", parent.display())))?;
    }
    std::fs::write(path, text).map_err(|e| Error::Tuning(format!("cannot write {}: {e}", path.display())))
}
