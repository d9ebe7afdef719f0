#!/usr/bin/env bash
# Plays fairylab's default engine against a reference UCI engine at equal nodes per move
# and prints Elo with its 95 % interval per game (fairylab match does the statistics).
#
# usage: scripts/strength.sh [-n NODES] [-g GAMES] [-c CONCURRENCY] [-s SEED] [-o DIR]
#                            ENGINE [VARIANT...]
#   ENGINE    path of a UCI engine: Fairy-Stockfish (plays chess, capablanca, noble-wings)
#             or Stockfish (chess only; its NNUE is switched off: classical evaluation).
#   VARIANT   default: chess capablanca noble-wings for Fairy-Stockfish, chess otherwise.
#
# Reference engines, kept outside this repository:
#   Stockfish 15.1:   apt-get install stockfish            (/usr/games/stockfish)
#   Fairy-Stockfish:  its public source, built with its own Makefile:
#                     make -C src build ARCH=x86-64-modern largeboards=yes nnue=no
# Noble WingS is read by Fairy-Stockfish from configs/reference/noble-wings.ini.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
nodes=2000 games=200 conc=2 seed=1 out=""
while getopts "n:g:c:s:o:h" opt; do
    case $opt in
        n) nodes=$OPTARG ;; g) games=$OPTARG ;; c) conc=$OPTARG ;; s) seed=$OPTARG ;;
        o) out=$OPTARG ;; *) sed -n '2,16p' "$0"; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ]; then
    echo "strength.sh: no reference engine given; skipping (see the usage at the top of $0)"
    exit 0
fi
engine=$1; shift
if [ ! -x "$engine" ]; then
    echo "error: reference engine '$engine' is not an executable file" >&2
    exit 2
fi
fsf=0
if printf 'uci\nquit\n' | "$engine" 2>/dev/null | grep -q "option name VariantPath"; then fsf=1; fi
if [ $# -gt 0 ]; then variants=("$@")
elif [ $fsf = 1 ]; then variants=(chess capablanca noble-wings)
else variants=(chess); fi
bin="$here/target/release/fairylab"
[ -x "$bin" ] || (cd "$here" && cargo build --release --quiet)
out=${out:-$(mktemp -d /tmp/fairylab-strength.XXXXXX)}
echo "reference: $engine; $nodes nodes per move; $games games per variant; seed $seed; runs in $out"
for v in "${variants[@]}"; do
    ref="name=reference cmd=$engine"
    if [ $fsf = 1 ]; then
        if [ -f "$here/configs/reference/$v.ini" ]; then
            ref="$ref option.VariantPath=$here/configs/reference/$v.ini"
        fi
        ref="$ref option.UCI_Variant=$v"
    else
        ref="$ref option.Use NNUE=false"
    fi
    echo "== $v"
    "$bin" match --variant "$v" --engine "name=fairylab" --engine "$ref" --nodes "$nodes" \
        --games "$games" --random-plies 8 --seed "$seed" --concurrency "$conc" --out "$out/$v" \
        --quiet 2>&1 | grep -E "games|Elo|LOS|pentanomial|terminations"
done
