//! `fairylab uci` in process (`UciSession`) and as a process: the bad input the fuzz pass
//! of issue 14 turned up is answered by one error line, and `stop` always stops.

use fairylab::cli::uci::{Output, UciSession, MAX_GO_MILLIS};
use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn session() -> (UciSession, Arc<Mutex<Vec<String>>>) {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let sink = lines.clone();
    let out: Output = Arc::new(move |l: &str| sink.lock().unwrap().push(l.to_string()));
    (UciSession::new("chess", &[], out).unwrap().with_max_hash(1), lines)
}

fn bestmoves(lines: &Mutex<Vec<String>>) -> Vec<String> {
    lines.lock().unwrap().iter().filter(|l| l.starts_with("bestmove")).cloned().collect()
}

// A `stop` right after `go infinite` used to be lost (the search clears the flag when it
// starts), leaving the search running for ever.
#[test]
fn stop_right_after_go_infinite_stops() {
    let (mut s, lines) = session();
    for _ in 0..20 {
        let t = Instant::now();
        s.handle("go infinite").unwrap();
        s.handle("stop").unwrap();
        assert!(t.elapsed() < Duration::from_secs(5), "stop took {:?}", t.elapsed());
    }
    let b = bestmoves(&lines);
    assert_eq!(b.len(), 20);
    assert!(b.iter().all(|l| l.split_whitespace().nth(1).is_some_and(|m| m.len() >= 4)), "{b:?}");
}

// `setoption value 3 name x` used to slice out of range and panic.
#[test]
fn setoption_needs_name_first() {
    let (mut s, _) = session();
    for bad in ["setoption value 3 name x", "setoption", "setoption name", "setoption x name y value 1"] {
        let e = s.handle(bad).unwrap_err();
        assert!(e.starts_with("setoption"), "{bad}: {e}");
    }
    assert!(s.handle("setoption name value.P value 120").is_ok());
    assert!(s.handle("setoption name value.P value nan").unwrap_err().contains("outside"));
    assert!(s.handle("setoption name value.P value 1e30").unwrap_err().contains("outside"));
    assert!(s.handle("setoption name nosuch value 1").is_err());
}

// Times the search's clock arithmetic cannot hold are refused instead of overflowing.
#[test]
fn go_times_beyond_a_year_are_refused() {
    let (mut s, lines) = session();
    for p in ["movetime", "wtime", "btime", "winc", "binc"] {
        let e = s.handle(&format!("go {p} {}", MAX_GO_MILLIS + 1)).unwrap_err();
        assert!(e.contains("more than a year"), "{p}: {e}");
        let e = s.handle(&format!("go {p} 18446744073709551616")).unwrap_err();
        assert!(e.contains("not a number"), "{p}: {e}");
    }
    assert!(bestmoves(&lines).is_empty());
    s.handle("go wtime 100 btime 100 winc 10 binc 10").unwrap();
    s.stop();
    assert_eq!(bestmoves(&lines).len(), 1);
}

// `--set NAME=VALUE` reaches the engine (it was accepted and ignored before); a bad one
// is one error line with exit code 2.
#[test]
fn set_flag_changes_the_advertised_weight() {
    let run = |args: &[&str]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fairylab"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(b"uci\nquit\n").unwrap();
        let out = child.wait_with_output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, out, _) = run(&["uci", "--set", "value.N=777"]);
    assert_eq!(code, Some(0));
    assert!(out.lines().any(|l| l.starts_with("option name value.N.mg type spin default 777 ")), "{out}");
    let (code, _, err) = run(&["uci", "--set", "nosuch=1"]);
    assert_eq!(code, Some(2));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: --set nosuch=1"), "{err}");
}
