//! `run.toml`: the manifest of a run directory, everything that determines its games.
//!
//! A TOML file any reader loads, with a `version` so later layouts can migrate. Resuming
//! or merging compares it key by key with the run about to use the folder, so a refusal
//! names each setting that differs and both values. A key added later must be left out
//! while it holds its old default (`skip_serializing_if`): folders written before it
//! existed then still compare equal.
//!
//! Folders written before the manifest (Rust `Debug` text) are read by [`legacy`]:
//! compared the old way, and rewritten in this form once they resume.

pub use super::error::RunError;
use super::legacy;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// The layout written by this build; a folder with a larger one came from a newer build.
pub const VERSION: u32 = 1;

/// The manifest's file name inside a run directory.
pub const FILE: &str = "run.toml";

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub version: u32,
    /// `tournament` (game pairs between engines) or `selfplay` (the value estimators' games).
    pub kind: String,
    pub variant: String,
    #[serde(default)]
    pub options: Vec<String>,
    /// `round-robin` or `gauntlet` (tournaments).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// Game pairs per encounter (tournaments).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "big_opt")]
    pub rounds: Option<u64>,
    /// How the jobs were built (selfplay): recorded so a folder is never resumed with other jobs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jobs: Option<String>,
    /// Number of start positions given (0: the variant's start position) and a digest of them.
    #[serde(default)]
    pub openings: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings_digest: Option<String>,
    pub random_plies: u32,
    /// Pieces White and Black lack at the start, `W=B` as `--imbalance` takes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imbalance: Option<String>,
    pub max_drift: i32,
    /// `--opening-margin`: random plies only among moves this near the best (centipawns).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening_margin: Option<i32>,
    /// How openings within a margin are drawn: `distinct` (without replacement, see
    /// `tournament::book`). Folders from before it drew each opening independently and
    /// hold other openings, so they are not resumed with these.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening_draw: Option<String>,
    #[serde(with = "big")]
    pub seed: u64,
    /// Search limits per move shared by the engines (an engine's own limit overrides them).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "big_opt")]
    pub nodes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none", with = "big_opt")]
    pub movetime_ms: Option<u64>,
    /// `seconds+increment`, as `--tc` takes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<String>,
    /// This shard of the run (`i/n`); ignored when comparing, since a game is the same
    /// whichever machine plays it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// The in-process engine's signature (selfplay; a tournament keeps one per engine).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    pub adjudication: AdjudicationEntry,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub engines: Vec<EngineEntry>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AdjudicationEntry {
    pub draw_start: u32,
    pub draw_moves: u32,
    pub draw_score: i32,
    pub resign_moves: u32,
    pub resign_score: i32,
}

impl From<&crate::games::Adjudication> for AdjudicationEntry {
    fn from(a: &crate::games::Adjudication) -> Self {
        AdjudicationEntry {
            draw_start: a.draw_start,
            draw_moves: a.draw_moves,
            draw_score: a.draw_score,
            resign_moves: a.resign_moves,
            resign_score: a.resign_score,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EngineEntry {
    pub name: String,
    /// fairylab's own engine: its config file and weight settings (`value.N=250`, in order).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub set: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none", with = "big_opt")]
    pub hash: Option<u64>,
    /// An external UCI engine: its command, arguments and options (`NAME=VALUE`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cmd: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uci_options: Vec<String>,
    /// This engine's own limits, overriding the run's.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "big_opt")]
    pub nodes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// [`Engine::signature`](crate::engine::Engine::signature) of an in-process engine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
}

/// TOML integers are signed 64-bit: a larger `u64` (a derived seed, say) is written as a
/// string of digits, and read back from either form.
mod big {
    use serde::{Deserialize, Deserializer, Serializer};

    #[derive(Deserialize)]
    #[serde(untagged)]
    pub(super) enum Raw {
        Int(u64),
        Text(String),
    }

    impl Raw {
        pub(super) fn value<E: serde::de::Error>(self) -> Result<u64, E> {
            match self {
                Raw::Int(v) => Ok(v),
                Raw::Text(t) => t.parse().map_err(|_| E::custom(format!("'{t}' is not a whole number"))),
            }
        }
    }

    pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
        match i64::try_from(*v) {
            Ok(i) => s.serialize_i64(i),
            Err(_) => s.serialize_str(&v.to_string()),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        Raw::deserialize(d)?.value()
    }
}

/// [`big`] for optional values.
mod big_opt {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => super::big::serialize(v, s),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        Option::<super::big::Raw>::deserialize(d)?.map(|r| r.value()).transpose()
    }
}

/// One setting that differs between a folder and the run about to use it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// Dotted key (`nodes`, `adjudication.resign_moves`, `engines.B.set`).
    pub key: String,
    /// The folder's value and the new run's (`none` when absent).
    pub folder: String,
    pub now: String,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} in the folder, {} now", self.key, self.folder, self.now)
    }
}

