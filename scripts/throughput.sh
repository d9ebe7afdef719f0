#!/usr/bin/env bash
# Self-play throughput side by side: plies per second of `fairylab match` (its engine
# against itself, in-process) and of fastchess playing Fairy-Stockfish against itself, in
# chess at fixed nodes per move, from the same openings, on the same machine, in one run.
# Builds nothing; skips with a message when either tool is missing.
#
# usage: scripts/throughput.sh [-n "NODES..."] [-g GAMES] [-c CONCURRENCY] [-f FAIRYLAB]
#                              [-o DIR] FASTCHESS FAIRY-STOCKFISH
#   NODES        nodes per move, one measurement per value (default "1000 10000")
#   GAMES        games per measurement, an even number (default 200; each opening twice)
#   CONCURRENCY  games at once for both tools (default: the number of cores)
# Openings: the first GAMES/2 positions of data/starts/chess-middlegames.epd, each played
# twice with colours swapped by both tools, no adjudication. Plies are counted from
# fairylab's games.csv and from fastchess's PGN; wall time covers each tool's whole run,
# engine start-up and (for fastchess) the UCI traffic included.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
nodes_list="1000 10000" games=200 conc=$(nproc) bin="$here/target/release/fairylab" out=""
while getopts "n:g:c:f:o:h" opt; do
    case $opt in
        n) nodes_list=$OPTARG ;; g) games=$OPTARG ;; c) conc=$OPTARG ;; f) bin=$OPTARG ;;
        o) out=$OPTARG ;; *) sed -n '2,15p' "$0"; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -lt 2 ]; then
    echo "throughput.sh: needs the paths of fastchess and Fairy-Stockfish; skipping (usage at the top of $0)"
    exit 0
fi
fastchess=$1 fsf=$2
for tool in "$fastchess" "$fsf" "$bin"; do
    if [ ! -x "$tool" ]; then
        echo "error: '$tool' is not an executable file" >&2
        exit 2
    fi
done
if [ $((games % 2)) -ne 0 ] || [ "$games" -lt 2 ]; then
    echo "error: -g must be an even number of games, got '$games'" >&2
    exit 2
fi
[ -n "$out" ] || out=$(mktemp -d)
mkdir -p "$out"
out=$(cd "$out" && pwd)
openings="$out/openings.epd"
awk -v n=$((games / 2)) '!/^#/ { print; if (++c >= n) exit }' "$here/data/starts/chess-middlegames.epd" > "$openings"
if [ "$(wc -l < "$openings")" -lt $((games / 2)) ]; then
    echo "error: fewer than $((games / 2)) openings in data/starts/chess-middlegames.epd" >&2
    exit 2
fi

now() { date +%s.%N; }
# plies in a PGN file: move tokens outside comments, move numbers and results left out.
pgn_plies() {
    python3 - "$1" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
text = re.sub(r"\{[^}]*\}", " ", text)
plies = 0
for line in text.splitlines():
    if line.startswith("["):
        continue
    for tok in line.split():
        if re.fullmatch(r"\d+\.(\.\.)?", tok) or tok in ("1-0", "0-1", "1/2-1/2", "*"):
            continue
        tok = re.sub(r"^\d+\.+", "", tok)
        if tok:
            plies += 1
print(plies)
EOF
}

echo "self-play throughput, chess, $games games per row, concurrency $conc, openings $openings"
printf "%-8s %-28s %8s %9s %12s\n" nodes tool plies "wall s" "plies/s"
for nodes in $nodes_list; do
    dir="$out/fairylab-$nodes"
    rm -rf "$dir"
    t0=$(now)
    "$bin" match --variant chess --engine name=a --engine name=b --nodes "$nodes" \
        --games "$games" --openings "$openings" --random-plies 0 --concurrency "$conc" \
        --seed 1 --quiet --out "$dir" > "$out/fairylab-$nodes.log"
    t1=$(now)
    fl_plies=$(python3 -c "import csv,sys; print(sum(int(r['plies']) for r in csv.DictReader(open(sys.argv[1]))))" "$dir/games.csv")
    fl_wall=$(echo "$t1 - $t0" | bc -l)
    pgn="$out/fastchess-$nodes.pgn"
    rm -f "$pgn"
    t0=$(now)
    # fastchess writes its config.json into the working directory: keep it with the run.
    (cd "$out" && "$fastchess" -engine cmd="$fsf" name=a -engine cmd="$fsf" name=b \
        -each proto=uci nodes="$nodes" tc=inf option.Hash=16 \
        -openings file="$openings" format=epd order=sequential \
        -rounds $((games / 2)) -games 2 -concurrency "$conc" \
        -pgnout file="$pgn" notation=uci > "$out/fastchess-$nodes.log" 2>&1)
    t1=$(now)
    fc_plies=$(pgn_plies "$pgn")
    fc_wall=$(echo "$t1 - $t0" | bc -l)
    fl_rate=$(echo "$fl_plies / $fl_wall" | bc -l)
    fc_rate=$(echo "$fc_plies / $fc_wall" | bc -l)
    printf "%-8s %-28s %8d %9.1f %12.0f\n" "$nodes" "fairylab match" "$fl_plies" "$fl_wall" "$fl_rate"
    printf "%-8s %-28s %8d %9.1f %12.0f\n" "$nodes" "fastchess + Fairy-Stockfish" "$fc_plies" "$fc_wall" "$fc_rate"
    printf "%-8s %-28s %30.2fx\n" "$nodes" "ratio" "$(echo "$fl_rate / $fc_rate" | bc -l)"
done
echo "games and logs: $out"
