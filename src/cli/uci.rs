//! `fairylab uci`: the UCI protocol over stdin/stdout, with the extended FEN and move
//! notation of the rules. Malformed commands get an `info string` and are ignored.

use crate::engine::{Engine, InfoLine};
use crate::eval::EngineConfig;
use crate::search::{Limits, Score};
use crate::variant::registry;
use crate::{Color, Error, Variant};
use clap::Args;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

#[derive(Args)]
pub struct UciArgs {
    /// Variant at start-up (UCI_Variant changes it).
    #[arg(long, default_value = "chess")]
    pub variant: String,
    #[arg(long = "option")]
    pub options: Vec<String>,
    /// Evaluation weight overrides `name=value`, repeatable (`value.F=450`).
    #[arg(long = "set")]
    pub set: Vec<String>,
}

/// Where a session's replies go, one line at a time (a running search writes from its own
/// thread).
pub type Output = Arc<dyn Fn(&str) + Send + Sync>;

/// Replies to stdout, flushed per line.
pub fn stdout_output() -> Output {
    Arc::new(|line: &str| {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    })
}

/// Largest hash table `setoption name Hash` accepts (MB), as `uci` advertises it.
pub const MAX_HASH_MB: usize = 65536;

/// Longest time a `go` parameter may give: a year. Larger values are refused (the clock
/// arithmetic of a search would overflow long before such a deadline).
pub const MAX_GO_MILLIS: u64 = 365 * 24 * 3600 * 1000;

/// Bound of the evaluation weights `uci` advertises as spin options.
const WEIGHT_BOUND: f32 = 100_000.0;

fn score_text(s: Score) -> String {
    match s {
        Score::Cp(c) => format!("cp {c}"),
        Score::Mate(m) => format!("mate {m}"),
    }
}

fn info_text(i: &InfoLine) -> String {
    let nps = i.nodes * 1000 / i.time_ms.max(1);
    format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
        i.depth,
        i.seldepth,
        score_text(i.score),
        i.nodes,
        nps,
        i.time_ms,
        i.pv.join(" ")
    )
}

/// One UCI conversation: `fairylab uci` feeds it the lines of stdin, tests feed it lines
/// in-process. A malformed command is answered by an `Err` naming the problem (the CLI
/// prints it as `info string error: ...`) and changes nothing.
pub struct UciSession {
    variant: Variant,
    engine: Option<Engine>,
    running: Option<JoinHandle<Engine>>,
    stop_flag: Option<Arc<AtomicBool>>,
    hash: usize,
    max_hash: usize,
    options: Vec<String>,
    out: Output,
}

impl UciSession {
    /// A session for `variant` (name or file) with `options`, replying through `out`.
    pub fn new(variant: &str, options: &[String], out: Output) -> Result<UciSession, Error> {
        let opts: Vec<&str> = options.iter().map(|s| s.as_str()).collect();
        let v = Variant::load(variant, &opts)?;
        let hash = 16;
        Ok(UciSession {
            variant: v,
            engine: Some(Self::fresh_engine(v, hash)?),
            running: None,
            stop_flag: None,
            hash,
            max_hash: MAX_HASH_MB,
            options: options.to_vec(),
            out,
        })
    }

    /// Caps `setoption name Hash` at `mb` instead of [`MAX_HASH_MB`] (and the current
    /// table too), so a test can send any value without allocating gigabytes.
    pub fn with_max_hash(mut self, mb: usize) -> UciSession {
        self.max_hash = mb.max(1);
        if self.hash > self.max_hash {
            self.hash = self.max_hash;
            if let Ok(e) = self.engine() {
                e.set_hash(mb.max(1));
            }
        }
        self
    }

    fn fresh_engine(v: Variant, hash: usize) -> Result<Engine, Error> {
        let cfg = EngineConfig::for_variant(v.name()).map_err(Error::Engine)?;
        Engine::new(v, &cfg, &[], hash)
    }

    fn say(&self, line: &str) {
        (self.out)(line)
    }