/// What a folder's `run.toml` holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Recorded {
    Manifest(Box<Manifest>),
    /// Text written before the manifest existed (compared with the old fingerprints).
    Legacy(String),
}

impl Recorded {
    pub fn parse(path: &Path, text: &str) -> Result<Recorded, RunError> {
        let unreadable = |reason: String| RunError::Unreadable { path: path.to_path_buf(), reason };
        let Ok(table) = text.parse::<toml::Table>() else { return Ok(Recorded::Legacy(text.to_string())) };
        match table.get("version") {
            // Hand-written or pre-manifest files that happen to be valid TOML.
            None => Ok(Recorded::Legacy(text.to_string())),
            Some(toml::Value::Integer(v)) if *v >= 1 && *v <= VERSION as i64 => {
                let m: Manifest = table.try_into().map_err(|e| unreadable(format!("not a run manifest: {e}")))?;
                Ok(Recorded::Manifest(Box::new(m)))
            }
            Some(v) => Err(unreadable(format!(
                "run manifest version {v} is not one this build reads (up to {VERSION}): use a newer fairylab"
            ))),
        }
    }

    /// Reads `dir/run.toml`; `None` when there is none.
    pub fn read(dir: &Path) -> Result<Option<Recorded>, RunError> {
        let path = dir.join(FILE);
        match std::fs::read_to_string(&path) {
            Ok(text) => Recorded::parse(&path, &text).map(Some),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(RunError::Io { path, reason: format!("cannot read: {e}") }),
        }
    }

    /// The variant recorded (`None` when the file does not say).
    pub fn variant(&self) -> Option<String> {
        match self {
            Recorded::Manifest(m) => Some(m.variant.clone()),
            Recorded::Legacy(t) => legacy::string_value(t, "variant"),
        }
    }

    /// The variant options recorded.
    pub fn options(&self) -> Option<Vec<String>> {
        match self {
            Recorded::Manifest(m) => Some(m.options.clone()),
            Recorded::Legacy(t) => legacy::options(t),
        }
    }

    /// Nodes per move shared by every game, if the run had such a limit.
    pub fn nodes(&self) -> Option<u64> {
        match self {
            Recorded::Manifest(m) => m.nodes,
            Recorded::Legacy(t) => legacy::nodes(t),
        }
    }
}

impl Manifest {
    pub fn to_text(&self) -> String {
        toml::to_string(self).expect("a manifest has only TOML-representable fields")
    }

    pub fn write(&self, dir: &Path) -> Result<(), RunError> {
        let path = dir.join(FILE);
        std::fs::write(&path, self.to_text()).map_err(|e| RunError::Io { path, reason: format!("cannot write: {e}") })
    }

    /// Every setting as a dotted key and its printed value, signatures and shard aside.
    fn settings(&self) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        let value = toml::Value::try_from(self).expect("a manifest serializes");
        flatten("", &value, &mut out);
        out.retain(|k, _| k != "version" && k != "shard" && !k.ends_with("signature"));
        out
    }

    fn signatures(&self) -> Vec<(String, Option<String>)> {
        let mut s = vec![(String::new(), self.signature.clone())];
        s.extend(self.engines.iter().map(|e| (e.name.clone(), e.signature.clone())));
        s
    }

    /// Settings that differ from `now`, in key order.
    pub fn differences(&self, now: &Manifest) -> Vec<Difference> {
        let (a, b) = (self.settings(), now.settings());
        let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
        keys.sort();
        keys.dedup();
        let none = || "none".to_string();
        keys.into_iter()
            .filter(|k| a.get(*k) != b.get(*k))
            .map(|k| Difference {
                key: k.clone(),
                folder: a.get(k).cloned().unwrap_or_else(none),
                now: b.get(k).cloned().unwrap_or_else(none),
            })
            .collect()
    }

    /// Whether the engines that played the folder's games (`self`) are the ones of `now`.
    /// A folder from before signatures were recorded is taken on trust.
    pub fn same_engines(&self, now: &Manifest) -> bool {
        let recorded = self.signatures();
        !recorded.iter().any(|(_, s)| s.is_some()) || recorded == now.signatures()
    }
}

