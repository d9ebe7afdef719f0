//! `fairylab match` and `fairylab tournament`: flags named as fastchess/cutechess users
//! expect them.

use super::common::{RunFlags, VariantFlags};
use crate::games::Adjudication;
use crate::search::Limits;
use crate::stats::{EloModel, Sprt};
use crate::tournament::{self, engines::EngineSpec, openings, Mode, Settings, Summary};
use crate::Error;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args, Clone)]
pub struct TournamentArgs {
    #[command(flatten)]
    pub game: VariantFlags,
    /// Player: `name=A [config=FILE] [set.value.F=450]...` or `name=X cmd=PATH [option.K=V]...`
    /// (option names may hold spaces: `option.Use NNUE=false`).
    /// Repeatable; without any, two copies of the variant's default engine play.
    #[arg(long = "engine")]
    pub engines: Vec<String>,
    /// Game pairs per encounter (each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 10)]
    pub rounds: u64,
    /// Total games per encounter instead of --rounds (rounded up to pairs).
    #[arg(long)]
    pub games: Option<u64>,
    /// `start` (default) or an EPD/FEN file with one position per line.
    #[arg(long, default_value = "start")]
    pub openings: String,
    /// Random plies played from each opening (seeded; losing lines rejected).
    #[arg(long, default_value_t = 8)]
    pub random_plies: u32,
    /// Draw each random ply only among the moves a short search scores within this many
    /// centipawns of the best (near-balanced openings, never the same one twice: a ply
    /// longer when the short lines run out); default: among all legal moves.
    #[arg(long, value_name = "CP")]
    pub opening_margin: Option<u32>,
    /// Imbalance `W=B`: White lacks W, Black lacks B (letters or squares joined by +), e.g. `R=F`.
    #[arg(long)]
    pub imbalance: Option<String>,
    /// Nodes per move (default 20000 without --depth or --tc).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Depth per move (not with --nodes).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Clock: `seconds+increment`, e.g. `10+0.1`.
    #[arg(long)]
    pub tc: Option<String>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output directory (games.csv, positions.csv, run.toml); an existing one is resumed.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Also write PGN to this file.
    #[arg(long)]
    pub pgnout: Option<PathBuf>,
    /// `elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized|logistic`.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Draw adjudication `movenumber=40 movecount=8 score=10` (off when absent).
    #[arg(long)]
    pub draw: Option<String>,
    /// Resign adjudication `movecount=3 score=1000` (off when absent).
    #[arg(long)]
    pub resign: Option<String>,
    /// Tournament shape with three or more engines.
    #[arg(long, default_value = "round-robin", value_parser = ["round-robin", "gauntlet"])]
    pub format: String,
    #[command(flatten)]
    pub run: RunFlags,
}

fn key_values(flag: &str, text: &str) -> Result<Vec<(String, String)>, Error> {
    text.split_whitespace()
        .map(|w| {
            w.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or_else(|| Error::Usage(format!("{flag}: '{w}' must look like key=value")))
        })
        .collect()
}

fn number<T: std::str::FromStr>(flag: &str, k: &str, v: &str) -> Result<T, Error> {
    v.parse().map_err(|_| Error::Usage(format!("{flag}: {k}='{v}' is not a number")))
}

pub fn parse_sprt(text: &str) -> Result<Sprt, Error> {
    let (mut e0, mut e1, mut a, mut b, mut model) = (0.0, 5.0, 0.05, 0.05, EloModel::Normalized);
    for (k, v) in key_values("--sprt", text)? {
        match k.as_str() {
            "elo0" => e0 = number("--sprt", &k, &v)?,
            "elo1" => e1 = number("--sprt", &k, &v)?,
            "alpha" => a = number("--sprt", &k, &v)?,
            "beta" => b = number("--sprt", &k, &v)?,
            "model" => {
                model = match v.as_str() {
                    "normalized" => EloModel::Normalized,
                    "logistic" => EloModel::Logistic,
                    _ => return Err(Error::Usage(format!("--sprt: model '{v}' must be normalized or logistic"))),
                }
            }
            _ => return Err(Error::Usage(format!("--sprt: unknown key '{k}'"))),
        }
    }
    Sprt::new(e0, e1, a, b, model).map_err(|e| Error::Usage(format!("--sprt: {e}")))
}

fn parse_tc(tc: &str) -> Result<(Duration, Duration), Error> {
    let (base, inc) = tc.split_once('+').unwrap_or((tc, "0"));
    let secs = |s: &str| -> Result<Duration, Error> {
        let v: f64 = s.parse().map_err(|_| Error::Usage(format!("--tc '{tc}': '{s}' is not a number of seconds")))?;
        if !(0.0..1e6).contains(&v) {
            return Err(Error::Usage(format!("--tc '{tc}': out of range")));
        }
        Ok(Duration::from_secs_f64(v))
    };
    Ok((secs(base)?, secs(inc)?))
}

