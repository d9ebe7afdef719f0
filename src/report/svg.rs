//! Minimal inline SVG charts (no network, no JavaScript): bars with error bars, and a
//! histogram.

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Horizontal bars `(label, value, low, high)` around a reference line at `zero`.
pub fn bars(title: &str, rows: &[(String, f64, f64, f64)], zero: f64, unit: &str) -> String {
    // The label column fits the longest label (about 7 px per character at 12 px), and
    // the chart widens with it so the bars keep their room.
    let longest = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0) as f64;
    let left = (16.0 + 7.0 * longest).max(190.0);
    let (row_h, right) = (28.0, 90.0);
    let w = left + 420.0 + right;
    let h = 40.0 + row_h * rows.len() as f64 + 20.0;
    let finite = |x: f64| if x.is_finite() { Some(x) } else { None };
    // The axis spans the values and their intervals, but an interval reaching far beyond
    // the values and the other intervals (a small-sample regression's) is cut at half the
    // values' span, or a bit more than the typical interval, past them, so it cannot
    // squeeze every bar into a sliver. Typical intervals are always shown whole.
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
    let span = (hi - lo).max(1e-9);
    let x = |v: f64| left + (v.clamp(lo, hi) - lo) / span * (w - left - right);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\
         <text x=\"8\" y=\"18\" font-weight=\"bold\">{}</text>",
        esc(title)
    );
    s += &format!("<line x1=\"{0}\" y1=\"28\" x2=\"{0}\" y2=\"{1}\" stroke=\"#999\"/>", x(zero), h - 16.0);
    for (i, (label, v, l, u)) in rows.iter().enumerate() {
        let y = 36.0 + i as f64 * row_h;
        s += &format!("<text x=\"8\" y=\"{}\">{}</text>", y + 14.0, esc(label));
        if v.is_finite() {
            let (a, b) = (x(zero).min(x(*v)), x(zero).max(x(*v)));
            s += &format!("<rect x=\"{a}\" y=\"{y}\" width=\"{}\" height=\"18\" fill=\"#6a9fd4\"/>", (b - a).max(1.0));
            if l.is_finite() && u.is_finite() {
                s += &format!(
                    "<line x1=\"{}\" y1=\"{2}\" x2=\"{1}\" y2=\"{2}\" stroke=\"#222\" stroke-width=\"1.5\"/>",
                    x(*l),
                    x(*u),
                    y + 9.0
                );
            }
            s += &format!("<text x=\"{}\" y=\"{}\">{:.2}{}</text>", x(hi) + 4.0, y + 14.0, v, esc(unit));
        }
    }
    s += &format!(
        "<text x=\"{left}\" y=\"{}\" fill=\"#555\">{lo:.2}</text><text x=\"{}\" y=\"{}\" fill=\"#555\" text-anchor=\"end\">{hi:.2}</text></svg>",
        h - 2.0,
        w - right,
        h - 2.0
    );
    s
}

/// Vertical histogram of `(bin start, count)`.
pub fn histogram(title: &str, bins: &[(u32, u64)], bin_width: u32, xlabel: &str) -> String {
    let (w, h, left, bottom) = (640.0, 240.0, 40.0, 30.0);
    let max = bins.iter().map(|b| b.1).max().unwrap_or(1).max(1) as f64;
    let n = bins.len().max(1) as f64;
    let bw = (w - left - 10.0) / n;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"11\">\
         <text x=\"8\" y=\"16\" font-weight=\"bold\">{}</text>",
        esc(title)
    );
    for (i, &(start, count)) in bins.iter().enumerate() {
        let bh = count as f64 / max * (h - bottom - 30.0);
        let xx = left + i as f64 * bw;
        s += &format!(
            "<rect x=\"{xx}\" y=\"{}\" width=\"{}\" height=\"{bh}\" fill=\"#8cc084\"><title>{start}-{}: {count}</title></rect>",
            h - bottom - bh,
            (bw - 2.0).max(1.0),
            start + bin_width - 1
        );
        if bins.len() <= 16 || i % 2 == 0 {
            s += &format!("<text x=\"{xx}\" y=\"{}\">{start}</text>", h - bottom + 14.0);
        }
    }
    s += &format!("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text></svg>", w / 2.0, h - 2.0, esc(xlabel));
    s
}