/// Flattens tables into dotted keys; an array of tables with names (the engines) is keyed
/// by name, so a refusal says `engines.B.nodes` rather than a position in the list.
fn flatten(prefix: &str, v: &toml::Value, out: &mut BTreeMap<String, String>) {
    let key = |k: &str| if prefix.is_empty() { k.to_string() } else { format!("{prefix}.{k}") };
    match v {
        toml::Value::Table(t) => {
            for (k, v) in t {
                flatten(&key(k), v, out);
            }
        }
        toml::Value::Array(items) if !items.is_empty() && items.iter().all(|i| i.get("name").is_some()) => {
            // The order matters too (who plays whom first, a gauntlet's first engine).
            let names: Vec<String> = items.iter().filter_map(|i| i.get("name")).map(printed).collect();
            out.insert(prefix.to_string(), format!("[{}]", names.join(", ")));
            for item in items {
                let name = item.get("name").map(printed).unwrap_or_default();
                let mut entry = item.clone();
                if let Some(t) = entry.as_table_mut() {
                    t.remove("name");
                }
                flatten(&key(&name), &entry, out);
            }
        }
        v => {
            out.insert(prefix.to_string(), printed(v));
        }
    }
}

fn printed(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        toml::Value::Array(items) => format!("[{}]", items.iter().map(printed).collect::<Vec<_>>().join(", ")),
        v => v.to_string(),
    }
}

/// How an existing folder relates to the run about to use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opened {
    /// No run.toml: a new run (the manifest has been written).
    New,
    /// The same run: resume it.
    Same,
    /// The same two-engine match with fewer rounds: play only the new pairs.
    Extended { from_rounds: u64 },
}

/// Checks `dir` against the run about to play into it and records the run's manifest
/// when the folder is new, extended or in the old form. `legacy_text` is what this run
/// would have written before the manifest existed; `extendable` says whether raising the
/// rounds keeps the finished games' ids (one encounter only).
pub fn open(dir: &Path, now: &Manifest, legacy_text: &str, extendable: bool) -> Result<Opened, RunError> {
    let opened = match Recorded::read(dir)? {
        None => Opened::New,
        Some(Recorded::Legacy(old)) => legacy::open(dir, &old, legacy_text, extendable)?,
        Some(Recorded::Manifest(old)) => {
            let differences = old.differences(now);
            let extension = match (extendable, old.rounds, now.rounds, &differences[..]) {
                (true, Some(a), Some(b), [d]) if d.key == "rounds" && b > a => Some(a),
                _ => None,
            };
            if !differences.is_empty() && extension.is_none() {
                let hint = differences
                    .iter()
                    .any(|d| d.key == "rounds")
                    .then(|| "a two-engine match may only raise its rounds".to_string());
                return Err(RunError::DifferentRun { dir: dir.to_path_buf(), differences, hint });
            }
            if !old.same_engines(now) {
                return Err(RunError::OtherEngine { dir: dir.to_path_buf() });
            }
            match extension {
                Some(from_rounds) => Opened::Extended { from_rounds },
                // The folder keeps its own manifest: it may name another shard.
                None => return Ok(Opened::Same),
            }
        }
    };
    now.write(dir)?;
    Ok(opened)
}

/// The manifest of folders merged from `inputs` (shards of one run), which must agree.
/// `Ok(None)` when no input has one.
pub fn merged(inputs: &[PathBuf]) -> Result<Option<Recorded>, RunError> {
    let mut first: Option<(PathBuf, Recorded)> = None;
    let mut shards = Shards::default();
    for dir in inputs {
        let Some(rec) = Recorded::read(dir)? else { continue };
        let rec = match rec {
            Recorded::Manifest(mut m) => {
                shards.add(m.shard.as_deref());
                m.shard = None;
                Recorded::Manifest(m)
            }
            Recorded::Legacy(t) => Recorded::Legacy(legacy::strip_shard(&t)),
        };
        let Some((first_dir, f)) = &first else {
            first = Some((dir.clone(), rec));
            continue;
        };
        match (f, &rec) {
            (Recorded::Manifest(a), Recorded::Manifest(b)) => {
                let differences = a.differences(b);
                if !differences.is_empty() {
                    return Err(RunError::DifferentRun {
                        dir: dir.clone(),
                        differences,
                        hint: Some(format!("\"in the folder\" is {}, \"now\" this shard", first_dir.display())),
                    });
                }
                if a.signatures() != b.signatures() {
                    return Err(RunError::OtherEngine { dir: dir.clone() });
                }
            }
            (Recorded::Legacy(a), Recorded::Legacy(b)) if a == b => {}
            (Recorded::Legacy(_), Recorded::Legacy(_)) => {
                return Err(RunError::DifferentRun {
                    dir: dir.clone(),
                    differences: vec![],
                    hint: Some(format!("its run.toml differs from {}'s", first_dir.display())),
                })
            }
            _ => {
                return Err(RunError::Unreadable {
                    path: dir.join(FILE),
                    reason: format!(
                        "one of this and {}'s run.toml is in the form from before the manifest: resume that \
                         shard once with this build (the same command) to update its run.toml, then merge",
                        first_dir.display()
                    ),
                })
            }
        }
    }
    if let Some(missing) = shards.missing() {
        return Err(RunError::Invalid(missing));
    }
    Ok(first.map(|(_, r)| r))
}

