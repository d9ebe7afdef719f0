//! External UCI engines as players: the crate's own binary as a real engine, and small
//! /bin/sh fixtures (tests/fixtures/) that crash, hang or print noise.

use fairylab::engine::Engine;
use fairylab::games::uci_player::{UciPlayer, UciSpec};
use fairylab::games::{play_game, Adjudication, EnginePlayer, Outcome, Player, PlayerError, RandomPlayer};
use fairylab::position::outcome::Termination;
use fairylab::rng::Rng;
use fairylab::search::Limits;
use fairylab::Variant;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

const ENGINE: &str = env!("CARGO_BIN_EXE_fairylab");

/// A fixture script, made executable (git may lose the bit).
fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name);
    let mut perms = std::fs::metadata(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).permissions();
    perms.set_mode(0o755);
    std::fs::set_permissions(&path, perms).unwrap();
    path.to_string_lossy().into_owned()
}

/// A fresh path in the temp directory (not created).
fn temp_path(tag: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    std::env::temp_dir().join(format!("fairylab-uci-{tag}-{}-{nanos}", std::process::id()))
}

fn own_engine(name: &str, limits: Limits) -> UciSpec {
    let mut spec = UciSpec::new(name, ENGINE, &["uci", "--variant", "chess"]);
    spec.limits = limits;
    spec
}

fn chess() -> Variant {
    Variant::load("chess", &[]).unwrap()
}

fn random(seed: u64) -> RandomPlayer {
    RandomPlayer { name: "random".into(), rng: Rng::new(seed) }
}

fn is_normal_end(t: Termination) -> bool {
    !matches!(t, Termination::EngineFailure | Termination::Timeout | Termination::IllegalMove)
}

fn process_alive(pid: u32) -> bool {
    // Reaped processes vanish from /proc; a zombie would still show up.
    std::path::Path::new(&format!("/proc/{pid}")).exists()
}

#[test]
fn chooses_a_legal_move_at_2000_nodes() {
    let mut uci = UciPlayer::new(own_engine("fairylab-uci", Limits::nodes(2000))).unwrap();
    assert_eq!(uci.name(), "fairylab-uci");
    uci.new_game().unwrap();
    let start = chess().start_position();
    let c = uci.choose(&start, &[], &start, &[]).unwrap();
    assert!(start.parse_move(&c.mv).is_ok(), "illegal move {}", c.mv);
    assert!(c.depth >= 1, "depth {}", c.depth);
    assert!(c.nodes > 0 && c.nodes <= 4000, "nodes {}", c.nodes);
    let cp = c.score_cp.expect("a score from the info lines");
    assert!(cp.abs() < 300, "start position score {cp}");

    // After some moves (position fen ... moves ...), Black to move.
    let moves: Vec<String> = ["e2e4", "e7e5", "g1f3"].iter().map(|s| s.to_string()).collect();
    let mut board = start;
    for m in &moves {
        board = board.play(m).unwrap();
    }
    let c = uci.choose(&start, &moves, &board, &[]).unwrap();
    assert!(board.parse_move(&c.mv).is_ok(), "illegal move {} for Black", c.mv);
}

#[test]
fn mate_scores_become_large_centipawns() {
    let mut uci = UciPlayer::new(own_engine("", Limits::depth(3))).unwrap();
    assert!(uci.name().starts_with("fairylab"), "name from 'id name': {}", uci.name());
    let b = chess().parse_fen("k7/8/1K6/8/8/8/8/7R w - - 0 1").unwrap();
    let c = uci.choose(&b, &[], &b, &[]).unwrap();
    assert_eq!(c.mv, "h1h8");
    assert_eq!(c.score_cp, Some(29999), "mate in 1 = 30000 - 1 ply");
}

