//! External UCI engines as players (subprocesses, arbitrated by fairylab).
//!
//! The engine's stdout is read on its own thread and handed over line by line through a
//! channel, so every wait has a deadline. Any failure (crash, closed pipe, deadline passed)
//! kills the process; the next `new_game` or `choose` starts a fresh one, so a tournament
//! goes on. Nothing the engine prints can make this module panic.

use super::player::{Choice, Player, PlayerError};
use crate::search::Limits;
use crate::{Board, Color};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Deadline for `uci` -> `uciok` and `isready` -> `readyok`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// Deadline for a search bounded only by depth or nodes (or not at all).
pub const UNTIMED_SEARCH_TIMEOUT: Duration = Duration::from_secs(60);
/// Value of a mate score before subtracting the plies to mate.
pub const MATE_CP: i32 = 30000;
/// Longer lines are cut (the rest of the line is skipped) so a broken engine cannot
/// exhaust memory.
pub const MAX_LINE: usize = 64 * 1024;
/// How long `quit` gets before the process is killed.
const QUIT_GRACE: Duration = Duration::from_millis(200);

/// How to run an external engine and how it should search.
#[derive(Clone, Debug)]
pub struct UciSpec {
    /// Player name; when empty, the engine's `id name` is used.
    pub name: String,
    pub cmd: String,
    pub args: Vec<String>,
    /// `setoption name <0> value <1>` after the handshake (an empty value sends just the name).
    pub options: Vec<(String, String)>,
    /// `depth`, `nodes`, `movetime`, `movestogo` are passed on. Without `clock`, a set
    /// `time`/`inc` is sent as a fixed `wtime/btime/winc/binc` on every move.
    pub limits: Limits,
    /// Per-game clock (base time, increment per move), kept by the player itself.
    pub clock: Option<(Duration, Duration)>,
    /// Extra time beyond the allotted time before a search counts as timed out.
    pub timeout_margin: Duration,
}

impl UciSpec {
    /// A spec with no options, no limits, no clock and a 1 s timeout margin.
    pub fn new(name: &str, cmd: &str, args: &[&str]) -> UciSpec {
        UciSpec {
            name: name.to_string(),
            cmd: cmd.to_string(),
            args: args.iter().map(|s| s.to_string()).collect(),
            options: Vec::new(),
            limits: Limits::default(),
            clock: None,
            timeout_margin: Duration::from_secs(1),
        }
    }
}

