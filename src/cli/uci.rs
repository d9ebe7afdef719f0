//! `fairylab uci`: the UCI protocol over stdin/stdout, with the extended FEN and move
//! notation of the rules. Malformed commands get an `info string` and are ignored.

use crate::engine::{Engine, InfoLine};
use crate::search::{Limits, Score};
use crate::variant::registry;
use crate::{Error, Variant};
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

fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

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

struct State {
    engine: Option<Engine>,
    running: Option<JoinHandle<Engine>>,
    hash: usize,
    options: Vec<String>,
    stop_flag: Option<Arc<AtomicBool>>,
}

impl State {
    /// The engine, waiting for a running search to finish first.
    fn engine(&mut self) -> &mut Engine {
        if let Some(h) = self.running.take() {
            match h.join() {
                Ok(e) => self.engine = Some(e),
                Err(_) => say("info string error: search thread failed"),
            }
        }
        self.engine.as_mut().expect("engine present when no search runs")
    }

    /// Stops a running search; the engine itself lives in the search thread meanwhile.
    fn stop(&mut self) {
        if let Some(flag) = &self.stop_flag {
            flag.store(true, Ordering::Relaxed);
        }
    }
}

fn parse_go(words: &[&str], white: bool) -> Result<Limits, String> {
    let mut l = Limits::default();
    let mut i = 0;
    let num = |i: usize| -> Result<u64, String> {
        words
            .get(i)
            .ok_or_else(|| format!("go: '{}' needs a number", words[i - 1]))?
            .parse::<u64>()
            .map_err(|_| format!("go: '{}' is not a number", words[i]))
    };
    while i < words.len() {
        match words[i] {
            "depth" => l.depth = Some(num(i + 1)? as u32),
            "nodes" => l.nodes = Some(num(i + 1)?),
            "movetime" => l.movetime = Some(Duration::from_millis(num(i + 1)?)),
            "wtime" | "btime" => {
                let v = Duration::from_millis(num(i + 1)?);
                if (words[i] == "wtime") == white {
                    l.time = Some(v);
                }
            }
            "winc" | "binc" => {
                let v = Duration::from_millis(num(i + 1)?);
                if (words[i] == "winc") == white {
                    l.inc = v;
                }
            }
            "movestogo" => l.movestogo = Some(num(i + 1)? as u32),
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

fn handle(state: &mut State, line: &str) -> Result<bool, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(&cmd) = words.first() else { return Ok(true) };
    match cmd {
        "uci" => {
            let e = state.engine();
            say(&format!("id name fairylab {}", env!("CARGO_PKG_VERSION")));
            say("id author the fairylab developers");
            let vars: Vec<String> = registry::names().iter().map(|v| format!("var {v}")).collect();
            say(&format!("option name UCI_Variant type combo default {} {}", e.variant().name(), vars.join(" ")));
            say("option name Hash type spin default 16 min 1 max 65536");
            let ev = e.evaluator();
            for (name, w) in ev.layout.names.iter().zip(&ev.weights) {
                say(&format!("option name {name} type spin default {} min -100000 max 100000", w.round() as i64));
            }
            say("uciok");
        }
        "isready" => say("readyok"),
        "ucinewgame" => state.engine().new_game(),
        "setoption" => {
            let name_at = words.iter().position(|&w| w == "name").ok_or("setoption: missing 'name'")?;
            let value_at = words.iter().position(|&w| w == "value");
            let name = words[name_at + 1..value_at.unwrap_or(words.len())].join(" ");
            let value = value_at.map(|v| words[v + 1..].join(" ")).unwrap_or_default();
            match name.as_str() {
                "UCI_Variant" => {
                    let opts: Vec<&str> = state.options.iter().map(|s| s.as_str()).collect();
                    let v =
                        Variant::load(&value, &opts).or_else(|_| Variant::load(&value, &[])).map_err(String::from)?;
                    let hash = state.hash;
                    state.engine();
                    let mut e = Engine::default_for(v).map_err(|e| e.0)?;
                    e.set_hash(hash);
                    state.engine = Some(e);
                }
                "Hash" => {
                    let mb: usize = value.parse().map_err(|_| format!("setoption Hash: '{value}' is not a number"))?;
                    state.hash = mb.clamp(1, 65536);
                    let h = state.hash;
                    state.engine().set_hash(h);
                }
                _ => {
                    let v: f32 = value.parse().map_err(|_| format!("setoption {name}: '{value}' is not a number"))?;
                    state.engine().set_weight(&name, v).map_err(|e| e.0)?;
                }
            }
        }
        "position" => {
            let moves_at = words.iter().position(|&w| w == "moves");
            let moves: Vec<String> =
                moves_at.map(|i| words[i + 1..].iter().map(|s| s.to_string()).collect()).unwrap_or_default();
            let head = &words[1..moves_at.unwrap_or(words.len())];
            let fen = match head.first() {
                Some(&"startpos") => None,
                Some(&"fen") => Some(head[1..].join(" ")),
                _ => return Err("position: expected 'startpos' or 'fen <FEN>'".into()),
            };
            state.engine().set_position(fen.as_deref(), &moves).map_err(|e| e.0)?;
        }
        "go" => {
            let e = state.engine();
            let white = e.board().side_to_move() == 'w';
            let limits = parse_go(&words[1..], white)?;
            let mut engine = state.engine.take().unwrap();
            state.stop_flag = Some(engine.stop_flag());
            state.running = Some(std::thread::spawn(move || {
                let d = engine.go(&limits, &mut |i| say(&info_text(i)));
                say(&format!("bestmove {}", d.best.unwrap_or_else(|| "0000".into())));
                engine
            }));
        }
        "stop" => state.stop(),
        "quit" => {
            state.stop();
            state.engine();
            return Ok(false);
        }
        "d" => {
            let b = state.engine().board();
            say(&format!("info string fen {}", b.fen()));
        }
        other => return Err(format!("unknown command '{other}'")),
    }
    Ok(true)
}

pub fn run(a: &UciArgs) -> Result<(), Error> {
    let opts: Vec<&str> = a.options.iter().map(|s| s.as_str()).collect();
    let v = Variant::load(&a.variant, &opts)?;
    let mut state = State {
        engine: Some(Engine::default_for(v)?),
        running: None,
        hash: 16,
        options: a.options.clone(),
        stop_flag: None,
    };
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        match handle(&mut state, line.trim()) {
            Ok(true) => {}
            Ok(false) => return Ok(()),
            Err(e) => say(&format!("info string error: {e}")),
        }
    }
    state.stop();
    state.engine();
    Ok(())
}