#[test]
fn plays_flying_bombers_grand_against_a_random_mover() {
    let mut spec = own_engine("fairylab-uci", Limits::nodes(2000));
    spec.options = vec![("UCI_Variant".into(), "flying-bombers-grand".into()), ("Hash".into(), "16".into())];
    let mut uci = UciPlayer::new(spec).unwrap();
    let start = Variant::load("flying-bombers-grand", &[]).unwrap().start_position();
    let mut other = random(7);
    let rec = play_game(&start, &mut uci, &mut other, &Adjudication::default());
    assert!(is_normal_end(rec.termination), "game ended by {:?} after {:?}", rec.termination, rec.moves);
    assert!(rec.moves.len() >= 2, "moves {:?}", rec.moves);
    assert_eq!(rec.outcome, Outcome::WhiteWins, "{:?} by {:?}", rec.outcome, rec.termination);
    // White's samples carry the UCI engine's scores.
    assert!(rec.samples.iter().step_by(2).all(|s| s.score_white.is_some()));
}

#[test]
fn plays_black_against_the_in_process_engine() {
    let mut spec = own_engine("fairylab-uci", Limits::nodes(1000));
    spec.options = vec![("UCI_Variant".into(), "flying-bombers-grand".into())];
    let mut uci = UciPlayer::new(spec).unwrap();
    let v = Variant::load("flying-bombers-grand", &[]).unwrap();
    let mut white = EnginePlayer::new("in-process", Engine::default_for(v).unwrap(), Limits::nodes(300), None);
    let adj = Adjudication { resign_moves: 3, resign_score: 1000, draw_start: 40, draw_moves: 8, draw_score: 10 };
    let rec = play_game(&v.start_position(), &mut white, &mut uci, &adj);
    assert!(is_normal_end(rec.termination), "game ended by {:?} after {:?}", rec.termination, rec.moves);
    assert!(rec.moves.len() >= 2);
}

#[test]
fn commands_sent_and_noisy_output_parsed() {
    let log = temp_path("log");
    let mut spec = UciSpec::new("", &fixture("scripted.sh"), &[log.to_str().unwrap()]);
    spec.options = vec![("UCI_Variant".into(), "chess".into()), ("Clear Hash".into(), String::new())];
    spec.limits = Limits { depth: Some(3), nodes: Some(500), ..Default::default() };
    let mut uci = UciPlayer::new(spec).unwrap();
    assert_eq!(uci.name(), "scripted engine");
    uci.new_game().unwrap();
    let start = chess().start_position();
    let c = uci.choose(&start, &[], &start, &[]).unwrap();
    assert_eq!(c.mv, "e2e4");
    assert_eq!(c.score_cp, Some(30000 - 5), "mate 3 = 5 plies");
    assert_eq!(c.depth, 8);
    assert_eq!(c.nodes, 1234, "an overflowing node count is ignored");
    let moves = vec!["e2e4".to_string(), "e7e5".to_string()];
    let board = start.play("e2e4").unwrap().play("e7e5").unwrap();
    uci.choose(&start, &moves, &board, &[]).unwrap();
    drop(uci);

    let text = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    let lines: Vec<&str> = text.lines().collect();
    let fen = start.fen();
    assert_eq!(
        lines,
        vec![
            "uci".to_string(),
            "setoption name UCI_Variant value chess".into(),
            "setoption name Clear Hash".into(),
            "isready".into(),
            "ucinewgame".into(),
            "isready".into(),
            format!("position fen {fen}"),
            "go depth 3 nodes 500".into(),
            format!("position fen {fen} moves e2e4 e7e5"),
            "go depth 3 nodes 500".into(),
            "quit".into(),
        ]
    );
}

/// The numbers after `key` in the logged `go` lines.
fn go_values(log: &PathBuf, key: &str) -> Vec<u64> {
    let text = std::fs::read_to_string(log).unwrap();
    text.lines()
        .filter(|l| l.starts_with("go "))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let i = w.iter().position(|&x| x == key).unwrap_or_else(|| panic!("no {key} in '{l}'"));
            w[i + 1].parse().unwrap()
        })
        .collect()
}

