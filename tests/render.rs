//! The HTML pages as a browser shows them: headless Chromium lays out the committed standard
//! reports and their summary, and a script added to a copy of each page reports what was
//! drawn. Skipped, with a message, when no Chromium is installed (`apt-get install
//! chromium`; `.ci/run` installs it).

use fairylab::report::{self, ReportData};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const GAMES: [&str; 5] = ["bland-chess-46", "chess", "flying-bombers-grand", "flying-bombers-hangars", "noble-wings"];

fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| ["chromium", "chromium-browser", "google-chrome"].map(|n| d.join(n)))
        .find(|p| p.is_file())
}

/// Measures the laid-out page and writes the figures into `<body>`'s attributes, which
/// `--dump-dom` prints: each chart's drawn size and labels, the links, the page's size.
const PROBE: &str = r#"<script>
(() => {
  const b = document.body, root = document.documentElement;
  const charts = [...document.querySelectorAll("svg")].map(s => {
    const r = s.getBoundingClientRect();
    return [Math.round(r.width), Math.round(r.height), s.querySelectorAll("text").length];
  });
  b.setAttribute("data-charts", JSON.stringify(charts));
  b.setAttribute("data-links", JSON.stringify([...document.querySelectorAll("a[href]")].map(a => a.getAttribute("href"))));
  b.setAttribute("data-external", document.querySelectorAll("img,iframe,object,embed,link[href],script[src]").length);
  b.setAttribute("data-size", JSON.stringify([root.scrollWidth, root.scrollHeight]));
})();
</script>"#;

struct Layout {
    charts: Vec<(f64, f64, u64)>,
    links: Vec<String>,
    external: u64,
    width: f64,
    height: f64,
}

/// Lays `page` out in a 1000-pixel-wide window and reads the probe's figures back.
fn layout(browser: &Path, page: &Path) -> Layout {
    let html = std::fs::read_to_string(page).unwrap();
    assert!(html.contains("</body>"), "{}: no </body>", page.display());
    let probed = page.with_extension("probe.html");
    std::fs::write(&probed, html.replacen("</body>", &format!("{PROBE}</body>"), 1)).unwrap();
    let profile = page.with_extension("profile");
    let mut child = Command::new(browser)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"])
        .args(["--disable-component-update", "--disable-sync", "--window-size=1000,800", "--dump-dom"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("file://{}", probed.display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromium");
    // Read the DOM as it comes: a page larger than the pipe's buffer would otherwise block
    // chromium on its write while this waits for it to exit.
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
            panic!("chromium did not finish {} in 180 s", page.display());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&profile);
    let dom = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    let body =
        dom.split("<body").nth(1).and_then(|b| b.split('>').next()).unwrap_or_else(|| panic!("no body in {dom:.300}"));
    let attr = |name: &str| -> serde_json::Value {
        let raw = body.split(&format!("{name}=\"")).nth(1).and_then(|v| v.split('"').next());
        let raw = raw.unwrap_or_else(|| panic!("{}: the probe did not run ({name} missing)", page.display()));
        serde_json::from_str(&raw.replace("&quot;", "\"").replace("&amp;", "&")).unwrap()
    };
    let number = |v: &serde_json::Value| v.as_f64().unwrap();
    let size = attr("data-size");
    Layout {
        charts: attr("data-charts")
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (number(&c[0]), number(&c[1]), c[2].as_u64().unwrap()))
            .collect(),
        links: attr("data-links").as_array().unwrap().iter().map(|l| l.as_str().unwrap().to_string()).collect(),
        external: attr("data-external").as_u64().unwrap(),
        width: number(&size[0]),
        height: number(&size[1]),
    }
}

#[test]
fn the_pages_render_with_their_charts_and_no_broken_references() {
    let Some(browser) = chromium() else {
        eprintln!("skipped: no chromium on the PATH (apt-get install chromium)");
        return;
    };
    let dir = std::env::temp_dir().join(format!("fairylab-render-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut pages = vec![];
    for v in GAMES {
        let text = std::fs::read_to_string(format!("data/reports/standard/{v}/report.json")).unwrap();
        let data: ReportData = serde_json::from_str(&text).unwrap();
        std::fs::create_dir_all(dir.join(v)).unwrap();
        std::fs::write(dir.join(v).join("report.json"), &text).unwrap();
        std::fs::write(dir.join(v).join("report.html"), report::render_html(&data)).unwrap();
        pages.push(dir.join(v).join("report.html"));
    }
    assert_eq!(report::summary(&dir, &[]), Ok(GAMES.len()));
    pages.push(dir.join("summary.html"));
    for page in &pages {
        let html = std::fs::read_to_string(page).unwrap();
        let l = layout(&browser, page);
        let name = page.display();
        // Every chart in the source is drawn, at a readable size, with its labels.
        assert_eq!(l.charts.len(), html.matches("<svg").count(), "{name}");
        assert!(l.charts.len() >= 3, "{name}: {} charts", l.charts.len());
        for &(w, h, texts) in &l.charts {
            assert!(w >= 300.0 && h >= 60.0 && texts >= 3, "{name}: a chart drawn {w}x{h} with {texts} labels");
            assert!(w <= 1000.0, "{name}: a chart wider than the window ({w})");
        }
        // Self-contained: nothing loaded from elsewhere, and the page fits the window's width.
        assert_eq!(l.external, 0, "{name}: external resources");
        assert!(l.width <= 1000.0 && l.height > 1000.0, "{name}: page {}x{}", l.width, l.height);
        // Every link leads to a file that exists (the summary links to each report).
        for link in &l.links {
            assert!(!link.contains(':'), "{name}: link out of the report folder: {link}");
            let target = page.parent().unwrap().join(link.split('#').next().unwrap());
            assert!(target.is_file(), "{name}: broken link {link}");
        }
    }
    let summary = layout(&browser, pages.last().unwrap());
    assert_eq!(summary.links.len(), GAMES.len(), "the summary links to every report: {:?}", summary.links);
    let _ = std::fs::remove_dir_all(&dir);
}