impl TournamentArgs {
    pub fn settings(&self, two_only: bool) -> Result<Settings, Error> {
        let variant = self.game.load()?;
        let mut engines =
            self.engines.iter().map(|e| EngineSpec::parse(e).map_err(Error::Engine)).collect::<Result<Vec<_>, _>>()?;
        let default_pair = engines.is_empty();
        if default_pair {
            engines = vec![
                EngineSpec::parse("name=A").map_err(Error::Engine)?,
                EngineSpec::parse("name=B").map_err(Error::Engine)?,
            ];
        }
        if two_only && engines.len() != 2 {
            return Err(Error::Usage(format!(
                "match needs exactly two --engine (got {}); use tournament",
                engines.len()
            )));
        }
        let mut names = std::collections::HashSet::new();
        for e in &engines {
            if !names.insert(e.name.clone()) {
                return Err(Error::Usage(format!("two engines are named '{}'", e.name)));
            }
        }
        let mut limits = Limits::default();
        let clock = self.tc.as_deref().map(parse_tc).transpose()?;
        if self.nodes == Some(0) || self.depth == Some(0) {
            return Err(Error::Usage("--nodes and --depth must be at least 1".into()));
        }
        // Both would stop each search at whichever comes first, which no one asking for
        // one of them expects.
        if self.nodes.is_some() && self.depth.is_some() {
            return Err(Error::Usage("--nodes and --depth are both search limits: give one of them".into()));
        }
        match (self.nodes, self.depth, &clock) {
            (None, None, None) => limits.nodes = Some(20_000),
            (n, d, _) => {
                limits.nodes = n;
                limits.depth = d;
            }
        }
        if let (true, Some(n), None) = (default_pair, limits.nodes, limits.depth) {
            engines[1] = EngineSpec::parse(&format!("name=B nodes={}", tournament::engines::twin_nodes(n)))
                .map_err(Error::Engine)?;
        }
        let fens = if self.openings == "start" { vec![] } else { openings::read_file(variant, &self.openings)? };
        let imbalance = match &self.imbalance {
            None => None,
            Some(t) => {
                let (w, b) = t
                    .split_once('=')
                    .ok_or_else(|| Error::Usage(format!("--imbalance '{t}' must look like W=B (e.g. R=F)")))?;
                Some((w.trim().to_string(), b.trim().to_string()))
            }
        };
        let mut adjudication = Adjudication::default();
        if let Some(d) = &self.draw {
            adjudication.draw_start = 40;
            adjudication.draw_moves = 8;
            adjudication.draw_score = 10;
            for (k, v) in key_values("--draw", d)? {
                match k.as_str() {
                    "movenumber" => adjudication.draw_start = number("--draw", &k, &v)?,
                    "movecount" => adjudication.draw_moves = number("--draw", &k, &v)?,
                    "score" => adjudication.draw_score = number("--draw", &k, &v)?,
                    _ => return Err(Error::Usage(format!("--draw: unknown key '{k}'"))),
                }
            }
        }
        if let Some(r) = &self.resign {
            adjudication.resign_moves = 3;
            adjudication.resign_score = 1000;
            for (k, v) in key_values("--resign", r)? {
                match k.as_str() {
                    "movecount" => adjudication.resign_moves = number("--resign", &k, &v)?,
                    "score" => adjudication.resign_score = number("--resign", &k, &v)?,
                    _ => return Err(Error::Usage(format!("--resign: unknown key '{k}'"))),
                }
            }
        }
        let shard = self.run.shard()?;
        let rounds = self.games.map(|g| g.div_ceil(2)).unwrap_or(self.rounds);
        if rounds == 0 {
            return Err(Error::Usage("--rounds/--games must be positive".into()));
        }
        let concurrency = self.run.workers.threads()?;
        Ok(Settings {
            variant,
            engines,
            mode: if self.format == "gauntlet" { Mode::Gauntlet } else { Mode::RoundRobin },
            rounds,
            concurrency,
            openings: openings::OpeningConfig {
                fens,
                random_plies: self.random_plies,
                imbalance,
                max_drift: 150,
                margin: self.opening_margin.map(|m| m.min(100_000) as i32),
                seed: self.seed,
            },
            limits,
            clock,
            adjudication,
            sprt: self.sprt.as_deref().map(parse_sprt).transpose()?,
            out: self.out.clone(),
            pgn: self.pgnout.clone(),
            shard,
            progress: super::progress::progress(self.run.workers.quiet),
        })
    }
}

pub fn print_summary(s: &Summary) {
    for e in &s.encounters {
        for line in super::stats::describe(e) {
            println!("{line}");
        }
    }
    if let Some(r) = &s.sprt {
        print!("SPRT: LLR {:.2} ({:.2}, {:.2}) {:?}", r.llr, r.lower_bound, r.upper_bound, r.status);
        let pairs: u64 = s.encounters.first().map_or(0, |e| e.penta.pairs());
        if pairs > s.sprt_pairs {
            // Pairs that finished after a gap in the schedule (or after the decision) are
            // in the figures above but not in the test.
            print!(" on the first {} pairs in schedule order ({} finished)", s.sprt_pairs, pairs);
        }
        println!();
    }
    let t: Vec<String> = s.terminations.iter().map(|(k, v)| format!("{k} {v}")).collect();
    if !t.is_empty() {
        println!("terminations: {}", t.join(", "));
    }
}

pub fn run(a: &TournamentArgs, two_only: bool) -> Result<(), Error> {
    let settings = a.settings(two_only)?;
    if !a.run.workers.quiet {
        eprintln!("seed {} (openings and random plies derive from it)", a.seed);
    }
    let summary = tournament::run(&settings)?;
    print_summary(&summary);
    Ok(())
}
