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

#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SearchConfig {
    /// Quiet moves ordered and reduced by how they fared after the last two moves too.
    pub continuation_history: bool,
    /// Late-move reductions grow as ln(depth) × ln(move number) / this: smaller reduces
    /// more. A game gets its own only where an SPRT at two node budgets showed a gain.
    pub reduction_divisor: f64,
}

impl SearchConfig {
    pub const REDUCTION_DIVISOR: f64 = 2.25;
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig { continuation_history: true, reduction_divisor: Self::REDUCTION_DIVISOR }
    }
}

impl EngineConfig {
    pub fn parse(text: &str, origin: &str) -> Result<EngineConfig, String> {
        let c: EngineConfig = toml::from_str(text).map_err(|e| format!("engine config {origin}: {}", e.message()))?;
        let d = c.search.reduction_divisor;
        if !(d.is_finite() && d > 0.0) {
            return Err(format!("engine config {origin}: search.reduction_divisor must be a positive number, not {d}"));
        }
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
        for (name, value) in settings {
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
