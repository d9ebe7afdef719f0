#!/usr/bin/env bash
# Tactical suites at fixed nodes: fairylab and (optionally) a reference UCI engine on the
# same positions, scored by the same SAN matcher (`fairylab bench tactics`).
#
# usage: scripts/tactics.sh [-n "NODES..."] [-f FAIRYLAB] [REFERENCE] [EPD...]
#   -n         node budgets, default "2000 20000"
#   -f         the fairylab binary, default target/release/fairylab (built if missing)
#   REFERENCE  path of a UCI engine (Fairy-Stockfish or Stockfish; a Stockfish's NNUE is
#              switched off), or "-" for fairylab alone
#   EPD        suites, default tests/data/tactics/wac.epd tests/data/tactics/bk.epd
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
budgets="2000 20000" bin=""
while getopts "n:f:h" opt; do
    case $opt in
        n) budgets=$OPTARG ;; f) bin=$OPTARG ;; *) sed -n '2,11p' "$0"; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
ref=${1:--}; [ $# -gt 0 ] && shift
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=("$here/tests/data/tactics/wac.epd" "$here/tests/data/tactics/bk.epd")
if [ -z "$bin" ]; then
    bin="$here/target/release/fairylab"
    [ -x "$bin" ] || (cd "$here" && cargo build --release --quiet)
fi
engines=("name=fairylab")
if [ "$ref" != "-" ]; then
    if [ ! -x "$ref" ]; then
        echo "tactics.sh: reference engine '$ref' is not an executable file; fairylab alone"
    elif printf 'uci\nquit\n' | "$ref" 2>/dev/null | grep -q "option name VariantPath"; then
        engines+=("name=reference cmd=$ref option.UCI_Variant=chess")
    else
        engines+=("name=reference cmd=$ref option.Use NNUE=false")
    fi
fi
for n in $budgets; do
    for e in "${engines[@]}"; do
        epd=(); for s in "${suites[@]}"; do epd+=(--epd "$s"); done
        "$bin" bench tactics "${epd[@]}" --nodes "$n" --engine "$e"
    done
done
