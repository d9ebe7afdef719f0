#!/usr/bin/env bash
# Instructions per search node of `fairylab bench search`, per game, under valgrind
# (callgrind's instruction count does not depend on the machine's load, unlike nodes/s).
# The start-up cost is removed by subtracting a depth-1 run.
#
# usage: scripts/ir-per-node.sh [-d DEPTH] [-f FAIRYLAB] [VARIANT...]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
depth=11 bin="$here/target/release/fairylab"
while getopts "d:f:h" opt; do
    case $opt in d) depth=$OPTARG ;; f) bin=$OPTARG ;; *) sed -n '2,6p' "$0"; exit 2 ;; esac
done
shift $((OPTIND - 1))
command -v valgrind >/dev/null || { echo "ir-per-node.sh: valgrind not found; skipping"; exit 0; }
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(chess capablanca noble-wings bland-chess-46 flying-bombers-hangars flying-bombers-grand)
tmp=$(mktemp -d)
run() { # variant depth -> "nodes instructions"
    local out="$tmp/cg.$1.$2"
    local nodes
    nodes=$(valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" bench search --variant "$1" --depth "$2" 2>/dev/null \
        | awk -v v="$1" '$1 == v { print $3 }')
    echo "$nodes $(grep -m1 '^summary:' "$out" | awk '{print $2}')"
}
printf "%-24s %6s %10s %14s %10s\n" variant depth nodes instructions "Ir/node"
for v in "${variants[@]}"; do
    read -r n1 i1 <<<"$(run "$v" 1)"
    read -r n i <<<"$(run "$v" "$depth")"
    printf "%-24s %6s %10s %14s %10.0f\n" "$v" "$depth" "$n" "$i" "$(echo "($i - $i1) / ($n - $n1)" | bc -l)"
done
rm -rf "$tmp"
