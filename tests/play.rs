//! `fairylab play` for real: the server started as a user starts it, a whole game of
//! Flying Bombers Grand Chess played through its HTTP routes (the person's side choosing
//! seeded random legal moves, seed printed), and the page in headless Chromium mid-game
//! (skipped, with a message, where no Chromium is installed). With `FAIRYLAB_PLAY_OUT=DIR`
//! the mid-game screenshot and the game's PGN are kept there (docs/play holds one such).

use fairylab::games::pgn;
use fairylab::rng::Rng;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The server process, stopped however the test ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start(nodes: u64) -> (Server, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fairylab"))
        .args(["play", "--variant", "flying-bombers-grand", "--port", "0", "--nodes", &nodes.to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.trim().trim_start_matches("http://").trim_end_matches('/').to_string();
    assert!(addr.starts_with("127.0.0.1:"), "the server prints its address: {line:?}");
    (Server(child), addr)
}

/// One HTTP request; (status, body).
fn request(addr: &str, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    (head.split_whitespace().nth(1).unwrap().parse().unwrap(), body.to_string())
}

fn state(addr: &str) -> Value {
    serde_json::from_str(&request(addr, "GET", "/state", "").1).unwrap()
}

fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| ["chromium", "chromium-browser", "google-chrome"].map(|n| d.join(n)))
        .find(|p| p.is_file())
}

fn chrome(browser: &Path, profile: &Path, args: &[String]) -> String {
    let mut child = Command::new(browser)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"])
        .args(["--disable-component-update", "--disable-sync", "--hide-scrollbars", "--window-size=1100,680"])
        .args(["--virtual-time-budget=5000".to_string(), format!("--user-data-dir={}", profile.display())])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = stdout.read_to_end(&mut out);
        out
    });
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("chromium did not finish in 120 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = std::fs::remove_dir_all(profile);
    String::from_utf8_lossy(&reader.join().unwrap()).into_owned()
}

/// The page mid-game with one of the person's bombers picked up: the board drawn is the
/// server's position, the bomber's moves are marked; a screenshot is kept.
fn look_mid_game(addr: &str, s: &Value, out: &Path) {
    let Some(browser) = chromium() else {
        eprintln!("skipped the browser check: no chromium on the PATH (apt-get install chromium)");
        return;
    };
    let pieces: Vec<&str> = s["frame"]["p"].as_str().unwrap().split(' ').collect();
    let legal = s["legal"].as_array().unwrap();
    let from = |o: &Value| o["f"].as_str().unwrap().to_string();
    // A bomber of the person's (White) with moves, one that captures away from its landing if any.
    let bomber = |o: &&Value| pieces.contains(&format!("F{}", from(o)).as_str());
    let pick = legal.iter().filter(bomber).max_by_key(|o| o["n"].is_string()).or(legal.first()).map(from).unwrap();
    let targets = legal.iter().filter(|o| from(o) == pick).count();
    let url = format!("http://{addr}/?select={pick}");
    let dom = chrome(&browser, &out.join("profile-dom"), &["--dump-dom".into(), url.clone()]);
    let ply: usize = dom.split("data-ply=\"").nth(1).and_then(|v| v.split('"').next()).unwrap().parse().unwrap();
    assert_eq!(ply, s["moves"].as_array().unwrap().len(), "the page shows the server's game");
    let layer = dom.split("data-layer=\"pieces\">").nth(1).unwrap().split("</g>").next().unwrap();
    assert_eq!(layer.matches("<use").count(), pieces.len(), "every piece of the position is drawn");
    // Drawn marks (the script's own text names the attribute once more).
    assert_eq!(
        dom.matches("data-mark=\"target\"></circle>").count(),
        targets,
        "the moves of the piece on {pick} are marked"
    );
    let png = out.join("mid-game.png");
    chrome(&browser, &out.join("profile-shot"), &[format!("--screenshot={}", png.display()), url]);
    let bytes = std::fs::read(&png).unwrap();
    assert!(bytes.starts_with(b"\x89PNG") && bytes.len() > 20_000, "a screenshot of the board ({} bytes)", bytes.len());
    eprintln!("mid-game screenshot: {} (a bomber on {pick} picked up)", png.display());
}

#[test]
fn a_whole_game_of_flying_bombers_grand_chess_through_the_play_server() {
    let out = std::env::var_os("FAIRYLAB_PLAY_OUT")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join(format!("fairylab-play-{}", std::process::id())));
    std::fs::create_dir_all(&out).unwrap();
    let (_server, addr) = start(300);
    let seed = 7;
    eprintln!("the person's moves: seeded random legal moves, seed {seed}");
    let mut rng = Rng::new(seed);
    // Refused requests say why and change nothing.
    let (status, body) = request(&addr, "POST", "/move", "e2e9");
    assert_eq!(status, 400);
    assert!(body.contains("not a legal move"), "{body}");
    assert_eq!(state(&addr)["moves"].as_array().unwrap().len(), 0);
    let mut s = state(&addr);
    let mut looked = false;
    while s["result"].is_null() {
        let legal = s["legal"].as_array().unwrap();
        assert!(!legal.is_empty(), "the person is to move in a game going on");
        if !looked && s["moves"].as_array().unwrap().len() >= 20 {
            look_mid_game(&addr, &s, &out);
            looked = true;
        }
        let mv = legal[rng.below(legal.len())]["m"].as_str().unwrap().to_string();
        let (status, body) = request(&addr, "POST", "/move", &mv);
        assert_eq!(status, 200, "{mv}: {body}");
        let next: Value = serde_json::from_str(&body).unwrap();
        let (before, after) = (s["moves"].as_array().unwrap().len(), next["moves"].as_array().unwrap().len());
        assert_eq!(next["moves"][before].as_str(), Some(mv.as_str()));
        // The engine answers unless the person's move ended the game, with its score.
        if next["result"].is_null() {
            assert_eq!(after, before + 2);
            assert!(next["scores"][before + 1].is_i64(), "the engine's score is kept");
        }
        s = next;
    }
    assert!(looked, "the game lasted 20 plies");
    // The PGN replays under the rules to the same moves and result.
    let (status, text) = request(&addr, "GET", "/game.pgn", "");
    assert_eq!(status, 200);
    let games = pgn::read(&text, &[]).unwrap();
    let moves: Vec<String> = s["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
    assert_eq!(games[0].moves, moves);
    assert_eq!(games[0].outcome.map(|o| o.pgn()), s["result"].as_str());
    std::fs::write(out.join("game.pgn"), &text).unwrap();
    eprintln!("{} plies, {} ({}); PGN: {}", moves.len(), s["result"], s["termination"], out.join("game.pgn").display());
    // After the end no move is taken; a new game starts from the start position.
    assert_eq!(request(&addr, "POST", "/move", &moves[0]).0, 400);
    let (status, body) = request(&addr, "POST", "/new?side=black", "");
    let fresh: Value = serde_json::from_str(&body).unwrap();
    assert_eq!((status, fresh["human"].as_str(), fresh["moves"].as_array().unwrap().len()), (200, Some("black"), 1));
}
