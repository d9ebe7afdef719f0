//! Minimal inline SVG charts (no network, no JavaScript): bars with error bars, a
//! histogram, line series and a heat grid, on round-number axes.

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

const GRID: &str = "#e6e6e6";
const ZERO: &str = "#555";

/// The 1-2-5 step that cuts `span` into about `target` pieces.
fn step(span: f64, target: usize) -> f64 {
    let raw = span / target.max(1) as f64;
    let magnitude = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * magnitude).find(|s| *s >= raw * 0.999).unwrap_or(10.0 * magnitude)
}

/// Round-number ticks (multiples of a 1-2-5 step) from at or below `lo` to at or above
/// `hi`. Zero is a multiple of every step, so a range spanning zero always has it.
pub fn ticks(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || lo > hi {
        return vec![];
    }
    let (lo, hi) = if hi - lo < 1e-12 { (lo - 0.5, hi + 0.5) } else { (lo, hi) };
    let s = step(hi - lo, target);
    // The tolerance leans inwards: an end on a multiple of the step (a rate chart's 0 %)
    // is the first or last tick, not one step inside an extra one.
    let (first, last) = ((lo / s + 1e-9).floor() as i64, (hi / s - 1e-9).ceil() as i64);
    // k·s rounded to the step's decimals, so 0.3 is 0.3 and not 0.30000000000000004 (which
    // would leave a range starting at 0.3 uncovered by its first tick).
    let scale = 10f64.powi((-(s.log10().floor())).max(0.0) as i32);
    (first..=last).map(|k| (k as f64 * s * scale).round() / scale).map(|t| if t == 0.0 { 0.0 } else { t }).collect()
}

/// A tick's text with as many decimals as its step needs.
pub fn tick_label(t: f64, ticks: &[f64]) -> String {
    let s = if ticks.len() > 1 { ticks[1] - ticks[0] } else { 1.0 };
    let decimals = (-(s.log10().floor())).max(0.0) as usize;
    format!("{t:.decimals$}")
}

/// The span a bar chart's axis must show: the values and their intervals, but an interval
/// reaching far beyond the values and the other intervals (a small-sample regression's) is
/// cut at half the values' span, or a bit more than the typical interval, past them, so it
/// cannot squeeze every bar into a sliver. Typical intervals are always shown whole.
pub fn bar_span(rows: &[(String, f64, f64, f64)], zero: f64) -> (f64, f64) {
    let finite = |x: f64| if x.is_finite() { Some(x) } else { None };
    let vlo = rows.iter().filter_map(|r| finite(r.1)).fold(zero, f64::min);
    let vhi = rows.iter().filter_map(|r| finite(r.1)).fold(zero, f64::max);
    let mut reaches: Vec<f64> = rows
        .iter()
        .filter(|r| r.1.is_finite())
        .map(|r| [r.1 - r.2, r.3 - r.1].into_iter().filter(|d| d.is_finite()).fold(0.0, f64::max))
        .collect();
    reaches.sort_by(f64::total_cmp);
    let typical = reaches.get(reaches.len() / 2).copied().unwrap_or(0.0);
    let reach = (0.5 * (vhi - vlo)).max(1.25 * typical).max(1e-9);
    let lo = rows.iter().filter_map(|r| finite(r.2)).fold(vlo, f64::min).max(vlo - reach);
    let hi = rows.iter().filter_map(|r| finite(r.3)).fold(vhi, f64::max).min(vhi + reach);
    (lo, hi)
}

fn open(w: f64, h: f64, size: u32, title: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"{size}\">\
         <text x=\"8\" y=\"18\" font-weight=\"bold\">{}</text>",
        esc(title)
    )
}

/// The page's text width (report.html's body): no chart is wider.
pub const PAGE_WIDTH: f64 = 900.0;
/// The least room a bar chart's plot keeps beside its labels.
const MIN_PLOT: f64 = 260.0;

