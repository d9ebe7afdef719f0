//! The cluster recipes (`scripts/slurm`, `scripts/k8s`): the scripts they write run a
//! sharded report to the same report as one machine, a merge of an incomplete set of
//! shards names the missing ones, bad input is refused in one line, and, where Slurm is
//! installed and the test runs as root, the self-test on a real one-node Slurm.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_fairylab");

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fairylab-slurm-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn text(o: &Output) -> (i32, String, String) {
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

fn fairylab(args: &[&str]) -> (i32, String, String) {
    text(&Command::new(BIN).args(args).output().unwrap())
}

fn script(path: &str, args: &[&str], cwd: &Path) -> (i32, String, String) {
    std::fs::create_dir_all(cwd).unwrap();
    text(&Command::new("bash").arg(repo().join(path)).args(args).current_dir(cwd).output().unwrap())
}

/// Runs a written sbatch script the way Slurm would: bash, in its `--chdir`, with the
/// array task's id in the environment.
fn sbatch_locally(script: &Path, task: Option<u32>) -> (i32, String, String) {
    let mut c = Command::new("bash");
    c.arg(script);
    if let Some(i) = task {
        c.env("SLURM_ARRAY_TASK_ID", i.to_string());
    }
    text(&c.output().unwrap())
}

const MATCH: &[&str] = &["match", "--variant", "chess", "--nodes", "200", "--rounds", "3", "--quiet"];

#[test]
fn a_merge_of_an_incomplete_set_of_shards_names_the_missing_one() {
    let root = dir("missing");
    let part = |i: u32| root.join(format!("part-{i}"));
    let play = |i: u32| {
        let (shard, out) = (format!("{i}/3"), part(i));
        let args = [MATCH, &["--shard", &shard, "--out", out.to_str().unwrap()]].concat();
        let (code, _, err) = fairylab(&args);
        assert_eq!(code, 0, "{err}");
    };
    play(1);
    play(3);
    let merged = root.join("merged");
    let merge = |parts: &[u32]| {
        let mut args = vec!["merge".to_string()];
        args.extend(parts.iter().map(|&i| part(i).to_string_lossy().into_owned()));
        args.extend(["--out".to_string(), merged.to_string_lossy().into_owned()]);
        fairylab(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let (code, out, err) = merge(&[1, 3]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.lines().count() == 1 && err.contains("shard 2/3 missing"), "{err}");
    assert!(!merged.join("games.csv").exists(), "nothing is written for an incomplete set");
    play(2);
    let (code, out, err) = merge(&[3, 1, 2]);
    assert!(code == 0 && out.contains("merged 6 games"), "{out}{err}");
    // A whole run among the inputs covers every game: no shard is missing then.
    let (code, _, err) = merge(&[1]);
    assert_eq!(code, 2, "{err}");
    let (code, out, err) = fairylab(&[
        "merge",
        merged.to_str().unwrap(),
        part(1).to_str().unwrap(),
        "--out",
        root.join("again").to_str().unwrap(),
    ]);
    assert!(code == 0 && out.contains("merged 6 games"), "{out}{err}");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn the_slurm_scripts_of_a_report_give_the_one_machine_report() {
    let root = dir("chain");
    let out = root.join("report");
    let report = ["report", "--variant", "flying-bombers-hangars", "--budget", "tiny", "--seed", "2", "--quiet"];
    let args = [
        &["--tasks", "2", "--fairylab", BIN, "--sbatch", "--time=10:00", "--dry-run"][..],
        &report,
        &["--out", out.to_str().unwrap()],
    ]
    .concat();
    let (code, stdout, err) = script("scripts/slurm/submit.sh", &args, &root);
    assert_eq!(code, 0, "{err}");
    let work = root.join("report.slurm");
    // Each step waits for the one before it, and a failure cancels the rest.
    let submits: Vec<&str> = stdout.lines().filter(|l| l.starts_with("sbatch")).collect();
    assert_eq!(submits.len(), 4, "{stdout}");
    for (line, (step, after)) in
        submits.iter().zip([("step1", ""), ("merge1", "step1"), ("step2", "merge1"), ("final", "step2")])
    {
        assert!(line.ends_with(&format!("{step}.sbatch")), "{line}");
        assert_eq!(
            line.contains(&format!("--dependency=afterok:${after} --kill-on-invalid-dep=yes")),
            !after.is_empty(),
            "{line}"
        );
    }
    let step1 = std::fs::read_to_string(work.join("step1.sbatch")).unwrap();
    for line in
        ["#SBATCH --array=1-2", "#SBATCH --cpus-per-task=1", "#SBATCH --time=10:00", "--concurrency 1 --shard \"$i/2\""]
    {
        assert!(step1.contains(line), "{line} missing from\n{step1}");
    }
    assert!(!std::fs::read_to_string(work.join("step2.sbatch")).unwrap().contains("--dry-run"));

    // The merge names a task that left nothing.
    assert_eq!(sbatch_locally(&work.join("step1.sbatch"), Some(1)).0, 0);
    let (code, _, err) = sbatch_locally(&work.join("merge1.sbatch"), None);
    assert!(code == 1 && err.contains("array task(s) 2 of 2 left no folder"), "{err}");
    // The whole chain, in Slurm's order.
    for (s, tasks) in [("step1", &[2][..]), ("merge1", &[0]), ("step2", &[1, 2]), ("final", &[0])] {
        for &i in tasks {
            let (code, _, err) = sbatch_locally(&work.join(format!("{s}.sbatch")), (i > 0).then_some(i));
            assert_eq!(code, 0, "{s} task {i}: {err}");
        }
    }
    // The second array played runs of its own: the imbalance chain from the merged regression.
    let runs = |d: &Path| -> Vec<PathBuf> {
        let mut v = vec![];
        let mut stack = vec![d.to_path_buf()];
        while let Some(p) = stack.pop() {
            for e in std::fs::read_dir(&p).unwrap().flatten() {
                if e.path().is_dir() {
                    stack.push(e.path());
                } else if e.file_name() == "games.csv" {
                    v.push(p.strip_prefix(d).unwrap().to_path_buf());
                }
            }
        }
        v
    };
    let first = runs(&work.join("step1/part-1"));
    assert!(runs(&work.join("step2/part-1")).iter().any(|r| !first.contains(r)), "no chain run in the second array");

    let whole = root.join("whole");
    let (code, _, err) = fairylab(&[&report[..], &["--out", whole.to_str().unwrap()]].concat());
    assert_eq!(code, 0, "{err}");
    let json = |d: &Path| std::fs::read_to_string(d.join("report.json")).unwrap();
    assert_eq!(json(&out), json(&whole), "the cluster's report differs from one machine's");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn the_slurm_recipe_of_a_match_merges_without_a_second_array() {
    let root = dir("match-recipe");
    let args = [&["--tasks", "3", "--fairylab", BIN, "--dry-run"][..], MATCH, &["--out", "m"]].concat();
    let (code, stdout, err) = script("scripts/slurm/submit.sh", &args, &root);
    assert_eq!(code, 0, "{err}");
    assert_eq!(stdout.lines().filter(|l| l.starts_with("sbatch")).count(), 2, "{stdout}");
    let work = root.join("m.slurm");
    assert!(!work.join("step2.sbatch").exists() && !work.join("merge1.sbatch").exists());
    let fin = std::fs::read_to_string(work.join("final.sbatch")).unwrap();
    assert!(fin.contains("merge ") && fin.contains("part-{1..3}"), "{fin}");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn the_cluster_recipes_refuse_bad_input_in_one_line() {
    let root = dir("bad");
    let slurm: &[&[&str]] = &[
        &["report", "--out", "x"],
        &["--tasks", "0", "report", "--out", "x"],
        &["--tasks", "two", "report", "--out", "x"],
        &["--tasks", "2", "--cpus", "0", "report", "--out", "x"],
        &["--tasks", "2", "--fairylab", BIN, "perft", "--out", "x"],
        &["--tasks", "2", "--fairylab", BIN, "values", "fit", "--out", "x"],
        &["--tasks", "2", "--fairylab", BIN, "values", "regress", "--data", "d", "--out", "x"],
        &["--tasks", "2", "--fairylab", BIN, "values", "regress", "--nodes", "100", "--out", "x"],
        &["--tasks", "2", "--fairylab", BIN, "experiment", "--out", "x"],
        &["--tasks", "2", "--fairylab", BIN, "report", "--shard", "1/2", "--out", "x"],
        &["--tasks", "2", "--fairylab", BIN, "report"],
        &["--tasks", "2", "--fairylab", "/nonexistent/fairylab", "report", "--out", "x"],
        &["--tasks", "2", "--fairylab", BIN, "--sbatch", "partition=x", "report", "--out", "x"],
        &["--tasks", "2", "--fairylab", BIN, "--work", "a b", "report", "--out", "x"],
        &["--tasks", "2", "--frobnicate", "report", "--out", "x"],
    ];
    let k8s: &[&[&str]] = &[
        &["--tasks", "2", "report", "--out", "x"],
        &["--tasks", "2", "--image", "i", "report"],
        &["--tasks", "2", "--image", "i", "report", "--out", "/abs"],
        &["--tasks", "2", "--image", "i", "report", "--out", "../up"],
        &["--tasks", "2", "--image", "i", "report", "--out", "a b"],
        &["--tasks", "2", "--image", "i", "--name", "Big_Name", "report", "--out", "x"],
        &["--tasks", "2", "--image", "i", "match", "--shard", "1/2", "--out", "x"],
    ];
    for (path, cases) in [("scripts/slurm/submit.sh", slurm), ("scripts/k8s/submit.sh", k8s)] {
        for args in cases {
            let (code, out, err) = script(path, args, &root);
            assert_eq!(code, 2, "{path} {args:?}: exit {code}, {out}{err}");
            let lines: Vec<&str> = err.lines().filter(|l| !l.is_empty()).collect();
            assert!(lines.len() == 1 && lines[0].starts_with("error: "), "{path} {args:?}: {err}");
            assert!(out.is_empty(), "{path} {args:?}: {out}");
        }
    }
    let _ = std::fs::remove_dir_all(root);
}

const K8S_EXAMPLE: &[&str] = &[
    "--tasks",
    "64",
    "--image",
    "REGISTRY/fairylab:TAG",
    "--name",
    "fbgc-full",
    "--manifests",
    "MANIFESTS",
    "--dry-run",
    "report",
    "--variant",
    "flying-bombers-grand",
    "--budget",
    "full",
    "--seed",
    "1",
    "--out",
    "reports/flying-bombers-grand",
];

#[test]
fn the_kubernetes_example_is_what_the_recipe_writes_and_is_an_indexed_job_chain() {
    let root = dir("k8s");
    let manifests = root.join("manifests");
    let args: Vec<&str> =
        K8S_EXAMPLE.iter().map(|&a| if a == "MANIFESTS" { manifests.to_str().unwrap() } else { a }).collect();
    let (code, _, err) = script("scripts/k8s/submit.sh", &args, &root);
    assert_eq!(code, 0, "{err}");
    let example = repo().join("scripts/k8s/example");
    for step in ["step1", "merge1", "step2", "final"] {
        let written = std::fs::read_to_string(manifests.join(format!("{step}.yaml"))).unwrap();
        let kept = std::fs::read_to_string(example.join(format!("{step}.yaml"))).unwrap();
        assert_eq!(written, kept, "scripts/k8s/example/{step}.yaml is stale: regenerate it (see README)");
        let indexed = step.starts_with("step");
        assert_eq!(written.contains("completionMode: Indexed\n  completions: 64\n"), indexed, "{written}");
        assert!(written.contains("claimName: fairylab-data") && written.contains("mountPath: /data"));
    }
    let step1 = std::fs::read_to_string(manifests.join("step1.yaml")).unwrap();
    assert!(step1.contains("i=$((JOB_COMPLETION_INDEX + 1))") && step1.contains("--shard \"$i/64\""), "{step1}");
    // YAML readers agree it is what it looks like, where python3 with PyYAML is at hand.
    let check = r#"
import sys, yaml
for f in sys.argv[1:]:
    for d in yaml.safe_load_all(open(f)):
        assert d["kind"] in ("Job", "PersistentVolumeClaim", "Pod"), f
        if d["kind"] != "Job":
            continue
        spec = d["spec"]
        pod = spec["template"]["spec"]
        assert pod["volumes"][0]["persistentVolumeClaim"]["claimName"] == "fairylab-data", f
        c = pod["containers"][0]
        assert c["command"] == ["bash", "-c"] and "fairylab" in c["args"][0], f
        assert (spec.get("completionMode") == "Indexed") == ("JOB_COMPLETION_INDEX" in c["args"][0]), f
print("ok")
"#;
    let mut files: Vec<PathBuf> =
        ["step1", "merge1", "step2", "final"].iter().map(|s| example.join(format!("{s}.yaml"))).collect();
    files.push(repo().join("scripts/k8s/volume.yaml"));
    match Command::new("python3").args(["-c", "import yaml"]).output() {
        Ok(o) if o.status.success() => {
            let o = Command::new("python3").arg("-c").arg(check).args(&files).output().unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        }
        _ => eprintln!("skipped: the YAML parse check needs python3 with PyYAML (the text checks ran)"),
    }
    let _ = std::fs::remove_dir_all(root);
}

/// Why the real-Slurm self-test cannot run here, if it cannot.
fn no_slurm() -> Option<String> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Some("not root: the self-test starts munged, slurmctld and slurmd".into());
    }
    for p in ["munged", "slurmctld", "slurmd", "sbatch"] {
        let found = Command::new("sh").args(["-c", &format!("command -v {p}")]).output();
        if !found.is_ok_and(|o| o.status.success()) {
            return Some(format!("{p} not installed (apt-get install -y slurm-wlm munge)"));
        }
    }
    None
}

#[test]
fn on_a_real_slurm_the_merged_report_equals_one_machines() {
    if let Some(reason) = no_slurm() {
        eprintln!("skipped: {reason}");
        return;
    }
    let o = Command::new("bash").arg(repo().join("scripts/slurm/selftest.sh")).env("FAIRYLAB", BIN).output().unwrap();
    let (code, out, err) = text(&o);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("selftest: passed"), "{out}");
}
