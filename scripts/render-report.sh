#!/usr/bin/env bash
# Renders a report's HTML headless and saves a screenshot of the whole page next to it.
# Needs Debian's chromium (`apt-get install -y chromium`).
# Usage: scripts/render-report.sh reports/flying-bombers-grand/report.html [out.png]
#
# Headless chromium's --screenshot shoots the window, not the page. So the page is first
# laid out in a window of the same width with a one-line script added to a copy of it,
# which writes the page's laid-out height into the DOM that --dump-dom prints; the
# screenshot window then has exactly that height.
set -euo pipefail
html=$(realpath "${1:?usage: $0 REPORT.html [OUT.png]}")
out=$(realpath -m "${2:-${html%.html}.png}")
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "error: chromium not found (apt-get install -y chromium)" >&2; exit 2; }
[ -f "$html" ] || { echo "error: $html: no such file" >&2; exit 2; }
width=1000

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chrome() {
  "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$work/profile" --hide-scrollbars "$@" 2>/dev/null
}
# The copy sits next to the page so that relative links resolve as in the page itself.
probe="$(dirname "$html")/.render-probe-$$.html"
trap 'rm -rf "$work" "$probe"' EXIT
sed 's#</body>#<script>document.body.setAttribute("data-height", document.documentElement.scrollHeight)</script></body>#' \
  "$html" >"$probe"
height=$(chrome --window-size=$width,800 --dump-dom "file://$probe" | grep -o 'data-height="[0-9]*"' | grep -o '[0-9]*' || true)
[ -n "$height" ] || { echo "error: chromium could not lay out $html" >&2; exit 1; }
# Chromium's textures stop at 16384 px on many GPUs' software paths; taller pages are cut
# there (say so rather than fail).
if (( height > 16000 )); then
  echo "warning: the page is $height px tall; the screenshot stops at 16000" >&2
  height=16000
fi
chrome --window-size=$width,"$height" --screenshot="$out" "file://$html" >/dev/null
echo "screenshot: $out (${width}x$height, the whole page)"
