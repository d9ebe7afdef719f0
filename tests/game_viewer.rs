//! The games behind a report's figures: a tiny Flying Bombers Grand Chess report keeps
//! bomber games with the engine's scores and PGN files, and report.html steps through them
//! in headless Chromium (skipped, with a message, where no Chromium is installed).

use fairylab::games::pgn;
use fairylab::games::replay::{placement, replay, Ply};
use fairylab::report::{self, Budget, ReportConfig, ReportData};
use fairylab::Variant;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// One tiny report shared by the tests (seed 1, printed with the folder).
fn tiny() -> &'static (PathBuf, ReportData) {
    static REPORT: OnceLock<(PathBuf, ReportData)> = OnceLock::new();
    REPORT.get_or_init(|| {
        let out = std::env::temp_dir().join(format!("fairylab-game-viewer-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        let cfg = ReportConfig {
            variant: "flying-bombers-grand".into(),
            options: vec![],
            budget: Budget::Tiny,
            out: out.clone(),
            concurrency: 2,
            seed: 1,
            progress: Default::default(),
            shard: None,
            balance_pairs: None,
            nodes: None,
            studies: vec![],
        };
        eprintln!("tiny report, seed {}, in {}", cfg.seed, out.display());
        (out, report::run(&cfg).unwrap())
    })
}

fn plies(g: &report::showcase::ShownGame) -> Vec<Ply> {
    let v = Variant::load("flying-bombers-grand", &[]).unwrap();
    replay(&v.parse_fen(&g.start_fen).unwrap(), &g.moves).unwrap()
}

/// The first game a bomber made a double capture in, and that ply (from 1).
fn double_capture(data: &ReportData) -> (usize, usize, Vec<Ply>) {
    let games = &data.games.as_ref().expect("the report keeps games").games;
    games
        .iter()
        .enumerate()
        .find_map(|(i, g)| {
            let p = plies(g);
            let k = p.iter().position(|p| p.piece.eq_ignore_ascii_case(&'F') && p.double())?;
            Some((i + 1, k + 1, p))
        })
        .expect("a kept game with a bomber's double capture")
}

#[test]
fn a_tiny_report_keeps_bomber_games_with_scores_and_pgn() {
    let (out, data) = tiny();
    let shown = data.games.as_ref().expect("games kept");
    assert_eq!(shown.games.len(), 3, "{}", shown.rule);
    assert!(shown.rule.contains("double capture"), "{}", shown.rule);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("## Games behind the figures"));
    for (i, g) in shown.games.iter().enumerate() {
        assert_eq!(g.scores.len(), g.moves.len());
        assert!(g.scores.iter().filter(|s| s.is_some()).count() * 2 > g.moves.len(), "the engine's scores are kept");
        let file = format!("games/game-{}.pgn", i + 1);
        assert!(md.contains(&format!("]({file})")), "report.md links {file}");
        let text = std::fs::read_to_string(out.join(&file)).unwrap();
        let read = pgn::read(&text, &[]).unwrap();
        assert_eq!((read.len(), &read[0].moves, &read[0].start_fen), (1, &g.moves, &g.start_fen));
        assert_eq!(read[0].outcome.map(|o| o.pgn()), Some(g.result.as_str()));
    }
    // The bomber's double capture: the PGN comment names both squares it emptied.
    let (n, k, plies) = double_capture(data);
    let p = &plies[k - 1];
    let text = std::fs::read_to_string(out.join(format!("games/game-{n}.pgn"))).unwrap();
    let squares: Vec<String> = p.taken.iter().map(|(s, _)| s.to_string()).collect();
    let note = format!("takes {} and {}}}", squares[0], squares[1]);
    assert!(text.contains(&format!("{} {{", p.text)) && text.contains(&note), "no `{note}` in game {n}'s PGN");
}

fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| ["chromium", "chromium-browser", "google-chrome"].map(|n| d.join(n)))
        .find(|p| p.is_file())
}

