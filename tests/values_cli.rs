//! `values regress`, `values imbalance` and `experiment`: bad input is a clear error (never
//! a panic), experiment files are checked before anything runs, and a tiny end-to-end run
//! on orthodox chess produces the table, the files and correctly oriented imbalance games.

use clap::{Parser, Subcommand};
use fairylab::cli::values::{self, ExperimentArgs, ValuesArgs};
use fairylab::tournament::output::read_games;
use fairylab::values::{Experiment, Pieces, ValuesError};
use fairylab::Variant;
use std::path::{Path, PathBuf};

/// The subcommands as `src/main.rs` mounts them.
#[derive(Parser, Debug)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Values(ValuesArgs),
    Experiment(ExperimentArgs),
}

fn parse(args: &[&str]) -> Result<Command, clap::Error> {
    Cli::try_parse_from(std::iter::once("fairylab").chain(args.iter().copied())).map(|c| c.command)
}

/// Runs a command line and returns its error message (the line main prints).
fn error_of(args: &[&str]) -> String {
    let result = match parse(args).unwrap_or_else(|e| panic!("{args:?} should parse: {e}")) {
        Command::Values(v) => values::run(&v),
        Command::Experiment(e) => values::experiment(&e),
    };
    result.expect_err(&format!("{args:?} should fail")).to_string()
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fairylab-values-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn missing_required_flags_are_clap_errors() {
    assert!(parse(&["values", "imbalance", "--variant", "chess"]).unwrap_err().to_string().contains("--compare"));
    assert!(parse(&["values", "regress"]).unwrap_err().to_string().contains("--variant"));
    assert!(parse(&["values", "regress", "--variant", "chess", "--games", "many"]).is_err());
    assert!(parse(&["experiment"]).is_err());
}

#[test]
fn bad_values_are_clear_errors() {
    let cases: &[(&[&str], &str)] = &[
        (&["values", "regress", "--variant", "nosuch", "--data", "x"], "nosuch"),
        (&["values", "regress", "--variant", "chess", "--option", "wings", "--data", "x"], "wings"),
        (&["values", "regress", "--variant", "chess"], "--data"),
        (&["values", "regress", "--variant", "chess", "--games", "4"], "--out"),
        (&["values", "regress", "--variant", "chess", "--games", "4", "--data", "x", "--out", "y"], "either"),
        (&["values", "regress", "--variant", "chess", "--data", "/nonexistent/run"], "games.csv"),
        (&["values", "regress", "--variant", "chess", "--data", "x", "--model", "probit"], "probit"),
        (&["values", "regress", "--variant", "chess", "--data", "x", "--bootstrap", "3"], "bootstrap"),
        (&["values", "regress", "--variant", "chess", "--data", "x", "--compare", "F=R"], "no piece 'F'"),
        (&["values", "regress", "--variant", "chess", "--games", "4", "--out", "y", "--jitter", "2"], "jitter"),
        (
            &["values", "regress", "--variant", "chess", "--games", "4", "--out", "y", "--imbalance-fraction", "1.5"],
            "fraction",
        ),
        (
            &["values", "regress", "--variant", "chess", "--games", "4", "--out", "y", "--engine-set", "value.Z=3"],
            "value.Z",
        ),
        (
            &["values", "regress", "--variant", "chess", "--games", "4", "--out", "y", "--concurrency", "0"],
            "concurrency",
        ),
        (&["values", "imbalance", "--variant", "chess", "--compare", "F=R"], "no piece 'F'"),
        (&["values", "imbalance", "--variant", "chess", "--compare", "N"], "X=Y"),
        (&["values", "imbalance", "--variant", "chess", "--compare", "N=B", "--precision=-0.1"], "precision"),
        (&["values", "imbalance", "--variant", "chess", "--compare", "N=B", "--games", "1"], "--games"),
        (&["values", "imbalance", "--variant", "chess", "--compare", "N=B", "--calibration", "z"], "calibration"),
        (&["values", "imbalance", "--variant", "chess", "--compare", "N=B", "--calibration", "e4=e5"], "e4"),
        (&["values", "imbalance", "--variant", "chess", "--compare", "N=B", "--calibration", "a1=a8"], "pawns"),
        (&["values", "imbalance", "--variant", "chess", "--compare", "Q+Q=R"], "no 'Q'"),
        (&["experiment", "/nonexistent/exp.toml"], "cannot read"),
        (&["values", "imbalance", "--variant", "chess", "--compare", "N=B", "--bracket", "1"], "2 or 3"),
        (&["values", "imbalance", "--variant", "chess", "--compare", "N=B", "--engine", "name=x nodes=5"], "cmd="),
        (&["values", "imbalance", "--variant", "chess", "--compare", "N=B", "--engine", "cmd=/bin/true"], "name"),
        (&["values", "regress", "--variant", "chess", "--games", "4", "--out", "y", "--engine", "name=x"], "cmd="),
    ];
    for (args, needle) in cases {
        let e = error_of(args);
        assert!(e.contains(needle), "{args:?}: error '{e}' does not mention '{needle}'");
    }
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// fairylab itself as an external UCI engine (`fairylab uci`).
fn own_uci_engine() -> String {
    format!("name=fl cmd={} arg=uci", env!("CARGO_BIN_EXE_fairylab"))
}

#[test]
fn an_external_engine_plays_every_study_and_brackets_price_the_comparisons() {
    let out = dir("external");
    let o = out.to_str().unwrap();
    let engine = own_uci_engine();
    let args = ["values", "imbalance", "--variant", "chess", "--compare", "R=N", "--games", "8", "--nodes", "100"];
    let tail = ["--batch", "4", "--min-pairs", "4", "--bracket", "2", "--engine", &engine, "--out", o, "--quiet"];
    let all: Vec<&str> = args.iter().chain(&tail).copied().collect();
    run_ok(&all);
    // Every run folder records the player, so another engine never resumes it.
    let manifest = std::fs::read_to_string(out.join("R-vs-N/run.toml")).unwrap();
    assert!(manifest.contains("player fl") && manifest.contains("uci"), "{manifest}");
    let e = error_of(&args.iter().chain(&["--out", o, "--quiet"]).copied().collect::<Vec<_>>());
    assert!(e.contains("different run"), "{e}");
    // The bracket: two matches of R against N plus k pawns, k around the estimate, each
    // with its games, and the comparison's row priced by it (or saying why not).
    let doc = read_json(&out.join("brackets.json"));
    let b = &doc["brackets"][0];
    assert_eq!(b["comparison"], "R=N");
    let points = b["points"].as_array().unwrap();
    assert_eq!(points.len(), 2, "{b}");
    let ks: Vec<i64> = points.iter().map(|p| p["pawns"].as_i64().unwrap()).collect();
    assert_eq!(ks[1], ks[0] + 1);
    for p in points.iter().filter(|p| p["pawns"] != 0) {
        assert_eq!(p["games"], 8, "{p}");
        let k = p["pawns"].as_i64().unwrap();
        let games = read_games(&out.join(format!("bracket/R-vs-N/k{k:+}"))).unwrap();
        assert_eq!(games.len(), 8);
    }
    let rows = read_table(&out);
    assert!(rows.iter().any(|r| r["piece"] == "R-N" && r["method"] == "imbalance-bracket"), "no bracket row");
    // The regression's corpus and an experiment by the same engine.
    let reg = dir("external-regress");
    let r = reg.to_str().unwrap();
    run_ok(&[
        "values",
        "regress",
        "--variant",
        "chess",
        "--games",
        "6",
        "--nodes",
        "100",
        "--bootstrap",
        "10",
        "--out",
        r,
        "--engine",
        &engine,
        "--quiet",
    ]);
    assert_eq!(read_games(&reg).unwrap().len(), 6);
    assert!(std::fs::read_to_string(reg.join("run.toml")).unwrap().contains("player fl"));
    let exp = dir("external-experiment");
    let file = exp.with_extension("toml");
    std::fs::write(
        &file,
        "name = \"tiny-external\"\nvariant = \"chess\"\nseed = 2\nnodes = 100\n[imbalance]\ncompare = [\"B=N\"]\n\
         max_games = 4\nbatch_pairs = 2\nmin_pairs = 2\nbracket = 3\nneutral_weights = true\n\
         [regress]\ngames = 4\nbootstrap = 10\njitter = 0.2\nstart_fit = true\n",
    )
    .unwrap();
    // The file's weight settings change fairylab's engine only: the external one plays
    // without them (as `values regress --jitter` with --engine is refused outright).
    run_ok(&["experiment", file.to_str().unwrap(), "--out", exp.to_str().unwrap(), "--engine", &engine, "--quiet"]);
    assert_eq!(read_games(&exp.join("default/regress")).unwrap().len(), 4);
    let doc = read_json(&exp.join("default/imbalance/brackets.json"));
    assert_eq!(doc["brackets"][0]["points"].as_array().unwrap().len(), 3);
    assert!(std::fs::read_to_string(exp.join("default/imbalance/B-vs-N/run.toml")).unwrap().contains("player fl"));
    for d in [&out, &reg, &exp] {
        let _ = std::fs::remove_dir_all(d);
    }
    let _ = std::fs::remove_file(&file);
}

#[test]
fn the_scale_check_replays_the_pawn_odds_under_each_comparisons_weights() {
    let out = dir("scale-check");
    let o = out.to_str().unwrap();
    let args = ["values", "imbalance", "--variant", "chess", "--compare", "B=N", "--compare", "R=N+P", "--games", "4"];
    let tail = ["--nodes", "100", "--batch", "2", "--min-pairs", "2", "--scale-check", "--out", o, "--quiet"];
    run_ok(&args.iter().chain(&tail).copied().collect::<Vec<_>>());
    let doc = read_json(&out.join("brackets.json"));
    let configs = doc["scale_check"]["configurations"].as_array().unwrap();
    let names: Vec<&str> = configs.iter().map(|c| c["weights_of"].as_str().unwrap()).collect();
    assert_eq!(names, ["default", "B=N", "R=N+P"]);
    assert!(configs.iter().all(|c| c["games"] == 4), "{configs:?}");
    assert_eq!(read_games(&out.join("scale-check/R-vs-N+P")).unwrap().len(), 4);
    let rows = read_table(&out);
    for m in ["pawn-odds@B=N", "pawn-odds@R=N+P"] {
        assert!(rows.iter().any(|r| r["piece"] == "elo-per-pawn" && r["method"] == m), "no {m} row");
    }
    // One configuration for the whole study: nothing to replay.
    let one = dir("scale-check-one");
    let o = one.to_str().unwrap();
    let tail =
        ["--nodes", "100", "--batch", "2", "--min-pairs", "2", "--scale-check", "--no-neutral", "--out", o, "--quiet"];
    run_ok(&args.iter().chain(&tail).copied().collect::<Vec<_>>());
    let doc = read_json(&one.join("brackets.json"));
    assert_eq!(doc["scale_check"]["configurations"].as_array().unwrap().len(), 1);
    assert!(!one.join("scale-check").exists());
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_dir_all(&one);
}

#[test]
fn shipped_experiment_files_parse() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/experiments");
    let mut names = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap() {
        let path = entry.unwrap().path();
        let e = Experiment::load(&path).unwrap_or_else(|err| panic!("{err}"));
        names.push(e.name.clone());
        // A card study replays a report's regression only (data/studies/README.md).
        let card = e.name.ends_with("-card");
        assert!((e.imbalance.is_some() || card) && e.regress.is_some(), "{}", e.name);
    }
    names.sort();
    assert_eq!(
        names,
        [
            "bland-chess-46-card",
            "bland-chess-46-values",
            "bomber-vs-rook-grand",
            "bomber-vs-rook-hangars",
            "chess-card",
            "chess-values",
            "chess-values-bracketed",
            "chess-values-external",
            "chess-values-middlegame",
            "chess-values-redundant",
            "flying-bombers-grand-card",
            "flying-bombers-grand-values-middlegame",
            "flying-bombers-hangars-card",
            "flying-bombers-hangars-values-bracketed",
            "flying-bombers-hangars-values-middlegame",
            "noble-wings-card"
        ]
    );
    // Every study from middlegame starts plays from the positions only (no random plies).
    for name in [
        "chess-values-middlegame",
        "flying-bombers-grand-values-middlegame",
        "flying-bombers-hangars-values-bracketed",
        "flying-bombers-hangars-values-middlegame",
    ] {
        let e = Experiment::load(&root.join(format!("{name}.toml"))).unwrap();
        let i = e.imbalance.unwrap();
        assert!(i.random_plies == 0 && i.starts.is_some_and(|p| p.exists()), "{name}");
        // ...and compares them with the regression on the material those positions hold.
        assert_eq!(e.regress.unwrap().phase_min_pieces, Some(0.75), "{name}");
    }
    // The redundant chess study has at least three more comparisons than unknowns (the
    // pawn is the unit), so its chain's additivity is tested.
    let redundant = Experiment::load(&root.join("chess-values-redundant.toml")).unwrap().imbalance.unwrap();
    let mut unknowns: Vec<char> =
        redundant.compare.iter().flat_map(|c| c.chars()).filter(|c| c.is_ascii_uppercase() && *c != 'P').collect();
    unknowns.sort();
    unknowns.dedup();
    assert!(redundant.compare.len() >= unknowns.len() + 3, "{:?} for {unknowns:?}", redundant.compare);
    // The middlegame study's starts ship with the repository and are checked at load.
    let middlegame = Experiment::load(&root.join("chess-values-middlegame.toml")).unwrap().imbalance.unwrap();
    assert_eq!((middlegame.random_plies, middlegame.calibration.as_deref()), (0, Some("P")));
    // A file that names no calibration gets the variant's default, as the report does: the
    // f-pawn on 8 files, the two central pawns elsewhere (Bland's f-pawn stands by holes).
    let bland = Experiment::load(&root.join("bland-chess-46-values.toml")).unwrap().imbalance.unwrap();
    assert_eq!(bland.calibration, None);
    assert_eq!(bland.calibration_for(Variant::load("bland-chess-46", &[]).unwrap()), "cd");
    let text =
        "name = \"t\"\nvariant = \"chess\"\nseed = 1\nnodes = 100\n[imbalance]\ncompare = [\"N=B\"]\nmax_games = 4\n";
    let chess = Experiment::parse(text, "t.toml").unwrap().imbalance.unwrap();
    assert_eq!(chess.calibration_for(Variant::load("chess", &[]).unwrap()), "f");
    let mut broken = std::fs::read_to_string(root.join("chess-values-middlegame.toml")).unwrap();
    broken = broken.replace("data/starts/chess-middlegames.epd", "data/starts/missing.epd");
    let e = Experiment::parse(&broken, "m.toml").unwrap_err().to_string();
    assert!(e.contains("starts") && e.contains("missing.epd"), "{e}");
    // An external engine refuses fairylab's weight settings: the study for one sets none.
    let external = Experiment::load(&root.join("chess-values-external.toml")).unwrap();
    assert!(!external.imbalance.unwrap().neutral_weights);
    assert_eq!(external.regress.unwrap().jitter, 0.0);
    for bomber in ["bomber-vs-rook-grand", "bomber-vs-rook-hangars"] {
        let e = Experiment::load(&root.join(format!("{bomber}.toml"))).unwrap();
        assert!(e.option_sets.contains(&vec![]) && e.option_sets.contains(&vec!["immediate-landing".to_string()]));
        assert_eq!(e.imbalance.unwrap().compare, ["F=R"]);
    }
}

#[test]
fn experiment_file_errors_name_the_problem() {
    let good =
        "name = \"t\"\nvariant = \"chess\"\nseed = 1\nnodes = 100\n[imbalance]\ncompare = [\"N=B\"]\nmax_games = 4\n";
    assert!(Experiment::parse(good, "t.toml").is_ok());
    let cases: &[(&str, &str)] = &[
        ("name = \"t\"\nvariant = \"chess\"\nseed = 1\n[regress]\ngames = 4\n", "nodes"),
        (&good.replace("seed = 1", "seed = 1\ncolour = 2"), "colour"),
        (&good.replace("chess", "nosuch"), "nosuch"),
        (&good.replace("N=B", "F=R"), "no piece 'F'"),
        (&good.replace("nodes = 100", "nodes = 0"), "nodes"),
        (&good.replace("max_games = 4", "max_games = 4\nprecision = 0"), "precision"),
        (&good.replace("max_games = 4", "max_games = 4\ncalibration = \"q\""), "calibration"),
        (&format!("option_sets = [[\"wings\"]]\n{good}"), "wings"),
        ("name = \"t\"\nvariant = \"chess\"\nseed = 1\nnodes = 10\n", "nothing to do"),
        ("name = \"t\"\nvariant = \"chess\"\nseed = 1\nnodes = 10\n[regress]\ngames = 4\nmodels = [\"probit\"]\n", "probit"),
        ("name = \"t\"\nvariant = \"chess\"\nseed = 1\nnodes = 10\nengine = { \"value.Z\" = 1 }\n[regress]\ngames = 4\n", "value.Z"),
        ("name = \"t\"\nvariant = [1]\n", "line 2"),
        (&good.replace("max_games = 4", "max_games = 4\nbracket = 4"), "bracket"),
        (&good.replace("nodes = 100", "nodes = 100\nplayer = \"name=x\""), "player"),
        ("name = \"t\"\nvariant = \"chess\"\nseed = 1\nnodes = 10\n[regress]\ngames = 4\nphase_min_pieces = 0.5\n", "phase_min_pieces"),
        ("name = \"t\"\nvariant = \"chess\"\nseed = 1\nnodes = 10\n[regress]\ngames = 4\nphase_min_pieces = 1.5\n", "phase_min_pieces"),
        ("name = \"t\"\nvariant = \"chess\"\nseed = 1\nnodes = 10\n[regress]\ngames = 4\nall_setups = true\n", "no setup choices"),
    ];
    for (text, needle) in cases {
        let e = Experiment::parse(text, "t.toml").expect_err(text);
        // Every refusal names the file it is about, as a variant a caller can match.
        let origin = match &e {
            ValuesError::Experiment { origin, .. } | ValuesError::ExperimentSyntax { origin, .. } => origin.as_str(),
            other => panic!("{other:?} is not an experiment file's error"),
        };
        assert_eq!(origin, "t.toml");
        let e = e.to_string();
        assert!(e.contains(needle) && e.starts_with("t.toml"), "'{e}' should name '{needle}' and the file");
    }
}

/// `all_setups` starts the regression's games from every pair of setup choices, so the
/// pieces only other setups hold (Bland's Knight and Modern War Machine) are on the board.
#[test]
fn experiment_regression_can_start_from_every_setup() {
    for all in [false, true] {
        let out = dir(&format!("setups-{all}"));
        let file = out.with_extension("toml");
        std::fs::write(
            &file,
            format!(
                "name = \"s\"\nvariant = \"bland-chess-46\"\nseed = 2\nnodes = 60\n[regress]\ngames = 18\n\
                 bootstrap = 10\nimbalance_fraction = 0.0\nall_setups = {all}\n"
            ),
        )
        .unwrap();
        run_ok(&[
            "experiment",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--quiet",
            "--concurrency",
            "2",
        ]);
        let games = read_games(&out.join("default/regress")).unwrap();
        assert_eq!(games.len(), 18);
        let other =
            games.iter().filter(|g| (g.white_material.clone() + &g.black_material).contains(['M', 'N'])).count();
        if all {
            assert!(other > 0, "no game started from a Knight or Modern War Machine setup");
        } else {
            assert_eq!(other, 0, "the default setup holds War Machines only");
        }
    }
}

fn run_ok(args: &[&str]) {
    match parse(args).unwrap() {
        Command::Values(v) => values::run(&v).unwrap(),
        Command::Experiment(e) => values::experiment(&e).unwrap(),
    }
}

fn read_table(dir: &Path) -> Vec<serde_json::Value> {
    let json: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("values.json")).unwrap()).unwrap();
    let csv = std::fs::read_to_string(dir.join("values.csv")).unwrap();
    let header = csv.lines().next().unwrap();
    assert_eq!(header, "variant,options,piece,value,ci_low,ci_high,support,unit,method,games,nodes,seed,version,note");
    assert_eq!(csv.lines().count(), json.len() + 1);
    json
}

