#!/usr/bin/env bash
# The start pawn's price in Elo per node budget, and what it costs: how much a game at that
# budget tells about piece values per CPU-second.
#
# Two self-play matches per game and budget (`fairylab match --imbalance`): White lacks
# the calibration pawns, then Black does (the same seed), so White's first-move advantage
# cancels; colours of the two engine copies are swapped within every pair as usual. The
# side with the pawns scores s; Elo per pawn = elo(s) / pawns, its 95 % interval from the
# pair-level variance of both matches. CPU-seconds per game = user+system time / games.
# Information per CPU-second = (Elo per pawn)^2 / (CPU-seconds per game): the games a
# fixed precision in pawns needs scale with 1 / (Elo per pawn)^2.
#
# usage: scripts/pawn-price.sh [-g GAMES] [-s SEED] [-c CONCURRENCY] [-f FAIRYLAB]
#                              [-e ENGINE_SPEC] [-o DIR] VARIANT:PAWNS NODES...
#   VARIANT:PAWNS  e.g. chess:f (f2 and f7), flying-bombers-grand:ef (e2+f2 and e9+f9), or
#                  the squares, White's=Black's: flying-bombers-hangars:f2=f7
#   -e             an external engine as both players, `name=X cmd=PATH ...` (optional)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
games=200 seed=1 conc=1 bin="$here/target/release/fairylab" engine="" out=""
while getopts "g:s:c:f:e:o:h" opt; do
    case $opt in
        g) games=$OPTARG ;; s) seed=$OPTARG ;; c) conc=$OPTARG ;; f) bin=$OPTARG ;;
        e) engine=$OPTARG ;; o) out=$OPTARG ;; *) sed -n '2,18p' "$0"; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { sed -n '2,18p' "$0"; exit 2; }
spec=$1; shift
variant=${spec%%:*} files=${spec#*:}
out=${out:-$(mktemp -d /tmp/fairylab-pawn-price.XXXXXX)}
# The calibration pawns' squares: each side's pawn on each file nearest its own side.
ranks=$("$bin" variants 2>/dev/null | awk -v v="$variant" '$1 == v { print $0 }' | grep -o '[0-9]*x[0-9]*' | head -1 | cut -dx -f2)
[ -n "$ranks" ] || ranks=8
w="" b=""
if [[ $files == *=* ]]; then
    # Squares given: boards whose pawns stand elsewhere (Hangars: f2=f7 on ranks 0..9).
    w=${files%%=*} b=${files#*=}
    pawns=$(echo "$w" | tr '+' '\n' | wc -l)
else
    for ((i = 0; i < ${#files}; i++)); do
        f=${files:i:1}
        w+="${w:++}${f}2" b+="${b:++}${f}$((ranks - 1))"
    done
    pawns=${#files}
fi
engines=()
printf "%-24s %7s %6s %12s %18s %10s %12s\n" game nodes games "Elo/pawn" "95% interval" "CPU-s/game" "Elo^2/CPU-s"
for n in "$@"; do
    dirs=()
    cpu=0
    # An external engine plays its twin at 1/16 more nodes, as `match` does with two
    # copies of fairylab: otherwise the colour-swapped game of a pair replays the first.
    if [ -n "$engine" ]; then
        engines=(--engine "$engine" --engine "${engine/name=/name=twin-} nodes=$((n + n / 16 + 1))")
    fi
    for side in "$w=" "=$b"; do
        d="$out/$variant-$n-${side//[=+]/_}"
        dirs+=("$d")
        t=$( { /usr/bin/time -f "%U %S" "$bin" match --variant "$variant" "${engines[@]}" --imbalance "$side" \
            --nodes "$n" --games "$games" --seed "$seed" --concurrency "$conc" --out "$d" --quiet >/dev/null; } 2>&1 | tail -1)
        cpu=$(echo "$cpu + $(echo "$t" | awk '{print $1 + $2}')" | bc -l)
    done
    python3 - "$variant" "$n" "$pawns" "$cpu" "${dirs[@]}" <<'PY'
import csv, math, sys
variant, nodes, pawns, cpu = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
means, variances, games = [], [], 0
for k, d in enumerate(sys.argv[5:]):
    pairs = {}
    for row in csv.DictReader(open(f"{d}/games.csv")):
        w = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(row["result"])
        if w is None:
            continue
        # match 0: White lacks the pawns, so the side with them is Black.
        s = 1.0 - w if k == 0 else w
        pairs.setdefault(row["pair_id"], []).append(s)
        games += 1
    x = [sum(p) / len(p) for p in pairs.values() if len(p) == 2]
    m = sum(x) / len(x)
    v = sum((a - m) ** 2 for a in x) / (len(x) - 1) / len(x)
    means.append(m)
    variances.append(v)
s = sum(means) / 2
se = math.sqrt(sum(variances)) / 2
elo = lambda p: -400 * math.log10(1 / min(max(p, 1e-6), 1 - 1e-6) - 1)
e, lo, hi = elo(s) / pawns, elo(s - 1.96 * se) / pawns, elo(s + 1.96 * se) / pawns
per = cpu / games
print(f"{variant:<24} {nodes:>7} {games:>6} {e:>12.1f} {'[%.1f, %.1f]' % (lo, hi):>18} {per:>10.3f} {e * e / per:>12.0f}")
PY
done