/// A running engine process.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Process {
    fn spawn(spec: &UciSpec) -> Result<Process, String> {
        let mut child = Command::new(&spec.cmd)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", spec.cmd))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("'{}': no pipes to the process", spec.cmd));
        };
        let (tx, lines) = mpsc::channel();
        let spawned = std::thread::Builder::new().name("uci-reader".into()).spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(line) = read_line(&mut reader) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        if let Err(e) = spawned {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("cannot start the reader thread: {e}"));
        }
        Ok(Process { child, stdin, lines })
    }

    fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        let mut text = String::with_capacity(line.len() + 1);
        text.push_str(line);
        text.push('\n');
        self.stdin
            .write_all(text.as_bytes())
            .and_then(|_| self.stdin.flush())
            .map_err(|e| PlayerError::Failure(format!("cannot write to the engine: {e}")))
    }

    /// The next line, or Timeout at `deadline`, or Failure when the engine closed stdout.
    fn next_line(&self, deadline: Instant, waiting_for: &str) -> Result<String, PlayerError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(PlayerError::Timeout(format!("no '{waiting_for}' in time"))),
            Err(RecvTimeoutError::Disconnected) => {
                Err(PlayerError::Failure(format!("engine closed its output while waiting for '{waiting_for}'")))
            }
        }
    }

    /// Skips lines until one whose first word is `word`; returns that line.
    fn wait_for(&self, word: &str, timeout: Duration) -> Result<String, PlayerError> {
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.next_line(deadline, word)?;
            if line.split_whitespace().next() == Some(word) {
                return Ok(line);
            }
        }
    }

    /// Drops output left over from earlier commands.
    fn drain(&self) {
        while self.lines.try_recv().is_ok() {}
    }

    /// `quit`, a short grace period, then kill; always reaps the process.
    fn shut_down(mut self, polite: bool) {
        if polite && self.send("quit").is_ok() {
            let until = Instant::now() + QUIT_GRACE;
            while Instant::now() < until {
                match self.child.try_wait() {
                    Ok(Some(_)) => return,
                    Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                    Err(_) => break,
                }
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One line of output without its line ending, decoded lossily and cut at `MAX_LINE`
/// bytes; None at end of output or on a read error.
pub fn read_line<R: Read>(reader: &mut BufReader<R>) -> Option<String> {
    let mut bytes = Vec::new();
    let mut got_any = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if buf.is_empty() {
            // End of output: a last unterminated line still counts.
            return got_any.then(|| finish_line(bytes));
        }
        got_any = true;
        let (chunk, found) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        let room = MAX_LINE.saturating_sub(bytes.len());
        bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = found.unwrap_or(buf.len());
        reader.consume(used);
        if found.is_some() {
            return Some(finish_line(bytes));
        }
    }
}

fn finish_line(mut bytes: Vec<u8>) -> String {
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The last search report seen: score (centipawns, mates mapped to ±(MATE_CP - plies)),
/// depth and nodes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    pub score_cp: Option<i32>,
    pub depth: u32,
    pub nodes: u64,
}

/// Centipawn-like value of `mate M` (M moves; negative = being mated).
pub fn mate_to_cp(moves: i64) -> i32 {
    let plies = if moves > 0 { moves.saturating_mul(2) - 1 } else { moves.saturating_mul(-2) };
    let v = (MATE_CP as i64 - plies.min(MATE_CP as i64)) as i32;
    if moves > 0 {
        v
    } else {
        -v
    }
}

/// Folds one `info` line into `info` (other lines and `info string` are ignored; fields
/// that are missing or not numbers leave the old value).
pub fn parse_info(line: &str, info: &mut SearchInfo) {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") {
        return;
    }
    let num = |i: usize| words.get(i).and_then(|w| w.parse::<i64>().ok());
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            // The rest of the line is free text.
            "string" => return,
            "depth" => {
                if let Some(d) = num(i + 1) {
                    info.depth = d.clamp(0, u32::MAX as i64) as u32;
                    i += 1;
                }
            }
            "nodes" => {
                if let Some(n) = num(i + 1) {
                    info.nodes = n.max(0) as u64;
                    i += 1;
                }
            }
            "score" => match (words.get(i + 1).copied(), num(i + 2)) {
                (Some("cp"), Some(cp)) => {
                    info.score_cp = Some(cp.clamp(-(MATE_CP as i64), MATE_CP as i64) as i32);
                    i += 2;
                }
                (Some("mate"), Some(m)) => {
                    info.score_cp = Some(mate_to_cp(m));
                    i += 2;
                }
                _ => {}
            },
            _ => {}
        }
        i += 1;
    }
}

/// One line of an engine's answer to `go`: the move once the `bestmove` line comes
/// (a `bestmove` line without a move is a failure), until then `None`, with `info` lines
/// folded into `info`. Whether the move is legal is for the arbiter to decide.
pub fn reply_line(line: &str, info: &mut SearchInfo) -> Result<Option<String>, PlayerError> {
    if line.split_whitespace().next() == Some("bestmove") {
        return match parse_bestmove(line) {
            Some(mv) => Ok(Some(mv)),
            None => Err(PlayerError::Failure("'bestmove' without a move".into())),
        };
    }
    parse_info(line, info);
    Ok(None)
}

/// The move of a `bestmove` line, if it has one.
fn parse_bestmove(line: &str) -> Option<String> {
    let mut words = line.split_whitespace();
    match words.next() {
        Some("bestmove") => words.next().map(str::to_string),
        _ => None,
    }
}

fn millis(d: Duration) -> u128 {
    d.as_millis()
}

/// A UCI engine in a subprocess, playing through the `Player` trait.
pub struct UciPlayer {
    spec: UciSpec,
    name: String,
    process: Option<Process>,
    /// Time left on this player's clock in the current game (clock play only).
    clock_left: Duration,
    starts: u32,
}