/// The shards `i/n` the inputs of a merge hold, so that a merge of an incomplete set
/// (a cluster task that never ran or left no folder) names what is missing instead of
/// writing a folder the unsharded run would quietly finish on one machine.
#[derive(Default)]
struct Shards {
    seen: std::collections::BTreeSet<(u64, u64)>,
    /// An input holding a whole run (merged before, or never sharded) covers every game.
    whole: bool,
}

impl Shards {
    fn add(&mut self, shard: Option<&str>) {
        match shard.map(super::parse_shard) {
            Some(Ok(s)) => {
                self.seen.insert(s);
            }
            // An unreadable tag says nothing about coverage: the check stays out of the way.
            _ => self.whole = true,
        }
    }

    fn missing(&self) -> Option<String> {
        let n = self.seen.first()?.1;
        // Splits of different sizes overlap unevenly: their coverage is not decided here.
        if self.whole || self.seen.iter().any(|s| s.1 != n) {
            return None;
        }
        let missing: Vec<String> =
            (1..=n).filter(|i| !self.seen.contains(&(*i, n))).map(|i| format!("{i}/{n}")).collect();
        if missing.is_empty() {
            return None;
        }
        Some(format!(
            "shard {} missing: none of the inputs holds it (run it with --shard, or rerun that cluster array \
             task, then merge again)",
            missing.join(", ")
        ))
    }
}

/// A short, stable digest of the start positions (FNV-1a), so a run from another
/// openings file with as many lines is not taken for this one.
pub fn digest(fens: &[String]) -> Option<String> {
    if fens.is_empty() {
        return None;
    }
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for f in fens {
        for b in f.bytes().chain(std::iter::once(b'\n')) {
            h ^= b as u64;
            h = h.wrapping_mul(0x100_0000_01b3);
        }
    }
    Some(format!("{h:016x}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Manifest {
        Manifest {
            version: VERSION,
            kind: "tournament".into(),
            variant: "chess".into(),
            rounds: Some(4),
            nodes: Some(200),
            seed: 1,
            engines: vec![
                EngineEntry { name: "A".into(), signature: Some("00ff".into()), ..Default::default() },
                EngineEntry { name: "B".into(), set: vec!["value.N=250".into()], ..Default::default() },
            ],
            ..Default::default()
        }
    }

    #[test]
    fn round_trips_through_toml_text() {
        let mut m = sample();
        // Beyond TOML's signed integers: written as digits, read back as the number.
        m.seed = u64::MAX;
        let text = m.to_text();
        assert!(text.starts_with("version = 1\n"), "{text}");
        match Recorded::parse(Path::new("run.toml"), &text).unwrap() {
            Recorded::Manifest(back) => assert_eq!(*back, m),
            other => panic!("read back as {other:?}"),
        }
    }

    #[test]
    fn differences_name_the_key_and_both_values() {
        let (a, mut b) = (sample(), sample());
        b.nodes = Some(300);
        b.depth = Some(3);
        b.engines[1].set = vec!["value.N=260".into()];
        b.shard = Some("1/2".into());
        b.engines[0].signature = Some("1234".into());
        let d: Vec<String> = a.differences(&b).iter().map(|d| d.to_string()).collect();
        assert_eq!(
            d,
            [
                "depth: none in the folder, 3 now",
                "engines.B.set: [value.N=250] in the folder, [value.N=260] now",
                "nodes: 200 in the folder, 300 now"
            ]
        );
        assert!(!a.same_engines(&b));
        let mut old = sample();
        old.engines[0].signature = None;
        assert!(old.same_engines(&b), "a folder without signatures is taken on trust");
    }

    #[test]
    fn newer_versions_and_broken_manifests_are_refused() {
        let p = Path::new("run.toml");
        assert!(matches!(Recorded::parse(p, "version = 9\n"), Err(RunError::Unreadable { .. })));
        assert!(matches!(Recorded::parse(p, "version = 1\nkind = 3\n"), Err(RunError::Unreadable { .. })));
        assert!(matches!(Recorded::parse(p, "variant = \"chess\"\nnodes = 5\n"), Ok(Recorded::Legacy(_))));
        assert!(matches!(Recorded::parse(p, "engines = [EngineSpec { name: \"A\" }]\n"), Ok(Recorded::Legacy(_))));
    }
}