/// `text` in lines of at most `most` characters, broken at spaces (a longer word keeps its
/// own line).
fn wrap(text: &str, most: usize) -> Vec<String> {
    let mut lines: Vec<String> = vec![];
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(l) if l.chars().count() + 1 + word.chars().count() <= most => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    if lines.is_empty() {
        lines.push(String::new());
    }
    lines
}

/// Horizontal bars `(label, value, low, high)` from zero, with their intervals; `axis`
/// names the quantity and its unit under the axis, `unit` follows each printed value.
pub fn bars(title: &str, axis: &str, rows: &[(String, f64, f64, f64)], unit: &str) -> String {
    // The label column fits the longest label (about 7 px per character at 12 px), and
    // the chart widens with it so the bars keep their room, up to the page's width; longer
    // labels wrap onto more lines instead of pushing the chart past the page.
    let most = ((PAGE_WIDTH - 90.0 - MIN_PLOT - 16.0) / 7.0).floor() as usize;
    let labels: Vec<Vec<String>> = rows.iter().map(|r| wrap(&r.0, most)).collect();
    let longest = labels.iter().flatten().map(|l| l.chars().count()).max().unwrap_or(0) as f64;
    let lines = labels.iter().map(Vec::len).max().unwrap_or(1) as f64;
    let left = (16.0 + 7.0 * longest).max(190.0);
    let (row_h, right, top) = ((14.0 * lines + 14.0).max(28.0), 90.0, 32.0);
    let w = (left + 420.0 + right).min(PAGE_WIDTH);
    let plot_bottom = top + row_h * rows.len() as f64 + 4.0;
    let h = plot_bottom + 40.0;
    let (lo, hi) = bar_span(rows, 0.0);
    let t = ticks(lo, hi, 6);
    let (lo, hi) = (t.first().copied().unwrap_or(lo), t.last().copied().unwrap_or(hi));
    let span = (hi - lo).max(1e-9);
    let x = |v: f64| left + (v.clamp(lo, hi) - lo) / span * (w - left - right);
    let mut s = open(w, h, 12, title);
    for &v in &t {
        let colour = if v == 0.0 { ZERO } else { GRID };
        s += &format!("<line x1=\"{0}\" y1=\"{top}\" x2=\"{0}\" y2=\"{plot_bottom}\" stroke=\"{colour}\"/>", x(v));
        s += &format!(
            "<text x=\"{}\" y=\"{}\" fill=\"#555\" text-anchor=\"middle\" class=\"tick\">{}</text>",
            x(v),
            plot_bottom + 14.0,
            tick_label(v, &t)
        );
    }
    s += &format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
        (left + w - right) / 2.0,
        h - 6.0,
        esc(axis)
    );
    for (i, (_, v, l, u)) in rows.iter().enumerate() {
        let y = top + 4.0 + i as f64 * row_h;
        s += &format!("<text x=\"8\" y=\"{}\">", y + 14.0);
        for (k, line) in labels[i].iter().enumerate() {
            let dy = if k == 0 { 0.0 } else { 14.0 };
            s += &format!("<tspan x=\"8\" dy=\"{dy}\">{}</tspan>", esc(line));
        }
        s += "</text>";
        if v.is_finite() {
            let (a, b) = (x(0.0).min(x(*v)), x(0.0).max(x(*v)));
            s += &format!(
                "<rect x=\"{a}\" y=\"{y}\" width=\"{}\" height=\"18\" fill=\"#6a9fd4\" fill-opacity=\"0.85\"/>",
                (b - a).max(1.0)
            );
            if l.is_finite() && u.is_finite() {
                s += &format!(
                    "<line x1=\"{}\" y1=\"{2}\" x2=\"{1}\" y2=\"{2}\" stroke=\"#222\" stroke-width=\"1.5\"/>",
                    x(*l),
                    x(*u),
                    y + 9.0
                );
                // An interval cut at the axis's end gets an arrowhead there, so the
                // whisker is not read as ending at the last tick.
                for (end, cut, dir) in [(*l, *l < lo, -1.0), (*u, *u > hi, 1.0)] {
                    if cut {
                        let tip = x(end) + dir * 2.0;
                        let back = tip - dir * 7.0;
                        s += &format!(
                            "<polygon class=\"cut\" points=\"{tip},{0} {back},{1} {back},{2}\" fill=\"#222\"/>",
                            y + 9.0,
                            y + 5.0,
                            y + 13.0
                        );
                    }
                }
            }
            s += &format!("<text x=\"{}\" y=\"{}\">{:.2}{}</text>", x(hi) + 6.0, y + 14.0, v, esc(unit));
        } else {
            s += &format!("<text x=\"{left}\" y=\"{}\" fill=\"#888\">not enough data</text>", y + 14.0);
        }
    }
    s + "</svg>"
}