impl UciPlayer {
    /// Starts the engine and completes the handshake (`uci`, options, `isready`).
    pub fn new(spec: UciSpec) -> Result<UciPlayer, String> {
        let mut p = UciPlayer {
            name: spec.name.clone(),
            clock_left: spec.clock.map(|c| c.0).unwrap_or_default(),
            spec,
            process: None,
            starts: 0,
        };
        p.start().map_err(|e| error_text(&e))?;
        Ok(p)
    }

    pub fn spec(&self) -> &UciSpec {
        &self.spec
    }

    /// How many times the engine process was started (1 + restarts).
    pub fn starts(&self) -> u32 {
        self.starts
    }

    /// The OS id of the running engine process, if one runs.
    pub fn pid(&self) -> Option<u32> {
        self.process.as_ref().map(|p| p.child.id())
    }

    /// Time left on the player's own clock in this game (zero without clock play).
    pub fn clock_left(&self) -> Duration {
        self.clock_left
    }

    fn start(&mut self) -> Result<(), PlayerError> {
        self.stop_process(false);
        self.starts += 1;
        let mut proc = Process::spawn(&self.spec).map_err(PlayerError::Failure)?;
        let result = (|| {
            proc.send("uci")?;
            let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
            loop {
                let line = proc.next_line(deadline, "uciok")?;
                let mut words = line.split_whitespace();
                match (words.next(), words.next()) {
                    (Some("uciok"), _) => break,
                    (Some("id"), Some("name")) if self.spec.name.is_empty() => {
                        self.name = words.collect::<Vec<_>>().join(" ");
                    }
                    _ => {}
                }
            }
            for (name, value) in &self.spec.options {
                if value.is_empty() {
                    proc.send(&format!("setoption name {name}"))?;
                } else {
                    proc.send(&format!("setoption name {name} value {value}"))?;
                }
            }
            proc.send("isready")?;
            proc.wait_for("readyok", HANDSHAKE_TIMEOUT).map(|_| ())
        })();
        match result {
            Ok(()) => {
                self.process = Some(proc);
                Ok(())
            }
            Err(e) => {
                proc.shut_down(false);
                Err(e)
            }
        }
    }

    fn stop_process(&mut self, polite: bool) {
        if let Some(p) = self.process.take() {
            p.shut_down(polite);
        }
    }

    /// Kills the engine after an error so the next call starts a fresh one.
    fn fail<T>(&mut self, e: PlayerError) -> Result<T, PlayerError> {
        self.stop_process(false);
        Err(e)
    }

    fn ucinewgame(&mut self) -> Result<(), PlayerError> {
        let Some(p) = self.process.as_mut() else {
            return Err(PlayerError::Failure("engine not running".into()));
        };
        p.drain();
        p.send("ucinewgame")?;
        p.send("isready")?;
        p.wait_for("readyok", HANDSHAKE_TIMEOUT).map(|_| ())
    }

    /// The `go` command and the deadline for its `bestmove`.
    fn go_command(&self, white: bool) -> (String, Duration) {
        let l = &self.spec.limits;
        let mut go = String::from("go");
        let mut allotted: Option<Duration> = None;
        if let Some(d) = l.depth {
            go.push_str(&format!(" depth {d}"));
        }
        if let Some(n) = l.nodes {
            go.push_str(&format!(" nodes {n}"));
        }
        if let Some(t) = l.movetime {
            go.push_str(&format!(" movetime {}", millis(t)));
            allotted = Some(t);
        }
        let clock = match self.spec.clock {
            Some((base, inc)) => Some((self.clock_left, base, inc)),
            None => l.time.map(|t| (t, t, l.inc)),
        };
        if let Some((own, other, inc)) = clock {
            let (wtime, btime) = if white { (own, other) } else { (other, own) };
            go.push_str(&format!(
                " wtime {} btime {} winc {} binc {}",
                millis(wtime),
                millis(btime),
                millis(inc),
                millis(inc)
            ));
            if let Some(m) = l.movestogo {
                go.push_str(&format!(" movestogo {m}"));
            }
            allotted = Some(allotted.map_or(own, |a| a.min(own)));
        }
        let timeout = match allotted {
            Some(t) => t + self.spec.timeout_margin,
            None => UNTIMED_SEARCH_TIMEOUT,
        };
        (go, timeout)
    }

