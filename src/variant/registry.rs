//! Finding variant files, applying options, and the built-in copies of `configs/variants`.

use super::config::VariantConfig;
use super::VariantError;

/// The variant files shipped with fairylab, embedded so the binary works from any directory.
pub const BUILTIN: &[(&str, &str)] = &[
    ("chess", include_str!("../../configs/variants/chess.toml")),
    ("capablanca", include_str!("../../configs/variants/capablanca.toml")),
    ("noble-wings", include_str!("../../configs/variants/noble-wings.toml")),
    ("bland-chess-46", include_str!("../../configs/variants/bland-chess-46.toml")),
    ("flying-bombers-hangars", include_str!("../../configs/variants/flying-bombers-hangars.toml")),
    ("flying-bombers-grand", include_str!("../../configs/variants/flying-bombers-grand.toml")),
    ("bomber-diagram", include_str!("../../configs/variants/bomber-diagram.toml")),
];

/// Text of a variant: a path to a `.toml` file, `configs/variants/NAME.toml` under the current
/// directory (so users can add and edit games without rebuilding), or a built-in copy.
pub fn find(name: &str) -> Result<String, VariantError> {
    // Fairy-Stockfish's own files: FILE.ini:NAME.
    if name.ends_with(".ini") || name.rsplit_once(':').is_some_and(|(p, _)| p.ends_with(".ini")) {
        return super::ini::load(name).map_err(VariantError::Ini);
    }
    if name.ends_with(".toml") {
        return std::fs::read_to_string(name)
            .map_err(|e| VariantError::Unreadable { path: name.to_string(), reason: e.to_string() });
    }
    let local = std::path::Path::new("configs/variants").join(format!("{name}.toml"));
    if let Ok(text) = std::fs::read_to_string(&local) {
        return Ok(text);
    }
    BUILTIN
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| t.to_string())
        .ok_or_else(|| VariantError::Unknown { name: name.to_string(), known: names() })
}

/// Names of all variants: the built-in ones plus files in `./configs/variants`.
pub fn names() -> Vec<String> {
    let mut v: Vec<String> = BUILTIN.iter().map(|(n, _)| n.to_string()).collect();
    if let Ok(dir) = std::fs::read_dir("configs/variants") {
        for e in dir.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "toml") {
                if let Some(stem) = p.file_stem().and_then(|s| s.to_str()) {
                    if !v.iter().any(|n| n == stem) {
                        v.push(stem.to_string());
                    }
                }
            }
        }
    }
    v
}

fn merge(base: &mut toml::Table, patch: &toml::Table) {
    for (k, v) in patch {
        match (base.get_mut(k), v) {
            (Some(toml::Value::Table(b)), toml::Value::Table(p)) => merge(b, p),
            _ => {
                base.insert(k.clone(), v.clone());
            }
        }
    }
}

/// Parses a variant file and applies the named options in order.
pub fn parse(text: &str, options: &[&str]) -> Result<VariantConfig, VariantError> {
    let mut table: toml::Table =
        text.parse().map_err(|e| VariantError::Invalid(format!("variant file is not valid TOML: {e}")))?;
    let available: toml::Table = match table.get("options") {
        Some(toml::Value::Table(t)) => t.clone(),
        _ => toml::Table::new(),
    };
    for opt in options {
        let patch = available.get(*opt).and_then(|o| o.get("patch")).and_then(|p| p.as_table()).ok_or_else(|| {
            VariantError::UnknownOption { option: opt.to_string(), available: available.keys().cloned().collect() }
        })?;
        merge(&mut table, patch);
    }
    Ok(VariantConfig::deserialize_table(table)?)
}

impl VariantConfig {
    fn deserialize_table(table: toml::Table) -> Result<VariantConfig, String> {
        toml::Value::Table(table).try_into().map_err(|e: toml::de::Error| format!("bad variant file: {}", e.message()))
    }
}