/// Vertical histogram of `(bin start, count)` with a count axis.
pub fn histogram(title: &str, bins: &[(u32, u64)], bin_width: u32, xlabel: &str) -> String {
    let (w, h, left, right, top, bottom) = (640.0, 260.0, 56.0, 10.0, 30.0, 44.0);
    let max = bins.iter().map(|b| b.1).max().unwrap_or(1).max(1) as f64;
    let t: Vec<f64> = ticks(0.0, max, 5).into_iter().filter(|v| *v >= 0.0 && v.fract() == 0.0).collect();
    let ymax = t.last().copied().unwrap_or(max).max(1.0);
    let n = bins.len().max(1) as f64;
    let bw = (w - left - right) / n;
    let ys = |c: f64| h - bottom - c / ymax * (h - top - bottom);
    let mut s = open(w, h, 11, title);
    for &v in &t {
        s += &format!(
            "<line x1=\"{left}\" y1=\"{0}\" x2=\"{1}\" y2=\"{0}\" stroke=\"{2}\"/><text x=\"{3}\" y=\"{4}\" text-anchor=\"end\" fill=\"#555\" class=\"tick\">{v}</text>",
            ys(v),
            w - right,
            if v == 0.0 { ZERO } else { GRID },
            left - 4.0,
            ys(v) + 4.0
        );
    }
    for (i, &(start, count)) in bins.iter().enumerate() {
        let xx = left + i as f64 * bw;
        s += &format!(
            "<rect x=\"{xx}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#8cc084\"><title>{start}-{}: {count}</title></rect>",
            ys(count as f64),
            (bw - 2.0).max(1.0),
            ys(0.0) - ys(count as f64),
            start + bin_width - 1
        );
        if bins.len() <= 16 || i % 2 == 0 {
            s += &format!("<text x=\"{xx}\" y=\"{}\" fill=\"#555\">{start}</text>", h - bottom + 14.0);
        }
    }
    s += &format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
        (left + w - right) / 2.0,
        h - 6.0,
        esc(xlabel)
    );
    s += &format!(
        "<text x=\"14\" y=\"{0}\" transform=\"rotate(-90 14 {0})\" text-anchor=\"middle\">games</text></svg>",
        (top + h - bottom) / 2.0
    );
    s
}

