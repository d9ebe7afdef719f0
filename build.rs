//! Records the commit the binary is built from, so every report names the engine that
//! played it (`report::card`). Outside a git checkout, or without git, it is "unknown";
//! uncommitted changes to the engine's sources mark it "+changes".

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let changed = git(&["status", "--porcelain", "--", "src", "configs/engines"]).is_some_and(|s| !s.is_empty());
    let id = if changed { format!("{commit}+changes") } else { commit };
    println!("cargo:rustc-env=FAIRYLAB_COMMIT={id}");
    // A new commit moves HEAD's ref; a checkout moves HEAD itself.
    for path in ["HEAD", "refs/heads", "index"] {
        if let Some(p) = git(&["rev-parse", "--git-path", path]) {
            println!("cargo:rerun-if-changed={p}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
