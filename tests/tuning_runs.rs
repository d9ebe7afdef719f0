//! The tuning commands on real run directories: `tune` reads games and writes an engine
//! config every command can load, `spsa` and `train` record, resume and refuse mixed
//! settings, and bad input is an error (never a panic).

use clap::Parser;
use fairylab::cli::tune::{self, SpsaArgs, TrainArgs, TuneArgs};
use fairylab::eval::EngineConfig;
use fairylab::search::Limits;
use fairylab::tournament::{self, engines::EngineSpec, openings::OpeningConfig, output, Mode, Settings};
use fairylab::tuning::spsa::{self, Schedule};
use fairylab::Variant;
use std::path::{Path, PathBuf};

#[derive(Parser)]
struct Tune {
    #[command(flatten)]
    a: TuneArgs,
}

#[derive(Parser)]
struct Spsa {
    #[command(flatten)]
    a: SpsaArgs,
}

#[derive(Parser)]
struct Train {
    #[command(flatten)]
    a: TrainArgs,
}

fn args<P: Parser>(words: &[&str]) -> P {
    P::try_parse_from(std::iter::once("fairylab").chain(words.iter().copied()))
        .unwrap_or_else(|e| panic!("{words:?}: {e}"))
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fairylab-tuning-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// A few quick chess games (deterministic: node limits and a fixed seed).
fn games(dir: &Path, rounds: u64) {
    let s = Settings {
        variant: Variant::load("chess", &[]).unwrap(),
        engines: vec![EngineSpec::parse("name=A").unwrap(), EngineSpec::parse("name=B nodes=330").unwrap()],
        mode: Mode::RoundRobin,
        rounds,
        concurrency: 2,
        openings: OpeningConfig { random_plies: 6, seed: 3, ..Default::default() },
        limits: Limits::nodes(300),
        clock: None,
        adjudication: Default::default(),
        sprt: None,
        out: Some(dir.to_path_buf()),
        pgn: None,
        shard: None,
        progress: Default::default(),
    };
    tournament::run(&s).unwrap();
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn tune_reads_run_directories_and_writes_a_usable_config() {
    let run = tmp("run");
    games(&run, 6);
    let out = tmp("tuned").join("chess-tuned.toml");
    let report = out.with_extension("json");
    let a: Tune = args(&[
        "--variant",
        "chess",
        "--data",
        s(&run),
        "--out",
        s(&out),
        "--report",
        s(&report),
        "--epochs",
        "8",
        "--validation",
        "0.3",
        "--quiet",
    ]);
    tune::run_tune(&a.a).unwrap();

    // The output is a normal engine config: it loads and builds an evaluator.
    let cfg = EngineConfig::load(s(&out)).unwrap();
    let Variant::Narrow(r) = Variant::load("chess", &[]).unwrap() else { panic!("chess is 8x8") };
    let ev = cfg.evaluator(r, &[]).unwrap();
    assert_eq!(cfg.weights.len(), ev.layout.len(), "every weight is written");
    assert_eq!(ev.weight("value.P.eg"), Some(100.0), "the pawn's endgame value keeps the scale");
    let start = EngineConfig::for_variant("chess").unwrap().evaluator(r, &[]).unwrap();
    assert_ne!(ev.weights(), start.weights(), "the fit moved something");

    // The report accounts for every recorded position.
    let rows = output::read_positions(&run).unwrap();
    // Next to a capture: the move played from it, or the one that reached it, captured.
    let captures = (0..rows.len())
        .filter(|&i| {
            let reached = i > 0 && rows[i - 1].game_id == rows[i].game_id && rows[i - 1].capture;
            rows[i].capture || reached
        })
        .count();
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let d = &json["data"];
    let n = |k: &str| d[k].as_u64().unwrap() as usize;
    assert_eq!(n("rows"), rows.len());
    assert_eq!(n("dropped_captures"), captures);
    assert_eq!(n("train") + n("validation") + n("dropped_checks"), rows.len() - captures);
    assert!(n("validation") > 0 && n("train") > n("validation"));
    let t = &json["tune"];
    assert!(t["final_train_loss"].as_f64().unwrap() <= t["start_train_loss"].as_f64().unwrap());
    assert!(!t["epochs"].as_array().unwrap().is_empty());
    assert_eq!(json["fixed"][0], "value.P.eg");

    // Same seed, same result; the report's K is positive.
    let again = out.with_file_name("again.toml");
    let b: Tune = args(&[
        "--variant",
        "chess",
        "--data",
        s(&run),
        "--out",
        s(&again),
        "--epochs",
        "8",
        "--validation",
        "0.3",
        "--quiet",
    ]);
    tune::run_tune(&b.a).unwrap();
    let strip = |p: &Path| std::fs::read_to_string(p).unwrap();
    assert_eq!(strip(&out), strip(&again));
    assert!(t["k"].as_f64().unwrap() > 0.0);

    // A start config's search settings come through the fit unchanged.
    let start_cfg = out.with_file_name("start.toml");
    let mut cfg = EngineConfig::for_variant("chess").unwrap();
    cfg.search.set("reduction_divisor", 1.85).unwrap();
    cfg.search.set("futility_margin", 140.0).unwrap();
    let (layout, w) = fairylab::tuning::run::config_weights(Variant::load("chess", &[]).unwrap(), &cfg).unwrap();
    let text = fairylab::eval::config::to_toml("chess", "start", &layout, &w) + "\n" + &cfg.search.to_toml();
    std::fs::write(&start_cfg, text).unwrap();
    let third = out.with_file_name("third.toml");
    let c: Tune = args(&[
        "--variant",
        "chess",
        "--engine",
        s(&start_cfg),
        "--data",
        s(&run),
        "--out",
        s(&third),
        "--epochs",
        "2",
        "--quiet",
    ]);
    tune::run_tune(&c.a).unwrap();
    let tuned = EngineConfig::load(s(&third)).unwrap().search;
    assert_eq!((tuned.reduction_divisor, tuned.futility_margin), (1.85, 140));
    assert_eq!(EngineConfig::load(s(&out)).unwrap().search, EngineConfig::for_variant("chess").unwrap().search);
    for d in [run, out.parent().unwrap().to_path_buf()] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn bad_input_is_an_error() {
    let run = tmp("bad-run");
    games(&run, 1);
    let out = tmp("bad-out").join("x.toml");
    let missing = tmp("missing");
    let not_run = tmp("not-run");
    std::fs::create_dir_all(&not_run).unwrap();
    let empty = tmp("empty");
    std::fs::create_dir_all(&empty).unwrap();
    std::fs::write(empty.join("positions.csv"), "game_id,ply,fen,score_white,capture,result\n").unwrap();
    let tune_err = |words: &[&str]| -> String {
        let mut w = vec!["--variant", "chess", "--quiet", "--epochs", "2"];
        w.extend_from_slice(words);
        let a: Tune = args(&w);
        tune::run_tune(&a.a).unwrap_err().to_string()
    };
    let has = |e: String, what: &str| assert!(e.contains(what), "'{e}' should mention '{what}'");
    has(tune_err(&["--data", s(&missing), "--out", s(&out)]), "does not exist");
    has(tune_err(&["--data", s(&not_run), "--out", s(&out)]), "no positions.csv");
    has(tune_err(&["--data", s(&empty), "--out", s(&out)]), "no usable positions");
    has(tune_err(&["--data", s(&run), s(&missing), "--out", s(&out)]), "does not exist");
    has(tune_err(&["--out", s(&out)]), "--data");
    has(tune_err(&["--data", s(&run)]), "--out");
    has(tune_err(&["--data", s(&run), "--out", s(&out), "--fix", "value.Z"]), "unknown evaluation weight");
    has(tune_err(&["--data", s(&run), "--out", s(&out), "--only", "nothing."]), "no evaluation weight");
    has(tune_err(&["--data", s(&run), "--out", s(&out), "--validation", "1.5"]), "--validation");
    has(tune_err(&["--data", s(&run), "--out", s(&out), "--lr", "0"]), "--lr");
    let a: Tune = args(&["--variant", "no-such-game", "--data", s(&run), "--out", s(&out)]);
    assert!(tune::run_tune(&a.a).is_err());
    let a: Tune = args(&["--variant", "chess", "--data", s(&run), "--out", s(&out), "--engine", "/no/such.toml"]);
    has(tune::run_tune(&a.a).unwrap_err().to_string(), "/no/such.toml");
    assert!(!out.exists(), "nothing is written on error");

    // A position that does not belong to the variant names itself.
    let alien = tmp("alien");
    std::fs::create_dir_all(&alien).unwrap();
    std::fs::write(
        alien.join("positions.csv"),
        "game_id,ply,fen,score_white,capture,result\n0,0,not a fen,,false,1.0\n",
    )
    .unwrap();
    has(tune_err(&["--data", s(&alien), "--out", s(&out)]), "not a fen");

    for bad in ["value.N=400..300", "value.N=a..500", "value.N", "value.N=100..200@300", "value.N=1..", "=1..2"] {
        assert!(spsa::parse_param(bad).is_err(), "{bad}");
    }
    let p = spsa::parse_param("value.F=300..800@450").unwrap();
    assert_eq!((p.name.as_str(), p.lo, p.hi, p.start), ("value.F", 300.0, 800.0, Some(450.0)));
    let spsa_err = |words: &[&str]| -> String {
        let mut w = vec!["--variant", "chess", "--quiet", "--nodes", "50"];
        w.extend_from_slice(words);
        let a: Spsa = args(&w);
        tune::run_spsa(&a.a).unwrap_err().to_string()
    };
    has(spsa_err(&["--param", "value.Z=1..2", "--games", "2"]), "unknown evaluation weight");
    has(spsa_err(&["--param", "value.N=300..200", "--games", "2"]), "range is empty");
    has(spsa_err(&["--param", "value.N=200..300", "--param", "value.N=1..2", "--games", "2"]), "twice");
    has(spsa_err(&["--param", "value.N=200..300", "--games", "0"]), "--games");
    has(spsa_err(&["--param", "value.N=200..300", "--games", "2", "--r-end=-1"]), "--r-end");
    has(spsa_err(&["--param", "value.N=200..300", "--games", "2", "--opponent", "nodes=x"]), "--opponent");

    let train_err = |words: &[&str]| -> String {
        let mut w = vec!["--variant", "chess", "--quiet", "--iterations", "1"];
        w.extend_from_slice(words);
        let a: Train = args(&w);
        tune::run_train(&a.a).unwrap_err().to_string()
    };
    let tout = tmp("bad-train");
    has(train_err(&["--out", s(&tout), "--data", s(&missing)]), "does not exist");
    has(train_err(&["--out", s(&tout), "--sprt", "elo0=5 elo1=0"]), "--sprt");
    has(train_err(&["--out", s(&tout), "--fix", "value.Z"]), "unknown evaluation weight");
    assert!(!tout.exists(), "nothing is written before the settings are checked");
    for d in [run, missing, not_run, empty, alien] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn spsa_schedule_ends_at_the_requested_values() {
    let n = 200;
    let sch = Schedule::new(n, 10.0, 0.02, 0.602, 0.101, 0.1);
    let (a_end, c_end) = sch.at(n);
    assert!((c_end - 10.0).abs() < 1e-9, "c_N = c_end");
    assert!((a_end / (c_end * c_end) - 0.02).abs() < 1e-12, "a_N / c_N^2 = r_end");
    let (a1, c1) = sch.at(1);
    assert!(c1 > c_end && a1 > a_end, "gains decay");
    // Flips are ±1, reproducible from the seed, and differ between iterations.
    let f: Vec<Vec<f64>> = (1..=50).map(|k| spsa::flips(9, k, 3)).collect();
    assert!(f.iter().flatten().all(|&x| x == 1.0 || x == -1.0));
    assert_eq!(f[0], spsa::flips(9, 1, 3));
    let plus = f.iter().flatten().filter(|&&x| x > 0.0).count();
    assert!((50..100).contains(&plus), "{plus} of 150 positive");
}

#[test]
fn spsa_tail_mean_averages_the_last_iterations() {
    let step =
        |k: usize, v: f64| spsa::Step { iteration: k, wins: 0, draws: 0, losses: 0, result: 0.0, theta: vec![v] };
    let r = spsa::SpsaResult {
        names: vec!["value.F".into()],
        start: vec![100.0],
        trajectory: (1..=8).map(|k| step(k, 10.0 * k as f64)).collect(),
        iterations: 8,
    };
    // The last quarter of 8 iterations is 70 and 80.
    let [(m, sd)] = r.tail_mean(0.25)[..] else { panic!() };
    assert!((m - 75.0).abs() < 1e-9 && (sd - 5.0).abs() < 1e-9, "{m} {sd}");
    assert_eq!(r.tail_mean(1.0)[0].0, 45.0);
    let empty = spsa::SpsaResult { trajectory: vec![], ..r };
    assert_eq!(empty.tail_mean(0.25), vec![(100.0, 0.0)]);
}

#[test]
fn spsa_moves_within_range_records_and_resumes() {
    let out = tmp("spsa");
    let words = [
        "--variant",
        "chess",
        "--param",
        "value.N=250..400",
        "--param",
        "mobility.B=0..10",
        "--games",
        "12",
        "--pairs-per-iteration",
        "2",
        "--nodes",
        "200",
        "--r-end",
        "0.5",
        "--seed",
        "4",
        "--quiet",
        "--out",
        s(&out),
    ];
    let a: Spsa = args(&words);
    tune::run_spsa(&a.a).unwrap();
    let csv = std::fs::read_to_string(out.join("spsa.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "iteration,wins,draws,losses,result,value.N,mobility.B");
    assert_eq!(lines.len(), 1 + 3, "12 games = 3 iterations of 2 pairs");
    let last: Vec<f64> = lines[3].split(',').map(|x| x.parse().unwrap()).collect();
    let (wins, draws, losses) = (last[1], last[2], last[3]);
    assert_eq!(wins + draws + losses, 4.0);
    assert!((250.0..=400.0).contains(&last[5]) && (0.0..=10.0).contains(&last[6]));
    // value.N starts at the config's 320 and moves whenever an iteration was decisive.
    let col = |l: &str, i: usize| -> f64 { l.split(',').nth(i).unwrap().parse().unwrap() };
    let decisive = lines[1..].iter().any(|l| col(l, 4) != 0.0);
    let moved = lines[1..].iter().any(|l| col(l, 5) != 320.0);
    assert_eq!(decisive, moved, "{csv}");
    // The final config carries the final values.
    let Variant::Narrow(r) = Variant::load("chess", &[]).unwrap() else { panic!() };
    let ev = EngineConfig::load(s(&out.join("final.toml"))).unwrap().evaluator(r, &[]).unwrap();
    assert!((ev.weight("value.N.mg").unwrap() as f64 - last[5]).abs() < 0.01);
    assert_eq!(ev.weight("value.N.mg"), ev.weight("value.N.eg"));
    // One chart per parameter, with a point per iteration plus the start.
    let chart = std::fs::read_to_string(out.join("trajectory-value.N.svg")).unwrap();
    let polyline = chart.split("points=\"").nth(1).unwrap().split('"').next().unwrap();
    assert_eq!(polyline.split_whitespace().count(), 4, "{chart}");
    assert!(out.join("trajectory-mobility.B.svg").exists());

    // Interrupted after the first iteration (and in the middle of a row): the rerun plays
    // the rest and ends where the uninterrupted run ended.
    std::fs::write(out.join("spsa.csv"), format!("{}\n{}\n{}", lines[0], lines[1], &lines[2][..5])).unwrap();
    tune::run_spsa(&a.a).unwrap();
    // The resumed run restarts from the 4-decimal values in the file, so the last digit may
    // differ by one; results and every value agree to 1e-3.
    let resumed = std::fs::read_to_string(out.join("spsa.csv")).unwrap();
    assert_eq!(resumed.lines().count(), csv.lines().count(), "{resumed}");
    for (x, y) in resumed.lines().skip(1).zip(csv.lines().skip(1)) {
        for (u, v) in x.split(',').zip(y.split(',')) {
            let (u, v): (f64, f64) = (u.parse().unwrap(), v.parse().unwrap());
            assert!((u - v).abs() < 1e-3, "resumed {resumed}\nwhole {csv}");
        }
    }

    // Other settings in the same directory are refused.
    let mut other = words.to_vec();
    other[15] = "5";
    let b: Spsa = args(&other);
    assert!(tune::run_spsa(&b.a).unwrap_err().to_string().contains("other settings"));
    let _ = std::fs::remove_dir_all(out);
}

#[test]
fn spsa_tunes_search_parameters_into_the_search_table() {
    let out = tmp("spsa-search");
    let words = [
        "--variant",
        "chess",
        "--param",
        "search.futility_margin=60..300",
        "--games",
        "8",
        "--pairs-per-iteration",
        "2",
        "--nodes",
        "300",
        "--r-end",
        "0.5",
        "--seed",
        "4",
        "--quiet",
        "--out",
        s(&out),
    ];
    let a: Spsa = args(&words);
    tune::run_spsa(&a.a).unwrap();
    let csv = std::fs::read_to_string(out.join("spsa.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "iteration,wins,draws,losses,result,search.futility_margin");
    // It starts from chess's engine config's value and ends in [search].
    let start = EngineConfig::for_variant("chess").unwrap().search.futility_margin as f64;
    let col = |l: &str, i: usize| -> f64 { l.split(',').nth(i).unwrap().parse().unwrap() };
    let last = col(lines[lines.len() - 1], 5);
    assert!((60.0..=300.0).contains(&last));
    let decisive = lines[1..].iter().any(|l| col(l, 4) != 0.0);
    let moved = lines[1..].iter().any(|l| col(l, 5) != start);
    assert_eq!(decisive, moved, "{csv}");
    let cfg = EngineConfig::load(s(&out.join("final.toml"))).unwrap();
    assert_eq!(cfg.search.futility_margin, last.round() as i32);
    assert!(!cfg.weights.is_empty(), "the weights stay in the final config");
    // An unknown search parameter is refused by name before any game.
    let mut bad = words.to_vec();
    bad[3] = "search.futility=60..300";
    let b: Spsa = args(&bad);
    let err = tune::run_spsa(&b.a).unwrap_err().to_string();
    assert!(err.contains("futility") && err.contains("futility_margin"), "{err}");
    let _ = std::fs::remove_dir_all(out);
}

#[test]
fn train_loop_records_every_iteration_and_resumes() {
    let out = tmp("train");
    let words = [
        "--variant",
        "chess",
        "--iterations",
        "2",
        "--games-per-iteration",
        "6",
        "--nodes",
        "150",
        "--verify-games",
        "6",
        "--epochs",
        "3",
        "--validation",
        "0",
        "--seed",
        "2",
        "--quiet",
        "--out",
        s(&out),
    ];
    let a: Train = args(&words);
    tune::run_train(&a.a).unwrap();
    for it in ["iter-001", "iter-002"] {
        let d = out.join(it);
        for f in ["start.toml", "candidate.toml", "tune.json", "weights.toml", "result.json"] {
            assert!(d.join(f).is_file(), "{it}/{f}");
        }
        assert_eq!(output::read_games(&d.join("games")).unwrap().len(), 6);
        let verify = output::read_games(&d.join("verify")).unwrap();
        assert!(!verify.is_empty() && verify.len() <= 6);
        let r: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(d.join("result.json")).unwrap()).unwrap();
        // Adopted weights are the candidate's, rejected ones the start's.
        let adopted = if r["accepted"].as_bool().unwrap() { "candidate.toml" } else { "start.toml" };
        assert_eq!(
            std::fs::read_to_string(d.join("weights.toml")).unwrap(),
            std::fs::read_to_string(d.join(adopted)).unwrap()
        );
    }
    // Iteration 2 starts from iteration 1's outcome and tunes on both iterations' games.
    assert_eq!(
        std::fs::read_to_string(out.join("iter-001/weights.toml")).unwrap(),
        std::fs::read_to_string(out.join("iter-002/start.toml")).unwrap()
    );
    let t2: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("iter-002/tune.json")).unwrap()).unwrap();
    assert_eq!(t2["data"]["dirs"].as_array().unwrap().len(), 2);
    assert_eq!(std::fs::read_to_string(out.join("summary.csv")).unwrap().lines().count(), 3);
    assert_eq!(
        std::fs::read_to_string(out.join("current.toml")).unwrap(),
        std::fs::read_to_string(out.join("iter-002/weights.toml")).unwrap()
    );

    // A rerun finds everything finished; losing the last marker redoes only the verdict.
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    std::fs::remove_file(out.join("iter-002/result.json")).unwrap();
    tune::run_train(&a.a).unwrap();
    assert_eq!(std::fs::read_to_string(out.join("summary.csv")).unwrap(), summary);
    let mut other = words.to_vec();
    other[15] = "3";
    let b: Train = args(&other);
    assert!(tune::run_train(&b.a).unwrap_err().to_string().contains("other settings"));
    let _ = std::fs::remove_dir_all(out);
}

#[test]
fn command_line_definitions_are_consistent() {
    use clap::CommandFactory;
    Tune::command().debug_assert();
    Spsa::command().debug_assert();
    Train::command().debug_assert();
    // Defaults documented in the help: validation split, pawn scale, fishtest's SPSA gains.
    let t: Tune = args(&["--data", "d", "--out", "o"]);
    assert_eq!((t.a.fit.validation, t.a.fit.l2, t.a.seed), (0.1, 0.0, 1));
    let s: Spsa = args(&["--param", "value.F=300..800", "--games", "10"]);
    assert_eq!((s.a.alpha, s.a.gamma, s.a.a_ratio, s.a.r_end), (0.602, 0.101, 0.1, 0.002));
}

#[test]
fn spsa_against_an_opponent_steers_by_the_difference_of_scores() {
    let out = tmp("spsa-opponent");
    let words = [
        "--variant",
        "chess",
        "--param",
        "value.N=250..400",
        "--opponent",
        "name=opp set.value.Q=800",
        "--games",
        "16",
        "--pairs-per-iteration",
        "1",
        "--nodes",
        "200",
        "--r-end",
        "0.5",
        "--seed",
        "8",
        "--quiet",
        "--out",
        s(&out),
    ];
    let a: Spsa = args(&words);
    tune::run_spsa(&a.a).unwrap();
    let csv = std::fs::read_to_string(out.join("spsa.csv")).unwrap();
    let rows: Vec<Vec<f64>> = csv.lines().skip(1).map(|l| l.split(',').map(|x| x.parse().unwrap()).collect()).collect();
    // 16 games = 4 iterations; each plays one pair for theta+ and one for theta- against
    // the opponent, and records both engines' games against it.
    assert_eq!(rows.len(), 4, "{csv}");
    let Variant::Narrow(r) = Variant::load("chess", &[]).unwrap() else { panic!() };
    let ev = EngineConfig::for_variant("chess").unwrap().evaluator(r, &[]).unwrap();
    let mut previous = ev.weight("value.N.mg").unwrap() as f64;
    // The seed gives decisive differences, so the rule below is tested both ways.
    assert!(rows.iter().any(|r| r[4] != 0.0) && rows.iter().any(|r| r[4] == 0.0), "{csv}");
    for r in &rows {
        assert_eq!(r[1] + r[2] + r[3], 4.0, "{csv}");
        // Half a difference of two pair scores (each within -2..=2), in halves.
        assert!(r[4].abs() <= 2.0 && (2.0 * r[4]).fract() == 0.0, "{csv}");
        // The parameter moves exactly when theta+ and theta- scored differently.
        assert_eq!(r[4] != 0.0, (r[5] - previous).abs() > 1e-9, "{csv}");
        previous = r[5];
    }
    // A rerun with another opponent is refused: its trajectory would mix two objectives.
    let mut other = words;
    other[5] = "name=opp set.value.Q=900";
    let b: Spsa = args(&other);
    let err = tune::run_spsa(&b.a).unwrap_err().to_string();
    assert!(err.contains("other settings"), "{err}");
}