#[test]
fn clock_play_tracks_own_time() {
    let log = temp_path("clock");
    let mut spec = UciSpec::new("clocked", &fixture("scripted.sh"), &[log.to_str().unwrap()]);
    spec.clock = Some((Duration::from_millis(2000), Duration::from_millis(100)));
    spec.timeout_margin = Duration::from_millis(500);
    let mut uci = UciPlayer::new(spec).unwrap();
    uci.new_game().unwrap();
    let start = chess().start_position();
    let after = start.play("e2e4").unwrap();
    // White's first move, then (as a test) Black's: the player's own clock is the mover's.
    uci.choose(&start, &[], &start, &[]).unwrap();
    let left = uci.clock_left();
    assert!(left > Duration::from_millis(1900) && left <= Duration::from_millis(2100), "{left:?}");
    uci.choose(&start, &["e2e4".to_string()], &after, &[]).unwrap();
    uci.new_game().unwrap();
    assert_eq!(uci.clock_left(), Duration::from_millis(2000));
    uci.choose(&start, &[], &start, &[]).unwrap();
    drop(uci);

    let wtime = go_values(&log, "wtime");
    let btime = go_values(&log, "btime");
    assert_eq!(go_values(&log, "winc"), vec![100, 100, 100]);
    assert_eq!(go_values(&log, "binc"), vec![100, 100, 100]);
    let _ = std::fs::remove_file(&log);
    assert_eq!(wtime[0], 2000);
    assert_eq!(btime[0], 2000);
    // Black's move: own clock = 2000 - time used + 100, the opponent's shown as the base.
    assert_eq!(wtime[1], 2000);
    assert!(btime[1] > 1900 && btime[1] <= 2100, "btime {}", btime[1]);
    // Reset by new_game.
    assert_eq!((wtime[2], btime[2]), (2000, 2000));
}

#[test]
fn clock_game_with_the_real_engine() {
    let mut spec = own_engine("fairylab-clock", Limits::default());
    spec.clock = Some((Duration::from_millis(3000), Duration::from_millis(50)));
    spec.timeout_margin = Duration::from_millis(1000);
    let mut uci = UciPlayer::new(spec).unwrap();
    let start = chess().start_position();
    let mut other = random(3);
    let rec = play_game(&start, &mut other, &mut uci, &Adjudication::default());
    assert!(is_normal_end(rec.termination), "game ended by {:?} after {:?}", rec.termination, rec.moves);
    assert!(uci.clock_left() > Duration::ZERO);
}

#[test]
fn crashing_engine_is_a_failure_and_a_loss_then_restarts() {
    let mut spec = UciSpec::new("crasher", &fixture("crash_on_go.sh"), &[]);
    spec.limits = Limits::nodes(1000);
    let mut uci = UciPlayer::new(spec).unwrap();
    assert_eq!(uci.starts(), 1);
    let first_pid = uci.pid().expect("running after new()");
    uci.new_game().unwrap();
    assert_eq!(uci.starts(), 1, "a healthy engine is not restarted by new_game");
    let start = chess().start_position();
    match uci.choose(&start, &[], &start, &[]) {
        Err(PlayerError::Failure(_)) => {}
        Err(PlayerError::Timeout(m)) => panic!("expected Failure, got Timeout({m})"),
        Ok(c) => panic!("expected Failure, got move {}", c.mv),
    }
    assert_eq!(uci.pid(), None, "the dead engine is dropped");
    assert!(!process_alive(first_pid), "old process reaped");

    // new_game restarts it transparently.
    uci.new_game().unwrap();
    assert_eq!(uci.starts(), 2);
    assert!(uci.pid().is_some_and(|p| p != first_pid));

    // In a game: the crashing side (White) loses by engine failure.
    let mut other = random(1);
    let rec = play_game(&start, &mut uci, &mut other, &Adjudication::default());
    assert_eq!(rec.termination, Termination::EngineFailure);
    assert_eq!(rec.outcome, Outcome::BlackWins);
    assert!(rec.moves.is_empty());
    // As Black.
    let rec = play_game(&start, &mut other, &mut uci, &Adjudication::default());
    assert_eq!(rec.termination, Termination::EngineFailure);
    assert_eq!(rec.outcome, Outcome::WhiteWins);
    assert_eq!(rec.moves.len(), 1);
}