    /// The engine, after the running search (if any) has finished. A search thread that
    /// died takes its engine with it: a fresh one replaces it.
    fn engine(&mut self) -> Result<&mut Engine, String> {
        if let Some(h) = self.running.take() {
            self.stop_flag = None;
            match h.join() {
                Ok(e) => self.engine = Some(e),
                Err(_) => self.say("info string error: search thread failed"),
            }
        }
        if self.engine.is_none() {
            self.engine = Some(Self::fresh_engine(self.variant, self.hash).map_err(|e| e.to_string())?);
        }
        Ok(self.engine.as_mut().expect("engine set just above"))
    }

    /// Stops a running search and waits for its `bestmove`. The flag is raised until the
    /// search thread ends: a search clears it when it starts, so a `stop` that arrives
    /// before the search has begun would otherwise be lost.
    pub fn stop(&mut self) {
        if let (Some(flag), Some(h)) = (&self.stop_flag, &self.running) {
            while !h.is_finished() {
                flag.store(true, Ordering::Relaxed);
                std::thread::sleep(Duration::from_micros(100));
            }
        }
        let _ = self.engine();
    }

    /// Handles one line; `Ok(false)` after `quit`.
    pub fn handle(&mut self, line: &str) -> Result<bool, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else { return Ok(true) };
        match cmd {
            "uci" => {
                let e = self.engine()?;
                let mut lines = vec![
                    format!("id name fairylab {}", env!("CARGO_PKG_VERSION")),
                    "id author the fairylab developers".to_string(),
                ];
                let vars: Vec<String> = registry::names().iter().map(|v| format!("var {v}")).collect();
                lines.push(format!(
                    "option name UCI_Variant type combo default {} {}",
                    e.variant().name(),
                    vars.join(" ")
                ));
                lines.push(format!("option name Hash type spin default 16 min 1 max {MAX_HASH_MB}"));
                let ev = e.evaluator();
                for (name, w) in ev.layout.names.iter().zip(ev.weights()) {
                    lines.push(format!(
                        "option name {name} type spin default {} min {} max {}",
                        w.round() as i64,
                        -WEIGHT_BOUND as i64,
                        WEIGHT_BOUND as i64
                    ));
                }
                lines.push("uciok".into());
                for l in lines {
                    self.say(&l);
                }
            }
            "isready" => self.say("readyok"),
            "ucinewgame" => self.engine()?.new_game(),
            "setoption" => self.setoption(&words)?,
            "position" => {
                let moves_at = words.iter().position(|&w| w == "moves");
                let moves: Vec<String> =
                    moves_at.map(|i| words[i + 1..].iter().map(|s| s.to_string()).collect()).unwrap_or_default();
                let head = &words[1..moves_at.unwrap_or(words.len())];
                let fen = match head.first() {
                    Some(&"startpos") if head.len() == 1 => None,
                    Some(&"fen") if head.len() > 1 => Some(head[1..].join(" ")),
                    _ => return Err("position: expected 'startpos' or 'fen <FEN>', then optionally 'moves ...'".into()),
                };
                self.engine()?.set_position(fen.as_deref(), &moves).map_err(|e| e.to_string())?;
            }
            "go" => {
                let e = self.engine()?;
                let white = e.board().side_to_move() == Color::White;
                let limits = parse_go(&words[1..], white)?;
                let mut engine = self.engine.take().expect("engine() leaves an engine");
                self.stop_flag = Some(engine.stop_flag());
                let out = self.out.clone();
                self.running = Some(std::thread::spawn(move || {
                    let d = engine.go(&limits, &mut |i| out(&info_text(i)));
                    out(&format!("bestmove {}", d.best.unwrap_or_else(|| "0000".into())));
                    engine
                }));
            }
            "stop" => self.stop(),
            "quit" => {
                self.stop();
                return Ok(false);
            }
            "d" => {
                let fen = self.engine()?.board().fen();
                self.say(&format!("info string fen {fen}"));
            }
            other => return Err(format!("unknown command '{other}'")),
        }
        Ok(true)
    }

    /// `setoption name <name with spaces> [value <value with spaces>]`.
    fn setoption(&mut self, words: &[&str]) -> Result<(), String> {
        if words.get(1) != Some(&"name") {
            return Err("setoption: expected 'setoption name <name> [value <value>]'".into());
        }
        let value_at = words.iter().position(|&w| w == "value");
        let name = words[2..value_at.unwrap_or(words.len())].join(" ");
        let value = value_at.map(|v| words[v + 1..].join(" ")).unwrap_or_default();
        if name.is_empty() {
            return Err("setoption: the option name is missing".into());
        }
        match name.as_str() {
            "UCI_Variant" => {
                let opts: Vec<&str> = self.options.iter().map(|s| s.as_str()).collect();
                let v = Variant::load(&value, &opts).or_else(|_| Variant::load(&value, &[])).map_err(String::from)?;
                self.engine()?;
                self.engine = Some(Self::fresh_engine(v, self.hash).map_err(|e| e.to_string())?);
                self.variant = v;
            }
            "Hash" => {
                let mb: usize = value.parse().map_err(|_| format!("setoption Hash: '{value}' is not a number"))?;
                self.hash = mb.clamp(1, self.max_hash);
                let h = self.hash;
                self.engine()?.set_hash(h);
            }
            _ => {
                let v: f32 = value.parse().map_err(|_| format!("setoption {name}: '{value}' is not a number"))?;
                if !(-WEIGHT_BOUND..=WEIGHT_BOUND).contains(&v) {
                    return Err(format!("setoption {name}: {value} is outside {}..{}", -WEIGHT_BOUND, WEIGHT_BOUND));
                }
                self.engine()?.set_weight(&name, v).map_err(|e| e.to_string())?;
            }
        }
        Ok(())
    }
}

