//! The `run.toml` of folders written before the manifest: one `key = value` line per
//! setting, values in Rust `Debug` notation, an `engine_signature` line and, for a
//! shard, a `shard` line.
//!
//! Such a folder is compared the way it was then: this run's settings are printed in that
//! text exactly as the old build printed them and the lines are compared. The text is
//! spelled out here field by field instead of deriving it from `Debug`, so new fields in
//! `Limits` or `EngineSpec` do not change it and old folders keep resuming.

use super::engines::{EngineKind, EngineSpec};
use super::manifest::{Difference, Opened, RunError};
use super::{Mode, Settings};
use crate::games::Adjudication;
use crate::search::Limits;
use std::path::Path;

const SIGNATURE_KEY: &str = "engine_signature";

fn limits(l: &Limits) -> String {
    format!(
        "Limits {{ depth: {:?}, nodes: {:?}, movetime: {:?}, time: {:?}, inc: {:?}, movestogo: {:?}, infinite: {:?} }}",
        l.depth, l.nodes, l.movetime, l.time, l.inc, l.movestogo, l.infinite
    )
}

fn adjudication(a: &Adjudication) -> String {
    format!(
        "Adjudication {{ draw_start: {:?}, draw_moves: {:?}, draw_score: {:?}, resign_moves: {:?}, resign_score: {:?} }}",
        a.draw_start, a.draw_moves, a.draw_score, a.resign_moves, a.resign_score
    )
}

fn engine(e: &EngineSpec) -> String {
    let kind = match &e.kind {
        EngineKind::Internal { config, settings, hash } => {
            format!("Internal {{ config: {config:?}, settings: {settings:?}, hash: {hash:?} }}")
        }
        EngineKind::External { cmd, args, options } => {
            format!("External {{ cmd: {cmd:?}, args: {args:?}, options: {options:?} }}")
        }
    };
    let own = match &e.limits {
        Some(l) => format!("Some({})", limits(l)),
        None => "None".into(),
    };
    format!("EngineSpec {{ name: {:?}, kind: {kind}, limits: {own} }}", e.name)
}

/// What a tournament wrote as its run.toml before the manifest, given its engines'
/// signatures (name, signature) for the in-process ones.
pub fn tournament_text(s: &Settings, signatures: &[(String, u64)]) -> String {
    let o = &s.openings;
    let engines: Vec<String> = s.engines.iter().map(engine).collect();
    let mode = match s.mode {
        Mode::RoundRobin => "RoundRobin",
        Mode::Gauntlet => "Gauntlet",
    };
    let mut t = format!(
        "variant = {:?}\noptions = {:?}\nengines = [{}]\nmode = {mode}\nrounds = {}\nopenings = {}\nrandom_plies = {}\nimbalance = {:?}\nmax_drift = {}\nseed = {}\nlimits = {}\nclock = {:?}\nadjudication = {}\n",
        s.variant.name(),
        s.variant.options(),
        engines.join(", "),
        s.rounds,
        o.fens.len(),
        o.random_plies,
        o.imbalance,
        o.max_drift,
        o.seed,
        limits(&s.limits),
        s.clock,
        adjudication(&s.adjudication)
    );
    if let Some((i, n)) = s.shard {
        t += &format!("shard = \"{i}/{n}\"\n");
    }
    if !signatures.is_empty() {
        let parts: Vec<String> = signatures.iter().map(|(name, sig)| format!("{name}:{sig:016x}")).collect();
        t += &format!("{SIGNATURE_KEY} = {parts:?}\n");
    }
    t
}

/// What the value estimators' self-play wrote as its run.toml before the manifest.
pub fn selfplay_text(plan: &crate::values::selfplay::Plan, signature: u64) -> String {
    let mut t = format!(
        "variant = {:?}\noptions = {:?}\nnodes = {}\nrandom_plies = {}\nmax_drift = {}\nseed = {}\nadjudication = {}\njobs = {:?}\n",
        plan.variant.name(),
        plan.variant.options(),
        plan.nodes,
        plan.random_plies,
        plan.max_drift,
        plan.seed,
        adjudication(&plan.adjudication),
        plan.description
    );
    if !plan.fens.is_empty() {
        t += &format!("fens = {:?}\n", plan.fens);
    }
    t + &format!("{SIGNATURE_KEY} = {:?}\n", [format!("{signature:016x}")])
}

