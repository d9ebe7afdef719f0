#!/usr/bin/env bash
# The long fuzz pass of issue 14: N generated inputs per parser (FEN of every variant,
# variant TOML, PGN, experiment TOML, UCI commands to `fairylab uci` in process, UCI
# output of an external engine) and N_CSV for the run folder's CSV files (each of those
# writes and reads a folder, so they are slower), then one line per parser and the panics
# found.
#
#   scripts/fuzz.sh [N] [N_CSV] [SEED]     # defaults: 1000000 100000 14
#   FUZZ_ONLY='experiment|uci' scripts/fuzz.sh   # only the tests whose name matches
#
# The inputs run in chunks of at most 100000, each with its own seed (SEED, SEED+1, ...):
# a variant file that loads is kept for the whole process, so chunks bound the memory.
# A failure prints the seed, the iteration and the input; rerun that chunk with
#   FAIRYLAB_FUZZ_SEED=S FAIRYLAB_FUZZ_ITERATIONS=K cargo test --release --test fuzz_parsers
set -u
cd "$(dirname "$0")/.."
N=${1:-1000000}
N_CSV=${2:-100000}
SEED=${3:-14}
CHUNK=100000
ONLY=${FUZZ_ONLY:-}

nice -n 15 cargo test --release --test fuzz_parsers --no-run >/dev/null 2>&1 ||
    { nice -n 15 cargo test --release --test fuzz_parsers --no-run; exit 2; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# run TEST TOTAL LABEL: the test in chunks; prints "LABEL: inputs, accepted, panics, time".
run() {
    local test=$1 total=$2 label=$3 done=0 accepted=0 panics=0 seed=$SEED start end k
    if [ -n "$ONLY" ] && ! [[ $test =~ $ONLY ]]; then return 0; fi
    start=$(date +%s)
    while [ "$done" -lt "$total" ]; do
        k=$((total - done < CHUNK ? total - done : CHUNK))
        if FAIRYLAB_FUZZ_SEED=$seed FAIRYLAB_FUZZ_ITERATIONS=$k nice -n 15 \
            cargo test --release --test fuzz_parsers "$test" -- --exact --nocapture >"$log" 2>&1; then
            accepted=$((accepted + $(sed -n "s/^fuzz $label: [0-9]* inputs, \([0-9]*\) accepted.*/\1/p" "$log")))
        else
            panics=$((panics + 1))
            grep -A3 "panicked" "$log" | grep -v "^warning:" | head -8
        fi
        done=$((done + k))
        seed=$((seed + 1))
    done
    end=$(date +%s)
    echo "$label: $done inputs, $accepted accepted, $panics panicking chunk(s), $((end - start)) s"
    [ "$panics" -eq 0 ]
}

status=0
run fen_mutations_never_panic "$N" "FEN" || status=1
run variant_toml_mutations_never_panic "$N" "variant TOML" || status=1
run pgn_mutations_never_panic "$N" "PGN" || status=1
run csv_reader_mutations_never_panic "$N_CSV" "run folder CSV" || status=1
run experiment_toml_mutations_never_panic "$N" "experiment TOML" || status=1
run uci_command_mutations_never_panic "$N" "UCI commands" || status=1
run uci_engine_output_mutations_never_panic "$N" "UCI engine output" || status=1
run movement_mutations_never_panic "$N_CSV" "movement" || status=1
run fairy_stockfish_ini_mutations_never_panic "$N_CSV" "Fairy-Stockfish ini" || status=1
[ "$status" -eq 0 ] && echo "panics found: 0" || echo "panics found: see above (each chunk stops at its first)"
exit $status
