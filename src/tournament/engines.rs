//! `--engine` specifications and the players built from them.
//!
//! In-process: `name=A [config=path.toml] [set.value.F=450 ...] [nodes=N] [depth=D] [hash=MB]`.
//! External UCI: `name=fs cmd=/path/to/engine [arg=...] [option.UCI_Variant=...]`; option
//! names and values may contain spaces (`option.Use NNUE=false`).

use crate::engine::Engine;
use crate::eval::EngineConfig;
use crate::games::uci_player::{UciPlayer, UciSpec};
use crate::games::{EnginePlayer, Player};
use crate::search::Limits;
use crate::Variant;
use std::time::Duration;

/// Node budget of the second of two otherwise identical engines. At a fixed node count
/// two copies of one engine replay every game of a pair move for move with colours
/// swapped, so the second game would add nothing; a 1/16 larger budget makes the games
/// differ, and colour swapping cancels the small strength difference in White's score.
pub fn twin_nodes(nodes: u64) -> u64 {
    nodes + nodes / 16 + 1
}

/// Keys of an `--engine` spec besides the `option.NAME` and `set.NAME` families.
const KEYS: [&str; 7] = ["name", "config", "cmd", "arg", "hash", "nodes", "depth"];

/// Splits a spec into `key=value` items. UCI option names and values may hold spaces
/// (`option.Use NNUE=false`, `option.EvalFile=/my nets/a.nnue`), so inside an `option.`
/// item a word continues it unless it starts another item (a known key, `option.`, `set.`).
fn items(text: &str) -> Result<Vec<(String, String)>, String> {
    let starts_item = |w: &str| {
        w.starts_with("option.") || w.starts_with("set.") || w.split_once('=').is_some_and(|(k, _)| KEYS.contains(&k))
    };
    let mut items: Vec<String> = vec![];
    for word in text.split_whitespace() {
        match items.last_mut() {
            Some(last) if last.starts_with("option.") && !starts_item(word) => {
                last.push(' ');
                last.push_str(word);
            }
            _ => items.push(word.to_string()),
        }
    }
    items
        .into_iter()
        .map(|item| match item.split_once('=') {
            Some((k, v)) if !k.is_empty() => Ok((k.to_string(), v.to_string())),
            _ => Err(format!("--engine: '{item}' must look like key=value")),
        })
        .collect()
}

#[derive(Clone, Debug, PartialEq)]
pub enum EngineKind {
    Internal { config: Option<String>, settings: Vec<(String, f32)>, hash: usize },
    External { cmd: String, args: Vec<String>, options: Vec<(String, String)> },
}

#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    pub name: String,
    pub kind: EngineKind,
    /// Per-engine search limit overriding the tournament's (`nodes=`, `depth=`).
    pub limits: Option<Limits>,
}

