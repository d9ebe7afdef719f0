//! `fairylab stats` as a user sees it: the figures it prints for `--penta` and `--wdl` input.
//!
//! Expected figures are worked out from the counts by hand (Python): for the pentanomial
//! `[379, 10170, 21828, 10640, 343]`, `N = 43,360` pairs, mean halved pair score
//! `mu = 43,559 / 86,720 = 0.5022947`, per-pair variance `var = 0.0341535`,
//! `LOS = Phi((mu - 1/2) / sqrt(var / N)) = 0.995139`, `Elo = 400 log10(mu / (1 - mu)) = 1.5946`,
//! `nElo = (mu - 1/2) / sqrt(2 var) * 800 / ln 10 = 3.0505`.

use std::process::Command;

fn fairylab(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_fairylab")).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// The number printed right after `label` on the line that contains it.
fn figure(out: &str, label: &str) -> f64 {
    let line = out.lines().find(|l| l.contains(label)).unwrap_or_else(|| panic!("no '{label}' in {out}"));
    let rest = &line[line.find(label).unwrap() + label.len()..];
    let word = rest.split_whitespace().next().unwrap_or_else(|| panic!("nothing after '{label}' in {line}"));
    word.trim_start_matches('+').parse().unwrap_or_else(|_| panic!("'{word}' after '{label}' in {line}"))
}

#[test]
fn penta_input_counts_its_games_and_pairs() {
    let (code, out, err) = fairylab(&["stats", "--penta", "379,10170,21828,10640,343"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("86720 games"), "{out}");
    assert!(out.contains("(43360 pairs)"), "{out}");
    assert!((figure(&out, "LOS") - 99.51).abs() < 0.006, "{out}");
    assert!((figure(&out, "Elo") - 1.59).abs() < 0.006, "{out}");
    assert!((figure(&out, "nElo") - 3.05).abs() < 0.006, "{out}");
    // The pair-level ratio: 21,828 even pairs of 43,360 = 50.3 %.
    assert!((figure(&out, "even-pair ratio") - 50.3).abs() < 0.06, "{out}");
    assert!(!out.contains("W 0  D 0  L 0"), "{out}");
}

#[test]
fn penta_input_drives_the_sprt() {
    // Logistic [0, 2]: the exact LLR lies within 3 % of the closed form
    // N/2 (s1 - s0)(2 mu - s0 - s1) / var = 21,680 * 0.0028782 * (1.0045895 - 1.0028782) / 0.0341535
    // = 3.1266 (s1 = 0.5028782), so the test passes H1.
    let (code, out, err) =
        fairylab(&["stats", "--penta", "379,10170,21828,10640,343", "--sprt", "elo0=0 elo1=2 model=logistic"]);
    assert_eq!(code, 0, "{err}");
    let llr = figure(&out, "SPRT: LLR");
    assert!((llr - 3.1266).abs() < 0.03 * 3.1266, "{out}");
    assert!(out.contains("AcceptH1"), "{out}");
}

#[test]
fn one_sided_and_tiny_samples_print_no_fake_interval() {
    let (code, out, _) = fairylab(&["stats", "--wdl", "10,0,0"]);
    assert_eq!(code, 0);
    assert!(!out.contains("inf") && !out.contains("± 0.00"), "{out}");
    // Wilson lower end for ten wins out of ten: 166.20 Elo.
    assert!(out.contains("Elo at least +166.20"), "{out}");
    assert!(out.contains("nElo not enough games (10)"), "{out}");

    let (code, out, _) = fairylab(&["stats", "--penta", "0,0,2,0,0"]);
    assert_eq!(code, 0);
    assert!(out.contains("Elo not enough games (4)"), "{out}");
    assert!(out.contains("LOS not enough games (4)"), "{out}");
    assert!(!out.contains("± 0.00"), "{out}");
}