#[test]
fn engine_that_crashes_once_plays_the_next_game() {
    let marker = temp_path("marker");
    let args = [marker.to_str().unwrap(), ENGINE, "uci", "--variant", "chess"];
    let mut spec = UciSpec::new("crash-once", &fixture("crash_once.sh"), &args);
    spec.limits = Limits::nodes(500);
    let mut uci = UciPlayer::new(spec).unwrap();
    let start = chess().start_position();
    let mut other = random(5);
    let rec = play_game(&start, &mut uci, &mut other, &Adjudication::default());
    assert_eq!(rec.termination, Termination::EngineFailure);
    assert_eq!(rec.outcome, Outcome::BlackWins);

    let rec = play_game(&start, &mut uci, &mut other, &Adjudication::default());
    let _ = std::fs::remove_file(&marker);
    assert_eq!(uci.starts(), 2);
    assert!(is_normal_end(rec.termination), "second game ended by {:?}", rec.termination);
    assert!(rec.moves.len() >= 2);
}

#[test]
fn hanging_engine_times_out_within_the_margin() {
    let mut spec = UciSpec::new("hanger", &fixture("hang_on_go.sh"), &[]);
    spec.limits = Limits { movetime: Some(Duration::from_millis(100)), ..Default::default() };
    spec.timeout_margin = Duration::from_millis(500);
    let mut uci = UciPlayer::new(spec).unwrap();
    let pid = uci.pid().unwrap();
    let start = chess().start_position();
    let t = Instant::now();
    let r = uci.choose(&start, &[], &start, &[]);
    let took = t.elapsed();
    assert!(matches!(r, Err(PlayerError::Timeout(_))), "expected Timeout, got {:?}", r.map(|c| c.mv));
    assert!(took >= Duration::from_millis(590), "gave up too early: {took:?}");
    assert!(took < Duration::from_millis(2000), "gave up too late: {took:?}");
    assert_eq!(uci.pid(), None);
    assert!(!process_alive(pid), "hung process killed and reaped");

    // The next game restarts the engine and ends by timeout, a loss for the hanging side.
    let mut other = random(2);
    let rec = play_game(&start, &mut other, &mut uci, &Adjudication::default());
    assert_eq!(rec.termination, Termination::Timeout);
    assert_eq!(rec.outcome, Outcome::WhiteWins);
    assert_eq!(uci.starts(), 2);
}

#[test]
fn unstartable_engines_are_errors() {
    assert!(UciPlayer::new(UciSpec::new("x", "/nonexistent/engine", &[])).is_err());
    let t = Instant::now();
    let r = UciPlayer::new(UciSpec::new("x", "/bin/sh", &["-c", "exit 0"]));
    assert!(r.is_err());
    assert!(t.elapsed() < Duration::from_secs(5), "EOF is noticed at once");
    // An engine that does not speak UCI at all.
    let r = UciPlayer::new(UciSpec::new("x", "/bin/sh", &["-c", "echo hello; echo bestmove e2e4"]));
    assert!(r.is_err());
}

#[test]
fn drop_quits_and_reaps_the_engine() {
    let uci = UciPlayer::new(own_engine("a", Limits::nodes(100))).unwrap();
    let pid = uci.pid().unwrap();
    assert!(process_alive(pid));
    drop(uci);
    assert!(!process_alive(pid));
    // Also a process that ignores `quit`: killed after a short grace period.
    let deaf = "while IFS= read -r l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; esac; done";
    let uci = UciPlayer::new(UciSpec::new("deaf", "/bin/sh", &["-c", deaf])).unwrap();
    let pid = uci.pid().unwrap();
    let t = Instant::now();
    drop(uci);
    assert!(!process_alive(pid));
    assert!(t.elapsed() < Duration::from_secs(2));
}

#[test]
fn an_engine_option_whose_name_has_spaces_is_sent_whole() {
    let log = temp_path("spaces");
    let spec = format!("name=X cmd={} arg={} option.Use NNUE=false", fixture("scripted.sh"), log.display());
    let args = ["match", "--variant", "chess", "--engine", &spec, "--engine", "name=A nodes=50", "--rounds", "1"];
    let out = std::process::Command::new(ENGINE).args(args).args(["--concurrency", "1", "--quiet"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    assert!(text.lines().any(|l| l == "setoption name Use NNUE value false"), "{text}");
}