/// After the page's own scripts: the viewer's state, a click on "next", the state again,
/// written into `<body>`'s attributes (squares as the board's rectangles name them).
const PROBE: &str = r#"<script>
(() => {
  const b = document.body, g = document.getElementById(b.dataset.game), svg = g.querySelector("svg");
  const rects = [...svg.querySelectorAll("rect[data-square]")];
  const at = (x, y) => rects.find(r => +r.getAttribute("x") + r.getAttribute("width") / 2 == x
    && +r.getAttribute("y") + r.getAttribute("width") / 2 == y);
  const snap = () => ({
    ply: +g.dataset.ply,
    pieces: [...svg.querySelectorAll("[data-layer=pieces] use")].map(u => {
      const id = u.getAttribute("href"), c = id.slice(-1), r = at(u.getAttribute("x"), u.getAttribute("y"));
      return (id.slice(-2, -1) == "w" ? c : c.toLowerCase()) + (r ? r.dataset.square : "?");
    }).sort().join(" "),
    victims: svg.querySelectorAll("[data-layer=marks] [data-mark=victim]").length,
    move: g.querySelector(".gmove").textContent,
  });
  const before = snap();
  g.querySelector("button[data-go=next]").click();
  b.setAttribute("data-probe", JSON.stringify({ before, after: snap(), pgn: g.querySelector("pre.pgn").textContent }));
})();
</script>"#;

fn dump(browser: &Path, url: &str, profile: &Path) -> String {
    let mut child = Command::new(browser)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"])
        .args(["--disable-component-update", "--disable-sync", "--window-size=1000,800", "--virtual-time-budget=5000"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(["--dump-dom", url])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromium");
    // Read while it comes: a DOM larger than the pipe's buffer would block chromium.
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut dom = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut dom);
        dom
    });
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(180) {
            let _ = child.kill();
            panic!("chromium did not finish {url} in 180 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = std::fs::remove_dir_all(profile);
    String::from_utf8_lossy(&reader.join().unwrap()).into_owned()
}

fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
}

#[test]
fn report_html_steps_through_a_bomber_game_in_chromium() {
    let Some(browser) = chromium() else {
        eprintln!("skipped: no chromium on the PATH (apt-get install chromium)");
        return;
    };
    let (out, data) = tiny();
    let (n, k, plies) = double_capture(data);
    // Opened at the ply before the double capture (the address selects it), then "next".
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    // Self-contained: no script, style or link fetched from elsewhere (the SVG namespace is a name).
    assert!(!html.contains("<script src") && !html.contains("src=\"http") && !html.contains("href=\"http"));
    let probe = out.join("probe.html");
    let body = format!("<body data-game=\"game-{n}\">");
    std::fs::write(&probe, html.replacen("<body>", &body, 1).replacen("</body>", &format!("{PROBE}</body>"), 1))
        .unwrap();
    let url = format!("file://{}#game-{n}-ply-{}", probe.display(), k - 1);
    let dom = dump(&browser, &url, &out.join("profile"));
    let raw = dom.split("data-probe=\"").nth(1).and_then(|v| v.split('"').next()).expect("the probe ran");
    let state: serde_json::Value = serde_json::from_str(&unescape(raw)).unwrap();
    let expected = |board: &fairylab::Board| {
        let mut l: Vec<String> = placement(board).into_iter().map(|(s, c)| format!("{c}{s}")).collect();
        l.sort();
        l.join(" ")
    };
    let (before, after) = (&state["before"], &state["after"]);
    assert_eq!(before["ply"], (k - 1) as u64);
    assert_eq!(after["ply"], k as u64);
    // The board drawn is the position the rules give, before and after the double capture.
    assert_eq!(before["pieces"].as_str().unwrap(), expected(&plies[k - 2].after));
    assert_eq!(after["pieces"].as_str().unwrap(), expected(&plies[k - 1].after));
    assert_ne!(before["pieces"], after["pieces"]);
    assert_eq!(
        after["pieces"].as_str().unwrap().split(' ').count() + 2,
        before["pieces"].as_str().unwrap().split(' ').count(),
        "a double capture removes two pieces"
    );
    // The square emptied besides the landing square is crossed; the move says what it took.
    assert_eq!(after["victims"], 1);
    let mv = after["move"].as_str().unwrap();
    assert!(mv.contains(&plies[k - 1].text) && mv.contains(" and "), "{mv}");
    // The PGN beside the board is the game's file.
    let pgn_text = std::fs::read_to_string(out.join(format!("games/game-{n}.pgn"))).unwrap();
    assert_eq!(state["pgn"].as_str().unwrap().trim(), pgn_text.trim());
}
