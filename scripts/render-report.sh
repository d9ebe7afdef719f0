#!/usr/bin/env bash
# Renders a report's HTML headless and saves a screenshot of the whole page next to it.
# Needs Debian's chromium (`apt-get install -y chromium`); ImageMagick's `convert`, when
# installed, trims the blank space below the page.
# Usage: scripts/render-report.sh reports/flying-bombers-grand/report.html [out.png]
#
# Headless chromium's --screenshot shoots the window, not the page, and --dump-dom does not
# report a layout height. So the window is made taller than the page could be, from what
# the HTML holds (the reports have no scripts and no images, only text, tables and inline
# SVG of fixed height): the charts' declared heights, about 32 px per table row, a 22 px line
# per 100 characters of text (the page is 900 px wide) and 60 px per heading, a quarter
# more on top, then the blank rest is trimmed. A page taller than the estimate would be cut,
# so the estimate errs high; the cap keeps chromium within its texture limits.
set -euo pipefail
html=$(realpath "${1:?usage: $0 REPORT.html [OUT.png]}")
out=$(realpath -m "${2:-${html%.html}.png}")
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "error: chromium not found (apt-get install -y chromium)" >&2; exit 2; }

svg_h=$(grep -o '<svg[^>]*>' "$html" | grep -o ' height="[0-9.]*"' | grep -o '[0-9.]*' |
  awk '{s += $1} END {printf "%d", s}')
rows=$(grep -o '<tr>' "$html" | wc -l)
headings=$(grep -o '<h[12]>' "$html" | wc -l)
# The page is one line: put each tag on its own line, skip the charts' text, count the rest.
text=$(sed 's/</\n</g' "$html" | awk '/^<svg/ {c = 1} !c {sub(/^<[^>]*>/, ""); n += length} /^<\/svg>/ {c = 0} END {print n + 0}')
height=$(( (svg_h + 32 * rows + 22 * text / 100 + 60 * headings) * 5 / 4 + 400 ))
(( height > 40000 )) && height=40000

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
"$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$profile" --window-size=1000,"$height" --hide-scrollbars \
  --screenshot="$out" "file://$html" >/dev/null 2>&1
if convert -version 2>/dev/null | grep -q ImageMagick; then
  # -trim cuts every uniform border; the border puts a margin back.
  convert "$out" -trim +repage -bordercolor white -border 20 "$out"
fi
echo "screenshot: $out (window 1000x$height)"
