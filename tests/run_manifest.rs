//! `run.toml` as a TOML manifest: readable by any TOML reader, a refused resume names what
//! differs, and folders written before the manifest (fixtures in `tests/fixtures/old-runs`,
//! written by the build just before it) still resume, extend and merge.

use fairylab::tournament::engines::EngineSpec;
use fairylab::tournament::manifest::{self, Manifest, Opened, RunError};
use fairylab::Variant;
use std::path::{Path, PathBuf};
use std::process::Command;

fn fairylab(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_fairylab")).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fairylab-manifest-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn signature(spec: &str) -> String {
    let v = Variant::load("chess", &[]).unwrap();
    format!("{:016x}", EngineSpec::parse(spec).unwrap().signature(v).unwrap().unwrap())
}

/// Copies an old-form fixture folder, stamping today's engine signatures into its
/// `engine_signature` line: the fixture was written by the engine of its day, and this
/// test is about the file format, not about the engine staying unchanged.
fn old_folder(fixture: &str, to: &Path, signatures: &[String]) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/old-runs").join(fixture);
    std::fs::create_dir_all(to).unwrap();
    for f in ["games.csv", "positions.csv"] {
        std::fs::copy(from.join(f), to.join(f)).unwrap();
    }
    let text = std::fs::read_to_string(from.join("run.toml")).unwrap();
    assert!(text.contains("engines = [EngineSpec {") || text.contains("adjudication = Adjudication {"));
    let stamped: String = text
        .lines()
        .map(|l| match l.starts_with("engine_signature = ") {
            true => format!("engine_signature = {signatures:?}\n"),
            false => format!("{l}\n"),
        })
        .collect();
    std::fs::write(to.join("run.toml"), stamped).unwrap();
}

fn toml_of(d: &Path) -> toml::Table {
    let text = std::fs::read_to_string(d.join("run.toml")).unwrap();
    text.parse::<toml::Table>().unwrap_or_else(|e| panic!("run.toml is not TOML: {e}\n{text}"))
}

const MATCH: &[&str] = &[
    "match",
    "--variant",
    "chess",
    "--engine",
    "name=A",
    "--engine",
    "name=B set.value.N=250",
    "--random-plies",
    "4",
    "--seed",
    "42",
    "--nodes",
    "300",
    "--concurrency",
    "2",
];