    fn search(&mut self, start: &Board, moves: &[String], white: bool) -> Result<Choice, PlayerError> {
        let (go, timeout) = self.go_command(white);
        let Some(p) = self.process.as_mut() else {
            return Err(PlayerError::Failure("engine not running".into()));
        };
        p.drain();
        let mut position = format!("position fen {}", start.fen());
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        p.send(&position)?;
        p.send(&go)?;
        let started = Instant::now();
        let deadline = started + timeout;
        let mut info = SearchInfo::default();
        let mv = loop {
            let line = p.next_line(deadline, "bestmove")?;
            if let Some(mv) = reply_line(&line, &mut info)? {
                break mv;
            }
        };
        if let Some((_, inc)) = self.spec.clock {
            self.clock_left = self.clock_left.saturating_sub(started.elapsed()) + inc;
        }
        Ok(Choice { mv, score_cp: info.score_cp, depth: info.depth, nodes: info.nodes })
    }
}

fn error_text(e: &PlayerError) -> String {
    match e {
        PlayerError::Failure(s) => s.clone(),
        PlayerError::Timeout(s) => format!("timeout: {s}"),
    }
}

impl Player for UciPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    /// `ucinewgame` + `isready`; a dead or unresponsive engine is restarted first.
    fn new_game(&mut self) -> Result<(), PlayerError> {
        self.clock_left = self.spec.clock.map(|c| c.0).unwrap_or_default();
        if self.process.is_some() && self.ucinewgame().is_ok() {
            return Ok(());
        }
        if let Err(e) = self.start() {
            return self.fail(e);
        }
        match self.ucinewgame() {
            Ok(()) => Ok(()),
            Err(e) => self.fail(e),
        }
    }

    fn choose(&mut self, start: &Board, moves: &[String], board: &Board, _: &[u64]) -> Result<Choice, PlayerError> {
        if self.process.is_none() {
            if let Err(e) = self.start() {
                return self.fail(e);
            }
        }
        let white = board.side_to_move() == Color::White;
        match self.search(start, moves, white) {
            Ok(c) => Ok(c),
            Err(e) => self.fail(e),
        }
    }
}

impl Drop for UciPlayer {
    fn drop(&mut self) {
        self.stop_process(true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines() {
        let mut i = SearchInfo::default();
        parse_info("info depth 5 seldepth 9 score cp -37 nodes 1200 pv e2e4", &mut i);
        assert_eq!(i, SearchInfo { score_cp: Some(-37), depth: 5, nodes: 1200 });
        parse_info("info depth x score cp abc nodes -5 score", &mut i);
        assert_eq!(i, SearchInfo { score_cp: Some(-37), depth: 5, nodes: 0 });
        parse_info("info string depth 99 score cp 1", &mut i);
        assert_eq!(i.depth, 5);
        parse_info("info score mate 3 lowerbound depth 7", &mut i);
        assert_eq!(i, SearchInfo { score_cp: Some(29995), depth: 7, nodes: 0 });
        parse_info("info score mate -2", &mut i);
        assert_eq!(i.score_cp, Some(-29996));
        parse_info("info score mate 99999999999999999999", &mut i);
        assert_eq!(i.score_cp, Some(-29996));
        parse_info("info score mate -9223372036854775808", &mut i);
        assert_eq!(i.score_cp, Some(0));
        parse_info("bestmove e2e4 depth 3", &mut i);
        assert_eq!(i.depth, 7);
    }

    #[test]
    fn bestmove_lines() {
        assert_eq!(parse_bestmove("bestmove e2e4 ponder e7e5").as_deref(), Some("e2e4"));
        assert_eq!(parse_bestmove("bestmove"), None);
        assert_eq!(parse_bestmove("info bestmove e2e4"), None);
    }

    #[test]
    fn long_and_binary_lines() {
        let mut data = vec![b'x'; MAX_LINE + 10];
        data.extend_from_slice(b"\r\n\xff\xfe ok\nlast");
        let mut r = BufReader::with_capacity(16, &data[..]);
        assert_eq!(read_line(&mut r).map(|s| s.len()), Some(MAX_LINE));
        assert!(read_line(&mut r).is_some_and(|s| s.ends_with(" ok")));
        assert_eq!(read_line(&mut r).as_deref(), Some("last"));
        assert_eq!(read_line(&mut r), None);
    }
}
