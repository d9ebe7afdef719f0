//! The command line as scripts use it: exact output shapes, exit codes, one-line errors.

use std::process::Command;

fn fairylab(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_fairylab")).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn perft_last_line_is_the_node_count() {
    let (code, out, _) = fairylab(&["perft", "--variant", "flying-bombers-grand", "--depth", "2"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().last(), Some("nodes 1296"));
    let (code, out, _) = fairylab(&["perft", "--variant", "chess", "--depth", "2", "--divide"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 21);
    assert!(lines.contains(&"e2e4: 20"));
    assert_eq!(lines[20], "nodes 400");
    let (_, out, _) =
        fairylab(&["perft", "--variant", "flying-bombers-grand", "--option", "super-jump-knights", "--depth", "1"]);
    assert_eq!(out.lines().last(), Some("nodes 40"));
    let (_, out, _) = fairylab(&[
        "perft",
        "--variant",
        "bland-chess-46",
        "--fen",
        "rwrkwr/pppppp/6/5*/5*/6/PPPPPP/RNRKWR w - - 0 1 NW/WW",
        "--depth",
        "1",
    ]);
    // The knight on b1 has two first moves where the War Machine had one.
    assert_eq!(out.lines().last(), Some("nodes 9"));
}

#[test]
fn bad_input_is_one_line_and_exit_code_2() {
    let cases: &[&[&str]] = &[
        &["perft", "--variant", "nosuch", "--depth", "1"],
        &["perft", "--variant", "chess", "--option", "immediate-landing", "--depth", "1"],
        &[
            "perft",
            "--variant",
            "chess",
            "--fen",
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "--depth",
            "1",
        ],
        &[
            "perft",
            "--variant",
            "bland-chess-46",
            "--fen",
            "rwrkwr/pppppp/6/6/5*/6/PPPPPP/RWRKWR w - - 0 1",
            "--depth",
            "1",
        ],
        &["perft", "--variant", "chess", "--fen", "8/8/8/8/8/8/8/K7 w - - 0 1", "--depth", "1"],
        &["perft", "--variant", "chess", "--fen", "4k3/8/8/8/8/8/8/4K3 x - - 0 1", "--depth", "1"],
        &["perft", "--variant", "chess", "--fen", "4k3/8/8/8/8/8/8/4K3 w Z - 0 1", "--depth", "1"],
        &["perft", "--variant", "chess", "--fen", "4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "--depth", "1"],
        &["match", "--variant", "chess", "--engine", "name=A nodes=x"],
        &["match", "--variant", "chess", "--sprt", "elo0=5 elo1=0"],
        &["stats", "--wdl", "1,2"],
        &["report", "--variant", "chess", "--shard", "3/2", "--out", "/nonexistent/fairylab-report"],
        &["match", "--variant", "chess", "--shard", "0/2"],
        &["merge", "/nonexistent/fairylab-shard", "--out", "/nonexistent/fairylab-merged"],
        &["values", "regress", "--variant", "chess", "--data", "/nonexistent/run", "--shard", "1/2"],
    ];
    for args in cases {
        let (code, out, err) = fairylab(args);
        assert_eq!(code, 2, "{args:?}: exit {code}, stderr {err}");
        assert!(out.is_empty(), "{args:?}: printed {out}");
        let lines: Vec<&str> = err.lines().filter(|l| !l.is_empty()).collect();
        assert_eq!(lines.len(), 1, "{args:?}: {err}");
        assert!(lines[0].starts_with("error: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"));
    }
    // clap's own usage errors also exit with 2.
    assert_eq!(fairylab(&["perft", "--variant", "chess"]).0, 2);
}

#[test]
fn bad_input_found_by_trying_it_is_named_in_one_line() {
    let empty = std::env::temp_dir().join(format!("fairylab-cli-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["perft", "--variant", "chess", "--depth", "2000"], "at most 30 plies"),
        (
            &["perft", "--variant", "chess", "--fen", "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1", "--depth", "1"],
            "the side not to move is in check",
        ),
        (
            &[
                "perft",
                "--variant",
                "chess",
                "--fen",
                "QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/8/8/k6K b - - 0 1",
                "--depth",
                "1",
            ],
            "more than the 1024",
        ),
        (&["match", "--variant", "chess", "--nodes", "0"], "--nodes and --depth must be at least 1"),
        (&["match", "--variant", "chess", "--depth", "0"], "--nodes and --depth must be at least 1"),
        (&["match", "--variant", "chess", "--nodes", "200", "--depth", "3"], "give one of them"),
        (&["match", "--variant", "chess", "--engine", "name=A nodes=0", "--engine", "name=B"], "nodes=0"),
        (&["match", "--variant", "chess", "--engine", "name=A nodes=5 depth=2", "--engine", "name=B"], "give one"),
        (&["match", "--variant", "chess", "--concurrency", "0"], "--concurrency must be at least 1"),
        (&["report", "--variant", "chess", "--concurrency", "0"], "--concurrency must be at least 1"),
        (&["report", "--variant", "chess", "--pairs", "1,2,3"], "--pairs takes one number or 2"),
        (&["report", "--variant", "chess", "--nodes", "500", "--pairs", "1,2"], "--pairs takes one number or 1"),
        (&["values", "regress", "--variant", "chess", "--games", "4", "--concurrency", "0"], "--concurrency"),
        (&["stats", "--games", "/nonexistent/fairylab-run"], "/nonexistent/fairylab-run: no such folder"),
        (&["stats", "--games", empty.to_str().unwrap()], "not a run folder"),
        (&["spsa", "--variant", "chess", "--param", "value.N=250..350", "--games", "4", "--nodes", "0"], "--nodes"),
    ];
    for (args, want) in cases {
        let (code, out, err) = fairylab(args);
        assert_eq!(code, 2, "{args:?}: exit {code}, stderr {err}");
        assert!(out.is_empty(), "{args:?}: printed {out}");
        let lines: Vec<&str> = err.lines().filter(|l| !l.is_empty()).collect();
        assert_eq!(lines.len(), 1, "{args:?}: {err}");
        assert!(lines[0].starts_with("error: ") && lines[0].contains(want), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&empty);
}

#[test]
fn stats_calculator_prints_elo_and_sprt() {
    let (code, out, _) = fairylab(&["stats", "--wdl", "50,20,30", "--sprt", "elo0=0 elo1=10 model=logistic"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Elo +70.44"), "{out}");
    assert!(out.contains("SPRT: LLR"), "{out}");
    let (code, out, _) = fairylab(&["stats", "--penta", "1,2,10,5,2", "--sprt", "elo0=0 elo1=10"]);
    assert_eq!(code, 0);
    assert!(out.contains("pentanomial [1, 2, 10, 5, 2]"), "{out}");
    // Counts given by hand are judged whole: no "on the first N pairs" caveat.
    assert!(out.contains("SPRT: LLR") && !out.contains("schedule order"), "{out}");
}

#[test]
fn uci_answers_and_survives_garbage() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_fairylab"))
        .args(["uci"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let input = "uci\nbogus command\nposition fen not a fen\nsetoption name UCI_Variant value flying-bombers-grand\nposition startpos moves e2e5 e9e6\ngo nodes 3000\nisready\nquit\n";
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(text.contains("uciok"));
    assert!(text.contains("option name UCI_Variant type combo"));
    assert!(text.contains("option name value.Q.mg"), "weights are UCI options");
    assert_eq!(text.matches("info string error").count(), 2, "{text}");
    let best = text.lines().find(|l| l.starts_with("bestmove")).expect("bestmove");
    let mv = best.split_whitespace().nth(1).unwrap();
    let v = fairylab::Variant::load("flying-bombers-grand", &[]).unwrap();
    let b = v.start_position().play("e2e5").unwrap().play("e9e6").unwrap();
    assert!(b.parse_move(mv).is_ok(), "{best}");
    assert!(text.contains("readyok"));
}