impl EngineSpec {
    /// Parses `key=value` words (one `--engine` argument).
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let mut name = None;
        let mut config = None;
        let mut settings = Vec::new();
        let mut cmd = None;
        let mut args = Vec::new();
        let mut options = Vec::new();
        let mut hash = 8;
        let mut limits: Option<Limits> = None;
        for (k, v) in items(text)? {
            let (k, v) = (k.as_str(), v.as_str());
            let num = |v: &str| v.parse::<u64>().map_err(|_| format!("--engine: {k}='{v}' is not a number"));
            let positive = |v: &str| match num(v)? {
                0 => Err(format!("--engine: {k}=0, must be at least 1")),
                n => Ok(n),
            };
            match k {
                "name" => name = Some(v.to_string()),
                "config" => config = Some(v.to_string()),
                "cmd" => cmd = Some(v.to_string()),
                "arg" => args.push(v.to_string()),
                "hash" => hash = num(v)? as usize,
                "nodes" => limits.get_or_insert_with(Limits::default).nodes = Some(positive(v)?),
                "depth" => limits.get_or_insert_with(Limits::default).depth = Some(positive(v)? as u32),
                _ if k.starts_with("set.") => {
                    let w: f32 = v.parse().map_err(|_| format!("--engine: {k}='{v}' is not a number"))?;
                    settings.push((k["set.".len()..].to_string(), w));
                }
                _ if k.starts_with("option.") => options.push((k["option.".len()..].to_string(), v.to_string())),
                _ => return Err(format!("--engine: unknown key '{k}'")),
            }
        }
        let name = name.ok_or("--engine: missing name=...")?;
        if limits.as_ref().is_some_and(|l| l.nodes.is_some() && l.depth.is_some()) {
            return Err(format!("--engine {name}: nodes= and depth= are both search limits: give one of them"));
        }
        let kind = match cmd {
            Some(cmd) => {
                if config.is_some() || !settings.is_empty() {
                    return Err(format!("--engine {name}: config/set.* apply to fairylab's own engine, not to cmd="));
                }
                EngineKind::External { cmd, args, options }
            }
            None => {
                if !options.is_empty() || !args.is_empty() {
                    return Err(format!("--engine {name}: option.*/arg= need cmd="));
                }
                EngineKind::Internal { config, settings, hash }
            }
        };
        Ok(EngineSpec { name, kind, limits })
    }

    /// Checks that an in-process engine can be built (bad config or weight names fail
    /// before any game starts).
    pub fn validate(&self, variant: Variant) -> Result<(), String> {
        if let EngineKind::Internal { .. } = self.kind {
            self.internal(variant, &Limits::default(), None)?;
        }
        Ok(())
    }

    /// An in-process engine's config: its file, or the variant's default.
    fn config(&self, variant: Variant) -> Result<EngineConfig, String> {
        match &self.kind {
            EngineKind::Internal { config: Some(path), .. } => EngineConfig::load(path),
            _ => EngineConfig::for_variant(variant.name()),
        }
    }

    fn internal(
        &self,
        variant: Variant,
        limits: &Limits,
        clock: Option<(Duration, Duration)>,
    ) -> Result<EnginePlayer, String> {
        let EngineKind::Internal { settings, hash, .. } = &self.kind else { unreachable!() };
        let engine = Engine::new(variant, &self.config(variant)?, settings, *hash).map_err(|e| e.to_string())?;
        Ok(EnginePlayer::new(&self.name, engine, self.limits.clone().unwrap_or_else(|| limits.clone()), clock))
    }

    /// The in-process engine's [`Engine::signature`](crate::engine::Engine::signature);
    /// `None` for an external engine (its build is not ours to see).
    pub fn signature(&self, variant: Variant) -> Result<Option<u64>, String> {
        let EngineKind::Internal { settings, .. } = &self.kind else { return Ok(None) };
        let mut engine = Engine::new(variant, &self.config(variant)?, settings, 1).map_err(|e| e.to_string())?;
        engine.signature().map(Some).map_err(|e| e.to_string())
    }

    /// A fresh player for one worker.
    pub fn player(
        &self,
        variant: Variant,
        limits: &Limits,
        clock: Option<(Duration, Duration)>,
    ) -> Result<Box<dyn Player>, String> {
        match &self.kind {
            EngineKind::Internal { .. } => Ok(Box::new(self.internal(variant, limits, clock)?)),
            EngineKind::External { cmd, args, options } => {
                let mut options = options.clone();
                if !options.iter().any(|(k, _)| k == "UCI_Variant") {
                    options.insert(0, ("UCI_Variant".into(), variant.name().into()));
                }
                let spec = UciSpec {
                    name: self.name.clone(),
                    cmd: cmd.clone(),
                    args: args.clone(),
                    options,
                    limits: self.limits.clone().unwrap_or_else(|| limits.clone()),
                    clock,
                    timeout_margin: Duration::from_millis(1000),
                };
                Ok(Box::new(UciPlayer::new(spec)?))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_internal_and_external_specs() {
        let a = EngineSpec::parse("name=A set.value.F=450 nodes=500").unwrap();
        assert_eq!(a.name, "A");
        assert_eq!(a.limits.unwrap().nodes, Some(500));
        match a.kind {
            EngineKind::Internal { settings, .. } => assert_eq!(settings, vec![("value.F".to_string(), 450.0)]),
            _ => panic!("expected internal"),
        }
        let b = EngineSpec::parse("name=fs cmd=/bin/fs option.Hash=32").unwrap();
        assert!(
            matches!(b.kind, EngineKind::External { ref options, .. } if options[0] == ("Hash".into(), "32".into()))
        );
        assert!(EngineSpec::parse("cmd=/x").unwrap_err().contains("name"));
        let c = EngineSpec::parse("name=fs cmd=/bin/fs option.Use NNUE=false option.EvalFile=/my nets/a.nnue nodes=5")
            .unwrap();
        let want: Vec<(String, String)> =
            vec![("Use NNUE".into(), "false".into()), ("EvalFile".into(), "/my nets/a.nnue".into())];
        assert!(matches!(c.kind, EngineKind::External { ref options, .. } if *options == want), "{c:?}");
        assert_eq!(c.limits.unwrap().nodes, Some(5));
        assert!(EngineSpec::parse("name=fs cmd=/x option.Hash").unwrap_err().contains("key=value"));
        assert!(EngineSpec::parse("name=A stray").unwrap_err().contains("'stray'"));
        assert!(EngineSpec::parse("name=A bogus=1").unwrap_err().contains("bogus"));
        assert!(EngineSpec::parse("name=A nodes=lots").is_err());
        assert!(EngineSpec::parse("name=A cmd=/x set.value.P=1").is_err());
    }
}