/// Line chart of one or more series of `(x, y)` points, sharing the axes.
pub fn lines(title: &str, series: &[(String, Vec<(f64, f64)>)], xlabel: &str, ylabel: &str) -> String {
    const COLOURS: [&str; 6] = ["#3b75af", "#d0743c", "#519e3e", "#8d69b8", "#c53a32", "#84584e"];
    let (w, h, left, right, top, bottom) = (700.0, 320.0, 60.0, 20.0, 40.0, 40.0);
    let points = || series.iter().flat_map(|s| s.1.iter()).filter(|p| p.0.is_finite() && p.1.is_finite());
    let (x0, x1) = points().fold((f64::INFINITY, f64::NEG_INFINITY), |a, p| (a.0.min(p.0), a.1.max(p.0)));
    let (y0, y1) = points().fold((f64::INFINITY, f64::NEG_INFINITY), |a, p| (a.0.min(p.1), a.1.max(p.1)));
    let mut s = open(w, h, 11, title);
    if !(x0.is_finite() && y0.is_finite()) {
        return s + "<text x=\"8\" y=\"40\">no data</text></svg>";
    }
    let (xt, yt) = (ticks(x0, x1, 6), ticks(y0, y1, 5));
    let (x0, x1) = (xt[0], xt[xt.len() - 1]);
    let (y0, y1) = (yt[0], yt[yt.len() - 1]);
    let xs = |x: f64| left + (x - x0) / (x1 - x0).max(1e-9) * (w - left - right);
    let ys = |y: f64| h - bottom - (y - y0) / (y1 - y0).max(1e-9) * (h - top - bottom);
    for &y in &yt {
        s += &format!(
            "<line x1=\"{left}\" y1=\"{0}\" x2=\"{1}\" y2=\"{0}\" stroke=\"{2}\"/><text x=\"{3}\" y=\"{4}\" text-anchor=\"end\" fill=\"#555\">{5}</text>",
            ys(y),
            w - right,
            if y == 0.0 { ZERO } else { GRID },
            left - 4.0,
            ys(y) + 4.0,
            tick_label(y, &yt)
        );
    }
    for &x in &xt {
        s += &format!(
            "<line x1=\"{0}\" y1=\"{top}\" x2=\"{0}\" y2=\"{1}\" stroke=\"{GRID}\"/><text x=\"{0}\" y=\"{2}\" text-anchor=\"middle\" fill=\"#555\">{3}</text>",
            xs(x),
            h - bottom,
            h - bottom + 14.0,
            tick_label(x, &xt)
        );
    }
    s += &format!("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", w / 2.0, h - 6.0, esc(xlabel));
    s += &format!(
        "<text x=\"12\" y=\"{}\" transform=\"rotate(-90 12 {0})\" text-anchor=\"middle\">{}</text>",
        h / 2.0,
        esc(ylabel)
    );
    for (i, (name, pts)) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let path: Vec<String> = pts
            .iter()
            .filter(|p| p.0.is_finite() && p.1.is_finite())
            .map(|p| format!("{:.1},{:.1}", xs(p.0), ys(p.1)))
            .collect();
        s += &format!(
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.5\"/>",
            path.join(" ")
        );
        s += &format!(
            "<text x=\"{}\" y=\"{}\" fill=\"{colour}\">{}</text>",
            left + 8.0,
            top + 14.0 + 14.0 * i as f64,
            esc(name)
        );
    }
    s + "</svg>"
}

/// A grid of coloured cells (`text`, fill colour) with row and column headings, and a
/// line of legend under it.
pub fn grid(title: &str, rows: &[String], cols: &[String], cells: &[Vec<(String, String)>], legend: &str) -> String {
    let (cw, ch, left, top) = (118.0, 34.0, 70.0, 52.0);
    let w = left + cw * cols.len() as f64 + 10.0;
    let h = top + ch * rows.len() as f64 + 30.0;
    let mut s = open(w.max(500.0), h, 12, title);
    s += &format!("<text x=\"{left}\" y=\"38\" fill=\"#555\">Black's choice →  (rows: White's choice)</text>");
    for (j, c) in cols.iter().enumerate() {
        s += &format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-weight=\"bold\">{}</text>",
            left + cw * (j as f64 + 0.5),
            top - 2.0,
            esc(c)
        );
    }
    for (i, r) in rows.iter().enumerate() {
        let y = top + 4.0 + ch * i as f64;
        s += &format!("<text x=\"8\" y=\"{}\" font-weight=\"bold\">{}</text>", y + ch / 2.0 + 4.0, esc(r));
        for (j, (text, fill)) in cells.get(i).map_or(&[][..], |v| &v[..]).iter().enumerate() {
            let x = left + cw * j as f64;
            s += &format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{}\" fill=\"{fill}\" stroke=\"#fff\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\">{}</text>",
                cw,
                ch,
                x + cw / 2.0,
                y + ch / 2.0 + 4.0,
                esc(text)
            );
        }
    }
    s += &format!("<text x=\"8\" y=\"{}\" fill=\"#555\">{}</text></svg>", h - 8.0, esc(legend));
    s
}
