//! `fairylab weights`: every evaluation weight of a variant's engine, by name.

use crate::eval::{weights, EngineConfig};
use crate::{Error, Variant};
use clap::Args;

#[derive(Args)]
pub struct WeightsArgs {
    #[arg(long, default_value = "flying-bombers-grand")]
    pub variant: String,
    #[arg(long = "option")]
    pub options: Vec<String>,
    /// Engine config file (default: the variant's).
    #[arg(long)]
    pub engine: Option<String>,
    /// `name=value` overrides, repeatable (`value.F=450` sets both mg and eg).
    #[arg(long = "set")]
    pub set: Vec<String>,
    /// Print as a complete engine config (TOML) instead of a table.
    #[arg(long)]
    pub toml: bool,
}

pub fn run(a: &WeightsArgs) -> Result<(), Error> {
    let v = crate::Variant::load_with(&a.variant, &a.options)?;
    let cfg = match &a.engine {
        Some(p) => EngineConfig::load(p).map_err(Error::Engine)?,
        None => EngineConfig::for_variant(v.name()).map_err(Error::Engine)?,
    };
    let settings =
        a.set.iter().map(|s| weights::parse_setting(s)).collect::<Result<Vec<_>, _>>().map_err(Error::Engine)?;
    let ev = match v {
        Variant::Narrow(r) => cfg.evaluator(r, &settings).map_err(Error::Engine)?,
        Variant::Wide(r) => cfg.evaluator(r, &settings).map_err(Error::Engine)?,
    };
    if a.toml {
        print!("{}", crate::eval::config::to_toml(v.name(), "fairylab weights", &ev.layout, ev.weights()));
    } else {
        for (n, w) in ev.layout.names.iter().zip(ev.weights()) {
            println!("{n:<28} {w}");
        }
    }
    Ok(())
}
