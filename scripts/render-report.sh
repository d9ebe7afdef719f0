#!/usr/bin/env bash
# Renders a report's HTML headless and saves a screenshot next to it.
# Needs Debian's chromium (`apt-get install -y chromium`).
# Usage: scripts/render-report.sh reports/flying-bombers-grand/report.html [out.png]
set -euo pipefail
html=$(realpath "${1:?usage: $0 REPORT.html [OUT.png]}")
out=${2:-${html%.html}.png}
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "error: chromium not found (apt-get install -y chromium)" >&2; exit 2; }
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
"$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$profile" --window-size=1000,2400 --hide-scrollbars \
  --screenshot="$(realpath -m "$out")" "file://$html" >/dev/null 2>&1
echo "screenshot: $out"