#[test]
fn imbalance_end_to_end_swaps_the_imbalance_between_colours() {
    let out = dir("imbalance");
    let o = out.to_str().unwrap();
    let args = ["values", "imbalance", "--variant", "chess", "--compare", "R=N", "--games", "8", "--nodes", "150"];
    let tail = ["--batch", "2", "--min-pairs", "4", "--out", o, "--quiet", "--concurrency", "2"];
    let all: Vec<&str> = args.iter().chain(&tail).copied().collect();
    run_ok(&all);
    let rows = read_table(&out);
    let pieces: Vec<&str> = rows.iter().map(|r| r["piece"].as_str().unwrap()).collect();
    assert!(pieces.contains(&"R-N"), "{pieces:?}");
    for r in &rows {
        assert_eq!(r["version"], env!("CARGO_PKG_VERSION"));
        assert_eq!(r["nodes"], 150);
        assert_eq!(r["seed"], 1);
    }
    // Pair k: game 2k has White with the rook (lacking a knight), game 2k+1 Black with it.
    let variant = Variant::load("chess", &[]).unwrap();
    let p = Pieces::of(variant).unwrap();
    let (r, n) = (p.index('R').unwrap(), p.index('N').unwrap());
    let games = read_games(&out.join("R-vs-N")).unwrap();
    assert_eq!(games.len(), 8);
    for g in &games {
        let b = variant.parse_fen(&g.opening).unwrap();
        let (w, bl) = (p.counts(&b.material(0)).unwrap(), p.counts(&b.material(1)).unwrap());
        let x_is_white = g.game_id % 2 == 0;
        let (x, y) = if x_is_white { (&w, &bl) } else { (&bl, &w) };
        assert_eq!((x[r], x[n], y[r], y[n]), (2, 1, 1, 2), "game {}: {}", g.game_id, g.opening);
    }
    // The same command again reads the finished games back and gives the same table.
    let before = std::fs::read_to_string(out.join("values.csv")).unwrap();
    run_ok(&all);
    assert_eq!(std::fs::read_to_string(out.join("values.csv")).unwrap(), before);
    // The matches' games feed the regression as ordinary run directories, which record
    // their node count for the table.
    assert_eq!(fairylab::values::regression::dataset::run_nodes(&out.join("R-vs-N")), Some(150));
    let e = error_of(&["values", "regress", "--variant", "capablanca", "--data", out.join("R-vs-N").to_str().unwrap()]);
    assert!(e.contains("chess"), "{e}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn regression_end_to_end_is_reproducible_from_its_seed() {
    let (a, b) = (dir("regress-a"), dir("regress-b"));
    for d in [&a, &b] {
        let o = d.to_str().unwrap();
        run_ok(&[
            "values",
            "regress",
            "--variant",
            "chess",
            "--games",
            "16",
            "--nodes",
            "150",
            "--out",
            o,
            "--quiet",
            "--bootstrap",
            "20",
            "--skip-plies",
            "4",
            // Endgames too: 16 short games hold too few middlegame imbalances.
            "--min-pieces",
            "0",
            "--jitter",
            "0.2",
            "--compare",
            "R=N",
        ]);
    }
    // Rows are written as games finish, so compare them in id order.
    let games = |d: &Path| {
        let mut g = read_games(d).unwrap();
        g.sort_by_key(|r| r.game_id);
        g
    };
    assert_eq!(games(&a), games(&b));
    assert_eq!(
        std::fs::read_to_string(a.join("values.csv")).unwrap(),
        std::fs::read_to_string(b.join("values.csv")).unwrap()
    );
    let rows = read_table(&a);
    let get = |name: &str| rows.iter().find(|r| r["piece"] == name).cloned();
    let pawn = get("P").expect("the pawn row");
    // 16 games rarely pin the pawn down: then the unit itself has no support, and no row
    // has a number.
    if pawn["support"] == "supported" {
        assert_eq!(pawn["value"], 1.0);
    } else {
        assert_eq!(pawn["support"], "not-enough-data");
        // Values in pawns need the pawn; the orthodox scale does not.
        let in_pawns = rows.iter().filter(|r| r["unit"] == "pawns");
        assert!(in_pawns.clone().count() > 0);
        assert!(in_pawns.into_iter().all(|r| r["value"].is_null() && r["support"] == "not-enough-data"), "{rows:?}");
    }
    assert_eq!(pawn["method"], "regression-logistic");
    assert!(get("white").is_some() && get("side-to-move").is_some());
    // Half the games start with a piece type missing on each side.
    let g = read_games(&a).unwrap();
    assert!(g.iter().any(|r| r.white.starts_with("without")) && g.iter().any(|r| r.white == "full"));
    for d in [&a, &b] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn experiment_end_to_end_writes_one_table_for_all_option_sets() {
    let out = dir("experiment");
    let file = out.with_extension("toml");
    std::fs::write(
        &file,
        "name = \"tiny\"\nvariant = \"flying-bombers-hangars\"\noption_sets = [[], [\"immediate-landing\"]]\n\
         seed = 3\nnodes = 100\n[imbalance]\ncompare = [\"F=R\"]\nmax_games = 4\nbatch_pairs = 2\nmin_pairs = 2\n\
         [regress]\ngames = 60\nbootstrap = 10\nskip_plies = 2\nmin_pieces = 0.0\ninclude_imbalance_games = true\n\
         phase_min_pieces = 0.6\nstart_fit = true\n",
    )
    .unwrap();
    run_ok(&["experiment", file.to_str().unwrap(), "--out", out.to_str().unwrap(), "--quiet", "--concurrency", "2"]);
    // The file it ran lies beside the table, so the table kept as a study says what it measured.
    assert_eq!(std::fs::read_to_string(out.join("experiment.toml")).unwrap(), std::fs::read_to_string(&file).unwrap());
    // One comparison values no single piece: the table is no study of the estimators, but
    // its regression's values on the orthodox scale still serve an answer card.
    let studies = fairylab::report::study::Study::read(&out.join("values.csv")).unwrap();
    assert!(studies.iter().all(|s| s.for_card_only()), "{studies:?}");
    let rows = read_table(&out);
    for opts in ["", "immediate-landing"] {
        let of = |piece: &str, method: &str| {
            rows.iter().any(|r| r["options"] == opts && r["piece"] == piece && r["method"] == method)
        };
        assert!(of("F-R", "imbalance"), "{opts}: no imbalance F-R row");
        // Four calibration games may all go one side's way (no finite Elo, so no row).
        let dir = if opts.is_empty() { "default" } else { opts };
        let cal = read_games(&out.join(dir).join("imbalance/pawn-odds")).unwrap();
        assert_eq!(cal.len(), 4, "{opts}: calibration games");
        // Score of the side with the extra pawn: White in even games, Black in odd ones.
        let x: Vec<f64> = cal
            .iter()
            .map(|g| g.white_score().map(|w| if g.game_id % 2 == 0 { w } else { 1.0 - w }).unwrap())
            .collect();
        let one_sided = x.iter().all(|&v| v == 1.0) || x.iter().all(|&v| v == 0.0);
        assert!(of("elo-per-pawn", "pawn-odds") || one_sided, "{opts}: no calibration row ({x:?})");
        assert!(of("F-R", "regression-logistic"), "{opts}: no regression F-R row");
        assert!(of("P", "regression-logistic"), "{opts}: no pawn row");
        // The phase refit keeps only the positions with at least 0.6 of the pieces.
        let positions = |method: &str| {
            let r = rows.iter().find(|r| r["options"] == opts && r["piece"] == "P" && r["method"] == method);
            let note = r.unwrap_or_else(|| panic!("{opts}: no {method} pawn row"))["note"].as_str().unwrap();
            let before = note.split(" positions").next().unwrap();
            before.rsplit(' ').next().unwrap().parse::<u64>().unwrap_or_else(|_| panic!("{note}"))
        };
        let (all, fuller) = (positions("regression-logistic"), positions("regression-logistic-min-pieces-0.6"));
        assert!(0 < fuller && fuller < all, "{opts}: {fuller} of {all} positions");
        // The start fit has one observation per distinct game: the material it began with.
        let start = rows
            .iter()
            .find(|r| r["options"] == opts && r["piece"] == "P" && r["method"] == "regression-logistic-start")
            .unwrap_or_else(|| panic!("{opts}: no start-fit pawn row"));
        let note = start["note"].as_str().unwrap();
        let starts: u64 = note.split(" game starts").next().unwrap().rsplit(' ').next().unwrap().parse().unwrap();
        let played = read_games(&out.join(dir).join("regress")).unwrap().len() + 4 * 2;
        assert!(0 < starts && starts as usize <= played && starts < all, "{opts}: {starts} starts");
    }
    assert!(rows.iter().all(|r| r["seed"] == 3 && r["nodes"] == 100 && r["variant"] == "flying-bombers-hangars"));
    assert!(out.join("default/imbalance/F-vs-R/games.csv").exists());
    assert!(out.join("immediate-landing/regress/games.csv").exists());
    // On two machines: each plays its shard, the folders merge, and the unsharded run on
    // the merged folder plays nothing more and writes the same table.
    let mut parts = vec![];
    for i in 1..=2 {
        let part = dir(&format!("experiment-part{i}"));
        let shard = format!("{i}/2");
        let args =
            ["experiment", file.to_str().unwrap(), "--out", part.to_str().unwrap(), "--quiet", "--shard", &shard];
        run_ok(&args);
        assert!(!part.join("values.csv").exists(), "a shard writes no table");
        assert_eq!(read_games(&part.join("default/regress")).unwrap().len(), 30, "half the corpus");
        parts.push(part);
    }
    let merged = dir("experiment-merged");
    fairylab::tournament::output::merge_tree(&parts, &merged).unwrap();
    let before = std::fs::read(merged.join("default/regress/games.csv")).unwrap();
    run_ok(&["experiment", file.to_str().unwrap(), "--out", merged.to_str().unwrap(), "--quiet"]);
    assert_eq!(std::fs::read(merged.join("default/regress/games.csv")).unwrap(), before, "nothing replayed");
    assert_eq!(
        std::fs::read_to_string(merged.join("values.csv")).unwrap(),
        std::fs::read_to_string(out.join("values.csv")).unwrap()
    );
    for d in parts.iter().chain([&merged, &out]) {
        let _ = std::fs::remove_dir_all(d);
    }
    let _ = std::fs::remove_file(&file);
}

#[test]
fn all_setups_gives_the_setup_only_pieces_values() {
    let out = dir("setups");
    let o = out.to_str().unwrap();
    let args = [
        "values",
        "regress",
        "--variant",
        "bland-chess-46",
        // Enough games and nodes that the fit succeeds for any seed, not for a lucky one:
        // at 80 games of 200 nodes about one seed in twelve left the fitted pawn worth
        // non-positive; at this size none of sixteen did.
        "--games",
        "200",
        "--nodes",
        "300",
        "--all-setups",
        "--bootstrap",
        "10",
        "--out",
        o,
        "--quiet",
        "--concurrency",
        "2",
    ];
    run_ok(&args);
    // Games start from many setup combinations (the FEN's 7th field), each legal for it.
    let games = read_games(&out).unwrap();
    let setups: std::collections::BTreeSet<&str> =
        games.iter().filter_map(|g| g.opening.split_whitespace().nth(6)).collect();
    assert!(setups.len() >= 10, "{setups:?}");
    let rows = read_table(&out);
    for piece in ["N", "M", "W", "R"] {
        assert!(
            rows.iter().any(|r| r["piece"] == piece && r["method"] == "regression-logistic"),
            "no value for {piece}"
        );
    }
    let _ = std::fs::remove_dir_all(&out);
    // Without setup choices the flag is an error naming the game.
    let e = error_of(&["values", "regress", "--variant", "chess", "--games", "4", "--all-setups", "--out", o]);
    assert!(e.contains("chess has no setup choices"), "{e}");
}

#[test]
fn imbalance_calibrates_as_the_report_does_unless_told() {
    use fairylab::values::pieces::default_calibration;
    assert_eq!(default_calibration(fairylab::Variant::load("chess", &[]).unwrap()), "f");
    assert_eq!(default_calibration(fairylab::Variant::load("flying-bombers-grand", &[]).unwrap()), "ef");
}

/// A `positions.csv` in the recorded format: `(game, ply, fen, score, capture)` rows.
fn write_positions(dir: &Path, rows: &[(u64, u32, &str, i32, bool)]) {
    std::fs::create_dir_all(dir).unwrap();
    let mut text = String::from("game_id,ply,fen,score_white,capture,result\n");
    for (g, ply, fen, score, capture) in rows {
        text += &format!("{g},{ply},{fen},{score},{capture},0.5\n");
    }
    std::fs::write(dir.join("positions.csv"), text).unwrap();
}

#[test]
fn middlegame_starts_are_quiet_even_positions_and_each_pair_gets_its_own() {
    // Italian: e5 is held only by the c6 knight. Queen's Gambit: nothing hangs either way.
    let italian = "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7";
    let qgd = "r1bq1rk1/pp1nbppp/2p1pn2/3p4/2PP4/2NBPN2/PP3PPP/R1BQ1RK1 w - - 0 8";
    let pawn_down = "r1bq1rk1/pp1nbppp/2p1pn2/3p4/2PP4/2NBPN2/PP3PP1/R1BQ1RK1 w - - 0 8";
    let check = "rnbqkbnr/ppp2ppp/8/1B1pp3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3";
    let source = dir("starts-source");
    write_positions(
        &source,
        &[
            (1, 10, italian, 0, false),   // before the window
            (1, 22, italian, 10, false),  // the one quiet candidate of game 1
            (1, 23, qgd, 0, true),        // a capture is played from it
            (1, 24, qgd, 0, false),       // reached by that capture
            (2, 25, pawn_down, 0, false), // uneven material
            (2, 26, qgd, 300, false),     // a score far from even
            (2, 27, qgd, -20, false),     // the one quiet candidate of game 2
            (3, 30, check, 0, false),     // the side to move is in check
        ],
    );
    let out = dir("starts");
    let file = out.join("starts.epd");
    let (s, f) = (source.to_str().unwrap(), file.to_str().unwrap());
    let starts = ["values", "starts", "--variant", "chess", "--data", s, "--plies", "20..40", "--out", f];
    run_ok(&starts);
    let text = std::fs::read_to_string(&file).unwrap();
    let mut fens: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    fens.sort();
    assert_eq!(fens, [qgd, italian], "{text}");
    assert!(text.starts_with("# 2 starts") && text.contains("seed 1"), "{text}");
    assert!(error_of(&["values", "starts", "--variant", "chess", "--data", s, "--plies", "40-20", "--out", f])
        .contains("--plies"));
    assert!(error_of(&["values", "starts", "--variant", "chess", "--data", s, "--plies", "50..60", "--out", f])
        .contains("no position"));

    // B=N from those starts: in the Italian, Black's knight removed is the c6 one and e5
    // hangs, so the match has only the Queen's Gambit left, and its budget of 4 pairs
    // shrinks to that one pair.
    let games = out.join("games");
    let g = games.to_str().unwrap();
    let args = ["values", "imbalance", "--variant", "chess", "--compare", "B=N", "--starts", f, "--random-plies", "0"];
    let tail = ["--calibration", "P", "--games", "8", "--nodes", "100", "--min-pairs", "1", "--out", g, "--quiet"];
    run_ok(&args.iter().chain(&tail).copied().collect::<Vec<_>>());
    let variant = Variant::load("chess", &[]).unwrap();
    let start = variant.parse_fen(qgd).unwrap();
    let openings_of = |name: &str| {
        let mut rows = read_games(&games.join(name)).unwrap();
        rows.sort_by_key(|r| r.game_id);
        rows.into_iter().map(|r| r.opening).collect::<Vec<String>>()
    };
    let openings = openings_of("B-vs-N");
    let expect = |w: &str, b: &str| start.without(0, w).unwrap().without(1, b).unwrap().fen();
    // With starts, each letter removes an instance picked by the position (`N*`).
    assert_eq!(openings, [expect("N*", "B*"), expect("B*", "N*")]);
    // Each match keeps the starts its own removals leave quiet: the calibration keeps both,
    // pair k from the file's position k.
    let in_file: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let calibration: Vec<String> = in_file
        .iter()
        .flat_map(|fen| {
            let b = variant.parse_fen(fen).unwrap();
            [b.without(1, "P*").unwrap().fen(), b.without(0, "P*").unwrap().fen()]
        })
        .collect();
    assert_eq!(openings_of("pawn-odds"), calibration);
    let unit = read_table(&games).into_iter().find(|r| r["piece"] == "elo-per-pawn").expect("the pawn-odds row");
    let note = unit["note"].as_str().unwrap();
    assert!(note.ends_with("White lacks P* / Black lacks P*"), "the table says which pawns went: {note}");
    // A file of positions none of which the study can use is an error that says why.
    let only_italian = out.join("italian.epd");
    std::fs::write(&only_italian, format!("{italian}\n")).unwrap();
    let e = error_of(&[
        "values",
        "imbalance",
        "--variant",
        "chess",
        "--compare",
        "B=N",
        "--starts",
        only_italian.to_str().unwrap(),
        "--calibration",
        "P",
        "--out",
        out.join("none").to_str().unwrap(),
        "--quiet",
    ]);
    assert!(e.contains("none of the 1 start positions"), "{e}");
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_dir_all(&source);
}