fn parse_go(words: &[&str], white: bool) -> Result<Limits, String> {
    let mut l = Limits::default();
    let mut i = 0;
    let num = |i: usize| -> Result<u64, String> {
        let w = words.get(i).ok_or_else(|| format!("go: '{}' needs a number", words[i - 1]))?;
        w.parse::<u64>().map_err(|_| format!("go: '{}' is not a number", w))
    };
    let millis = |i: usize| -> Result<Duration, String> {
        let ms = num(i)?;
        if ms > MAX_GO_MILLIS {
            return Err(format!("go: {} {ms} ms is more than a year", words[i - 1]));
        }
        Ok(Duration::from_millis(ms))
    };
    while i < words.len() {
        match words[i] {
            "depth" => l.depth = Some(num(i + 1)?.min(u32::MAX as u64) as u32),
            "nodes" => l.nodes = Some(num(i + 1)?),
            "movetime" => l.movetime = Some(millis(i + 1)?),
            "wtime" | "btime" => {
                let v = millis(i + 1)?;
                if (words[i] == "wtime") == white {
                    l.time = Some(v);
                }
            }
            "winc" | "binc" => {
                let v = millis(i + 1)?;
                if (words[i] == "winc") == white {
                    l.inc = v;
                }
            }
            "movestogo" => l.movestogo = Some(num(i + 1)?.min(u32::MAX as u64) as u32),
            "infinite" => {
                l.infinite = true;
                i += 1;
                continue;
            }
            "ponder" | "searchmoves" | "mate" => return Err(format!("go: '{}' is not supported", words[i])),
            other => return Err(format!("go: unknown parameter '{other}'")),
        }
        i += 2;
    }
    Ok(l)
}

pub fn run(a: &UciArgs) -> Result<(), Error> {
    let mut session = UciSession::new(&a.variant, &a.options, stdout_output())?;
    for s in &a.set {
        let (name, value) = s.split_once('=').ok_or_else(|| Error::Usage(format!("--set {s}: expected NAME=VALUE")))?;
        session
            .handle(&format!("setoption name {name} value {value}"))
            .map_err(|e| Error::Usage(format!("--set {s}: {e}")))?;
    }
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        match session.handle(line.trim()) {
            Ok(true) => {}
            Ok(false) => return Ok(()),
            Err(e) => session.say(&format!("info string error: {e}")),
        }
    }
    session.stop();
    Ok(())
}