/// Line chart of one or more series of `(x, y)` points, sharing the axes.
pub fn lines(title: &str, series: &[(String, Vec<(f64, f64)>)], xlabel: &str, ylabel: &str) -> String {
    const COLOURS: [&str; 6] = ["#3b75af", "#d0743c", "#519e3e", "#8d69b8", "#c53a32", "#84584e"];
    let (w, h, left, right, top, bottom) = (700.0, 320.0, 60.0, 20.0, 40.0, 40.0);
    let points = || series.iter().flat_map(|s| s.1.iter()).filter(|p| p.0.is_finite() && p.1.is_finite());
    let (x0, x1) = points().fold((f64::INFINITY, f64::NEG_INFINITY), |a, p| (a.0.min(p.0), a.1.max(p.0)));
    let (y0, y1) = points().fold((f64::INFINITY, f64::NEG_INFINITY), |a, p| (a.0.min(p.1), a.1.max(p.1)));
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"11\">\
         <text x=\"8\" y=\"16\" font-weight=\"bold\">{}</text>",
        esc(title)
    );
    if !(x0.is_finite() && y0.is_finite()) {
        return s + "<text x=\"8\" y=\"40\">no data</text></svg>";
    }
    let pad = ((y1 - y0) * 0.05).max(1e-9);
    let (y0, y1) = (y0 - pad, y1 + pad);
    let xs = |x: f64| left + (x - x0) / (x1 - x0).max(1e-9) * (w - left - right);
    let ys = |y: f64| h - bottom - (y - y0) / (y1 - y0) * (h - top - bottom);
    s += &format!(
        "<rect x=\"{left}\" y=\"{top}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#999\"/>",
        w - left - right,
        h - top - bottom
    );
    for i in 0..=4 {
        let y = y0 + (y1 - y0) * i as f64 / 4.0;
        s += &format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#555\">{y:.0}</text>",
            left - 4.0,
            ys(y) + 4.0
        );
    }
    s += &format!(
        "<text x=\"{left}\" y=\"{0}\" fill=\"#555\">{x0:.0}</text><text x=\"{1}\" y=\"{0}\" fill=\"#555\" text-anchor=\"end\">{x1:.0}</text>",
        h - bottom + 14.0,
        w - right
    );
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

#[cfg(test)]
mod tests {
    use super::bars;

    /// The axis ends printed under a bar chart.
    fn axis(svg: &str) -> (f64, f64) {
        let ends: Vec<f64> = svg
            .split("fill=\"#555\"")
            .skip(1)
            .filter_map(|t| t.split('>').nth(1)?.split('<').next()?.parse().ok())
            .collect();
        (ends[0], ends[1])
    }

    #[test]
    fn typical_intervals_are_shown_whole() {
        // Balance-like: values close together, intervals much wider than their spread.
        let rows = vec![("a".to_string(), 12.2, -7.3, 31.7), ("b".to_string(), -1.3, -18.1, 15.5)];
        assert_eq!(axis(&bars("t", &rows, 0.0, "")), (-18.1, 31.7));
    }

    #[test]
    fn one_runaway_interval_is_cut() {
        let mut rows: Vec<(String, f64, f64, f64)> =
            (1..=5).map(|i| (format!("p{i}"), i as f64, i as f64 - 0.5, i as f64 + 0.5)).collect();
        rows.push(("wild".into(), 3.0, 1.0, 99.0));
        let (lo, hi) = axis(&bars("t", &rows, 0.0, ""));
        assert_eq!(lo, 0.0);
        assert!((5.5..10.0).contains(&hi), "axis end {hi}");
    }
}
