//! Engine config files (`configs/engines/*.toml`): weights by name, over the defaults.

use super::{weights, Evaluator, Layout};
use crate::rules::{Bits, Rules};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;

pub const BUILTIN: &[(&str, &str)] = &[
    ("chess", include_str!("../../configs/engines/chess.toml")),
    ("capablanca", include_str!("../../configs/engines/capablanca.toml")),
    ("noble-wings", include_str!("../../configs/engines/noble-wings.toml")),
    ("bland-chess-46", include_str!("../../configs/engines/bland-chess-46.toml")),
    ("flying-bombers-hangars", include_str!("../../configs/engines/flying-bombers-hangars.toml")),
    ("flying-bombers-grand", include_str!("../../configs/engines/flying-bombers-grand.toml")),
];

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineConfig {
    /// The variant these weights were made for (checked when given).
    #[serde(default)]
    pub variant: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub weights: BTreeMap<String, f32>,
    /// Search techniques a game can do without, where an SPRT showed no gain there.
    #[serde(default)]
    pub search: SearchConfig,
}

/// Declares the search's integer parameters once: the field, its default and its doc, so
/// that the struct, its defaults, `get`/`set` by name and the TOML writer cannot disagree.
macro_rules! search_params {
    ($($(#[doc = $doc:literal])* $field:ident: $default:expr, $min:expr;)*) => {
        #[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
        #[serde(deny_unknown_fields, default)]
        pub struct SearchConfig {
            /// Quiet moves ordered and reduced by how they fared after the last two moves too.
            pub continuation_history: bool,
            /// Late-move reductions grow as ln(depth) × ln(move number) / this: smaller
            /// reduces more.
            pub reduction_divisor: f64,
            $($(#[doc = $doc])* pub $field: i32,)*
        }

        impl Default for SearchConfig {
            fn default() -> Self {
                SearchConfig {
                    continuation_history: true,
                    reduction_divisor: Self::REDUCTION_DIVISOR,
                    $($field: $default,)*
                }
            }
        }

        impl SearchConfig {
            /// The numeric parameters' names, as `set.search.NAME` and `[search]` spell them.
            pub const NUMERIC: &'static [&'static str] = &["reduction_divisor", $(stringify!($field)),*];

            /// A numeric parameter by its name (without the `search.` prefix).
            pub fn get(&self, name: &str) -> Option<f64> {
                match name {
                    "reduction_divisor" => Some(self.reduction_divisor),
                    $(stringify!($field) => Some(self.$field as f64),)*
                    _ => None,
                }
            }

            /// Sets a numeric parameter by name; integer ones take the nearest integer, so
            /// that SPSA can move them in fractions.
            pub fn set(&mut self, name: &str, value: f64) -> Result<(), String> {
                match name {
                    "reduction_divisor" => self.reduction_divisor = value,
                    $(stringify!($field) => self.$field = value.round().clamp(i32::MIN as f64, i32::MAX as f64) as i32,)*
                    _ => return Err(format!(
                        "unknown search parameter '{name}' (known: {})", Self::NUMERIC.join(", ")
                    )),
                }
                self.validate()
            }

            /// Every value within its range, named when not.
            pub fn validate(&self) -> Result<(), String> {
                let d = self.reduction_divisor;
                if !(d.is_finite() && d > 0.0) {
                    return Err(format!("search.reduction_divisor must be a positive number, not {d}"));
                }
                $(if self.$field < $min {
                    return Err(format!("search.{} must be at least {}, not {}", stringify!($field), $min, self.$field));
                })*
                Ok(())
            }

            /// The `[search]` table of an engine config holding these values.
            pub fn to_toml(&self) -> String {
                let mut s = format!(
                    "[search]\ncontinuation_history = {}\nreduction_divisor = {}\n",
                    self.continuation_history, self.reduction_divisor
                );
                $(s += &format!("{} = {}\n", stringify!($field), self.$field);)*
                s
            }
        }
    };
}

search_params! {
    /// Reverse futility: a node this many centipawns per ply of depth above beta returns.
    reverse_futility_margin: 90, 0;
    /// Reverse futility applies up to this depth.
    reverse_futility_depth: 6, 0;
    /// Futility of a late quiet move: pruned when the evaluation plus this plus
    /// `futility_per_depth` per ply of its reduced depth stays below alpha.
    futility_margin: 120, 0;
    futility_per_depth: 110, 0;
    /// A late quiet move is pruned when it loses more than this times its reduced depth
    /// squared in the static exchange.
    quiet_see_margin: 40, 0;
    /// A capture at depth 5 or less is pruned when it loses more than this per ply.
    capture_see_margin: 120, 0;
    /// Late-move pruning: quiet moves searched before the rest are skipped at depth d,
    /// (this + d²), halved when the position is not improving.
    late_move_base: 3, 0;
    /// Null-move reduction: `null_move_base` + depth / `null_move_depth_divisor` + one ply
    /// per this many centipawns above beta (at most 3).
    null_move_divisor: 200, 1;
    null_move_base: 3, 1;
    null_move_depth_divisor: 4, 1;
    /// The null move is tried from this depth on.
    null_move_min_depth: 3, 1;
    /// Singular extension: the others must fall this many centipawns per ply of depth
    /// below the hash move's stored score.
    singular_margin: 2, 0;
    /// Quiescence delta pruning: a capture whose gain plus this stays below alpha is skipped.
    delta_margin: 200, 0;
    /// Late-move reductions fall by one ply per this much quiet-move history.
    history_reduction_divisor: 8000, 1;
    /// The first aspiration window's half-width in centipawns.
    aspiration_window: 20, 1;
    /// Late moves at nodes that are or were on the principal variation (the hash entry
    /// remembers it) are reduced this many plies less.
    pv_reduction: 0, 0;
    /// Late moves at nodes outside the principal variation are reduced this many plies more.
    non_pv_reduction: 0, 0;
    /// Captures and promotions are ordered by this percentage of their capture history
    /// (how often the same piece taking the same victim on the same square cut off) on
    /// top of what they win; 0 neither reads nor writes that history.
    capture_history: 0, 0;
    /// Late moves at expected cut nodes (a zero-window search that the node above expects
    /// to fail high: the reduced searches and what they alternate with) are reduced this
    /// many plies more.
    cut_node_reduction: 0, 0;
    /// Quiescence out of check searches at most this many captures per node (the best
    /// ordered ones; promotions and king captures always); 0 searches them all.
    qsearch_captures: 0, 0;
    /// Quiescence out of check: when the stand-pat score plus this stays below alpha, a
    /// capture must win material in the static exchange to be searched; 0 turns it off.
    qsearch_futility: 0, 0;
    /// A move that gives check is searched a ply deeper from this depth on (1: at every
    /// depth).
    check_extension_depth: 1, 1;
    /// 1: the shallow pruning of late moves (move count, futility, static exchange) applies
    /// at principal-variation nodes too, the root excepted; 0: only outside them.
    pv_pruning: 0, 0;
    /// Late-move pruning applies up to this depth.
    late_move_depth: 6, 0;
    /// 1: late-move pruning counts every move picked before this one (captures, the hash
    /// move and moves already pruned too), as Fairy-Stockfish does; 0: only quiet moves
    /// searched.
    late_move_count_all: 0, 0;
    /// 1: quiescence's first ply (out of check) also searches quiet moves that give check
    /// and do not lose material in the static exchange, as Fairy-Stockfish does; 0: only
    /// captures and promotions.
    qsearch_checks: 0, 0;
}

impl SearchConfig {
    pub const REDUCTION_DIVISOR: f64 = 2.25;

    /// Applies the `search.NAME` entries of `settings` (`set.search.NAME=V` on `--engine`).
    pub fn with_settings(mut self, settings: &[(String, f32)]) -> Result<SearchConfig, String> {
        for (name, value) in settings {
            if let Some(param) = name.strip_prefix("search.") {
                self.set(param, *value as f64)?;
            }
        }
        Ok(self)
    }
}

impl EngineConfig {
    pub fn parse(text: &str, origin: &str) -> Result<EngineConfig, String> {
        let c: EngineConfig = toml::from_str(text).map_err(|e| format!("engine config {origin}: {}", e.message()))?;
        c.search.validate().map_err(|e| format!("engine config {origin}: {e}"))?;
        Ok(c)
    }

    pub fn load(path: &str) -> Result<EngineConfig, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read engine config {path}: {e}"))?;
        Self::parse(&text, path)
    }

    /// The variant's default engine: `configs/engines/<variant>.toml` under the current
    /// directory, else the built-in copy, else no weights (all defaults).
    pub fn for_variant(variant: &str) -> Result<EngineConfig, String> {
        let local = format!("configs/engines/{variant}.toml");
        if std::path::Path::new(&local).exists() {
            return Self::load(&local);
        }
        match BUILTIN.iter().find(|(n, _)| *n == variant) {
            Some((_, text)) => Self::parse(text, variant),
            None => Ok(EngineConfig::default()),
        }
    }

    /// The evaluator: defaults, then this file's weights, then `settings` in order.
    pub fn evaluator<B: Bits>(&self, r: &Rules<B>, settings: &[(String, f32)]) -> Result<Evaluator, String> {
        if let Some(v) = &self.variant {
            if *v != r.name {
                return Err(format!("engine config is for variant '{v}', not '{}'", r.name));
            }
        }
        let layout = Layout::new(r);
        let mut w = weights::default_weights(r, &layout);
        for (name, &value) in &self.weights {
            weights::apply(&layout, &mut w, name, value)?;
        }
        for (name, value) in settings.iter().filter(|(n, _)| !n.starts_with("search.")) {
            weights::apply(&layout, &mut w, name, *value)?;
        }
        Ok(Evaluator::with_layout(r, Arc::new(layout), w))
    }
}

/// Writes weights as an engine config (all weights, by name).
pub fn to_toml(variant: &str, description: &str, layout: &Layout, weights: &[f32]) -> String {
    let mut s = format!("variant = \"{variant}\"\ndescription = \"{}\"\n\n[weights]\n", description.replace('"', "'"));
    for (name, w) in layout.names.iter().zip(weights) {
        s += &format!("\"{name}\" = {}\n", (w * 100.0).round() / 100.0);
    }
    s
}