/// The text without its shard line (shards of one run differ only there).
pub fn strip_shard(s: &str) -> String {
    s.lines().filter(|l| !l.starts_with("shard")).map(|l| format!("{l}\n")).collect()
}

fn lines_by_key(s: &str) -> Vec<(&str, &str)> {
    s.lines().map(|l| l.split_once(" = ").unwrap_or((l, ""))).collect()
}

/// Lines that differ, signatures aside, keyed by their setting.
fn differences(old: &str, now: &str) -> Vec<Difference> {
    let (a, b) = (lines_by_key(old), lines_by_key(now));
    let mut keys: Vec<&str> = a.iter().chain(&b).map(|(k, _)| *k).filter(|k| *k != SIGNATURE_KEY).collect();
    keys.dedup();
    let mut seen = std::collections::HashSet::new();
    keys.retain(|k| seen.insert(*k));
    let get = |m: &[(&str, &str)], k: &str| {
        m.iter().find(|(x, _)| *x == k).map_or("none".to_string(), |(_, v)| v.to_string())
    };
    keys.into_iter()
        .filter(|k| get(&a, k) != get(&b, k))
        .map(|k| Difference { key: k.to_string(), folder: get(&a, k), now: get(&b, k) })
        .collect()
}

/// The old round count if `now` only raises `rounds` over `old` (signatures included).
fn extension_of(old: &str, now: &str) -> Option<u64> {
    let rounds = |t: &str| -> Option<u64> { t.lines().find_map(|l| l.strip_prefix("rounds = "))?.parse().ok() };
    let rest =
        |t: &str| -> Vec<String> { t.lines().filter(|l| !l.starts_with("rounds = ")).map(String::from).collect() };
    let (a, b) = (rounds(old)?, rounds(now)?);
    (b > a && rest(old) == rest(now)).then_some(a)
}

/// Compares an old-form run.toml with this run's old-form text, as the old build did.
pub fn open(dir: &Path, old: &str, now: &str, extendable: bool) -> Result<Opened, RunError> {
    let (old, now) = (strip_shard(old), strip_shard(now));
    let differences = differences(&old, &now);
    if differences.is_empty() {
        // A folder from before signatures were recorded is taken on trust.
        if old.contains(SIGNATURE_KEY) && old != now {
            return Err(RunError::OtherEngine { dir: dir.to_path_buf() });
        }
        return Ok(Opened::Same);
    }
    match extension_of(&old, &now).filter(|_| extendable) {
        Some(from_rounds) => Ok(Opened::Extended { from_rounds }),
        None => Err(RunError::DifferentRun { dir: dir.to_path_buf(), differences, hint: None }),
    }
}

/// A quoted string value (`variant = "chess"`).
pub fn string_value(text: &str, key: &str) -> Option<String> {
    let v = text.lines().find_map(|l| l.strip_prefix(key)?.strip_prefix(" = "))?;
    Some(v.trim().strip_prefix('"')?.strip_suffix('"')?.to_string())
}

/// The `options = ["a", "b"]` list.
pub fn options(text: &str) -> Option<Vec<String>> {
    let v = text.lines().find_map(|l| l.strip_prefix("options = "))?;
    let inner = v.trim().strip_prefix('[')?.strip_suffix(']')?;
    Some(inner.split(',').map(|s| s.trim().trim_matches('"').to_string()).filter(|s| !s.is_empty()).collect())
}

/// Nodes per move: `nodes = N` (self-play) or inside `limits = Limits { .. nodes: Some(N) .. }`.
pub fn nodes(text: &str) -> Option<u64> {
    for line in text.lines() {
        if let Some(n) = line.strip_prefix("nodes = ") {
            return n.trim().parse().ok();
        }
        if let Some(rest) = line.strip_prefix("limits = ").and_then(|l| l.split("nodes: Some(").nth(1)) {
            return rest.split(')').next()?.parse().ok();
        }
    }
    None
}