#[test]
fn an_old_match_folder_resumes_then_extends_and_is_rewritten_as_a_manifest() {
    let d = dir("old-match");
    let sigs = [format!("A:{}", signature("name=A")), format!("B:{}", signature("name=B set.value.N=250"))];
    old_folder("match", &d, &sigs);
    let before = std::fs::read_to_string(d.join("games.csv")).unwrap();
    let out = d.to_str().unwrap();
    let (code, stdout, stderr) = fairylab(&[MATCH, &["--rounds", "2", "--out", out]].concat());
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("resuming: 4 games already finished"), "{stderr}");
    assert!(stdout.contains("4 games"), "{stdout}");
    assert_eq!(std::fs::read_to_string(d.join("games.csv")).unwrap(), before, "nothing replayed");
    let t = toml_of(&d);
    assert_eq!(t["version"].as_integer(), Some(1));
    assert_eq!(t["rounds"].as_integer(), Some(2));
    // Now in the new form, the folder extends like any other.
    let (code, stdout, stderr) = fairylab(&[MATCH, &["--rounds", "3", "--out", out]].concat());
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("extending") && stdout.contains("6 games"), "{stderr}\n{stdout}");
    assert!(std::fs::read_to_string(d.join("games.csv")).unwrap().starts_with(&before));
    assert_eq!(toml_of(&d)["rounds"].as_integer(), Some(3));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn an_old_match_folder_refuses_other_settings_naming_the_line() {
    let d = dir("old-refuse");
    let sigs = [format!("A:{}", signature("name=A")), format!("B:{}", signature("name=B set.value.N=250"))];
    old_folder("match", &d, &sigs);
    let mut args: Vec<&str> = MATCH.iter().map(|a| if *a == "42" { "43" } else { a }).collect();
    args.extend(["--rounds", "2", "--quiet", "--out", d.to_str().unwrap()]);
    let (code, _, stderr) = fairylab(&args);
    assert_eq!(code, 2);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("seed: 42 in the folder, 43 now"), "{stderr}");
    assert!(std::fs::read_to_string(d.join("run.toml")).unwrap().contains("EngineSpec {"), "left as it was");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn an_old_selfplay_folder_resumes() {
    let d = dir("old-regress");
    old_folder("regress", &d, &[signature("name=A")]);
    let before = std::fs::read_to_string(d.join("games.csv")).unwrap();
    let (code, _, stderr) = fairylab(&[
        "values",
        "regress",
        "--variant",
        "chess",
        "--games",
        "4",
        "--nodes",
        "100",
        "--concurrency",
        "2",
        "--quiet",
        "--out",
        d.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(std::fs::read_to_string(d.join("games.csv")).unwrap(), before, "nothing replayed");
    let t = toml_of(&d);
    assert_eq!(t["kind"].as_str(), Some("selfplay"));
    assert_eq!(t["nodes"].as_integer(), Some(100));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_refused_resume_names_the_flag_and_both_values() {
    let d = dir("named");
    let out = d.to_str().unwrap();
    let base = ["match", "--variant", "chess", "--rounds", "1", "--random-plies", "2", "--quiet", "--out", out];
    let (code, _, stderr) = fairylab(&[&base[..], &["--nodes", "200"]].concat());
    assert_eq!(code, 0, "{stderr}");
    toml_of(&d);
    let (code, _, stderr) = fairylab(&[&base[..], &["--nodes", "300"]].concat());
    assert_eq!(code, 2);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: ") && stderr.contains("nodes: 200 in the folder, 300 now"), "{stderr}");
    // The default pair's second engine gets 1/16 more nodes: that differs as well.
    assert!(stderr.contains("engines.B.nodes: 213 in the folder, 319 now"), "{stderr}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_library_reports_differences_as_a_typed_error() {
    let d = dir("typed");
    std::fs::create_dir_all(&d).unwrap();
    let m = Manifest {
        version: manifest::VERSION,
        kind: "tournament".into(),
        variant: "chess".into(),
        rounds: Some(4),
        nodes: Some(200),
        ..Default::default()
    };
    assert_eq!(manifest::open(&d, &m, "", true), Ok(Opened::New));
    assert_eq!(manifest::open(&d, &m, "", true), Ok(Opened::Same));
    let mut longer = m.clone();
    longer.rounds = Some(6);
    let refused = manifest::open(&d, &longer, "", false).unwrap_err().to_string();
    assert!(refused.contains("rounds: 4 in the folder, 6 now"), "{refused}");
    assert_eq!(manifest::open(&d, &longer, "", true), Ok(Opened::Extended { from_rounds: 4 }));
    let mut other = longer.clone();
    other.seed = 2;
    match manifest::open(&d, &other, "", true) {
        Err(RunError::DifferentRun { differences, .. }) => {
            assert_eq!(differences.len(), 1);
            assert_eq!((differences[0].key.as_str(), differences[0].folder.as_str()), ("seed", "0"));
        }
        r => panic!("expected DifferentRun, got {r:?}"),
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn an_old_shard_merges_with_a_new_one_once_it_has_resumed() {
    let (a, b, merged) = (dir("shard-old"), dir("shard-new"), dir("shard-merged"));
    let sigs = [format!("A:{}", signature("name=A")), format!("B:{}", signature("name=B set.value.N=250"))];
    old_folder("match", &a, &sigs);
    // The old folder becomes shard 1 of 2: the games of pair 0 only.
    let text = std::fs::read_to_string(a.join("games.csv")).unwrap();
    let kept: String = text
        .lines()
        .enumerate()
        .filter(|(i, l)| *i == 0 || l.starts_with("0,") || l.starts_with("1,"))
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    assert_eq!(kept.lines().count(), 3, "{text}");
    std::fs::write(a.join("games.csv"), kept).unwrap();
    let run = |out: &Path, shard: &str| {
        let args = [MATCH, &["--rounds", "2", "--quiet", "--shard", shard, "--out", out.to_str().unwrap()]].concat();
        let (code, _, stderr) = fairylab(&args);
        assert_eq!(code, 0, "{stderr}");
    };
    run(&b, "2/2");
    let merge = || fairylab(&["merge", a.to_str().unwrap(), b.to_str().unwrap(), "--out", merged.to_str().unwrap()]);
    let (code, _, stderr) = merge();
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.lines().count() == 1 && stderr.contains("before the manifest"), "{stderr}");
    run(&a, "1/2");
    assert_eq!(toml_of(&a)["shard"].as_str(), Some("1/2"), "rewritten as a manifest");
    let (code, stdout, stderr) = merge();
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("merged 4 games"), "{stdout}");
    assert!(toml_of(&merged).get("shard").is_none());
    // The merged folder is the whole run: resuming it plays nothing.
    let args = [MATCH, &["--rounds", "2", "--out", merged.to_str().unwrap()]].concat();
    let (code, _, stderr) = fairylab(&args);
    assert!(code == 0 && stderr.contains("resuming: 4 games already finished"), "{stderr}");
    for d in [a, b, merged] {
        let _ = std::fs::remove_dir_all(d);
    }
}
