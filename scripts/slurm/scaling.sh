#!/usr/bin/env bash
# Scaling of the Slurm recipe on this machine: the same imbalance study (F=R with its
# pawn-odds calibration) submitted as one array task and as two, one CPU each, on a
# one-node Slurm brought up as in the self-test. Prints games per hour of each and their
# ratio (two tasks on two free cores would give 2), the load average sampled while each
# ran (other work on the machine slows the tasks), and the merged study's table.
#
#   sudo scripts/slurm/scaling.sh [VARIANT] [GAMES PER MATCH] [NODES]
#   (defaults flying-bombers-grand 160 2000: the standard report's node budget)
set -euo pipefail

variant="${1:-flying-bombers-grand}"
games="${2:-160}"
nodes="${3:-2000}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
die() {
    echo "scaling: error: $*" >&2
    exit 2
}
[[ "$games" =~ ^[1-9][0-9]*$ && "$nodes" =~ ^[1-9][0-9]*$ ]] || die "GAMES and NODES must be positive whole numbers"

# shellcheck source=scripts/slurm/cluster.sh
source "$repo/scripts/slurm/cluster.sh"
cluster_check || exit 2
bin="${FAIRYLAB:-${CARGO_TARGET_DIR:-$repo/target}/release/fairylab}"
[[ -x "$bin" ]] || die "no fairylab binary at $bin (cargo build --release, or FAIRYLAB=...)"

tmp="$(mktemp -d /tmp/fairylab-slurm-scaling.XXXXXX)"
trap 'cluster_down; [[ "${KEEP:-0}" == 1 ]] || rm -rf "$tmp"' EXIT
cluster_up "$tmp/slurm" || die "the one-node Slurm did not come up (KEEP=1 keeps $tmp)"

# The tasks run fairylab through /usr/bin/time, so the CPU each got is known: on a
# machine shared with other work a task gets less than its core, and the ratio alone
# would hide why.
[[ -x /usr/bin/time ]] || die "/usr/bin/time not found (apt-get install -y time)"
timed="$tmp/timed-fairylab"
cat >"$timed" <<EOF
#!/bin/sh
exec /usr/bin/time -a -o "\$FAIRYLAB_TIMES" -f "%e %U %S" $(printf '%q' "$bin") "\$@"
EOF
chmod +x "$timed"

# measure TASKS: prints "seconds games mean-load cpu-share", the last the array tasks' CPU
# time over their wall time (1 when each task had a core to itself).
measure() {
    local tasks=$1 out="$tmp/run-$1" submitted final t0 t1 n sampler
    t0=$(date +%s.%N)
    export FAIRYLAB_TIMES="$tmp/times-$tasks"
    submitted="$("$repo/scripts/slurm/submit.sh" --tasks "$tasks" --cpus 1 --fairylab "$timed" values imbalance \
        --variant "$variant" --compare F=R --nodes "$nodes" --games "$games" --seed 1 --quiet --out "$out")" \
        || die "submit.sh failed: $submitted"
    final="$(sed -n 's/^final: job //p' <<<"$submitted")"
    # The one-minute load average, every 15 s, while the chain runs.
    (while :; do cut -d' ' -f1 /proc/loadavg >>"$tmp/load-$tasks"; sleep 15; done) &
    sampler=$!
    cluster_wait_job "$final" 7200 || { kill "$sampler"; tail -n 20 "$out.slurm"/logs/* >&2; die "the chain failed"; }
    kill "$sampler"
    wait "$sampler" 2>/dev/null || true
    t1=$(date +%s.%N)
    n=$(find "$out" -name games.csv -exec sh -c 'tail -n +2 "$1" | wc -l' _ {} \; | paste -sd+ | bc)
    echo "$t1 - $t0" | bc | tr '\n' ' '
    echo -n "$n "
    awk '{s += $1} END {printf "%.2f ", s / NR}' "$tmp/load-$tasks"
    # The first lines are the array tasks' (the merge and the final run come after).
    head -n "$tasks" "$FAIRYLAB_TIMES" | awk '{w += $1; c += $2 + $3} END {printf "%.2f\n", c / w}'
}

echo "scaling: $variant, F=R and pawn odds, $games games each at $nodes nodes per move, seed 1"
read -r s1 g1 l1 c1 < <(measure 1)
echo "scaling: 1 task : $g1 games in ${s1}s, $(echo "3600 * $g1 / $s1" | bc) games/hour, mean load ${l1}, CPU share per task ${c1}"
read -r s2 g2 l2 c2 < <(measure 2)
echo "scaling: 2 tasks: $g2 games in ${s2}s, $(echo "3600 * $g2 / $s2" | bc) games/hour, mean load ${l2}, CPU share per task ${c2}"
echo "scaling: ratio $(echo "scale=2; ($g2 / $s2) / ($g1 / $s1)" | bc) (ideal 2 on two free cores)"
cmp -s "$tmp/run-1/values.csv" "$tmp/run-2/values.csv" \
    && echo "scaling: one task and two gave the same table"
echo "scaling: the study's table (from the two-task run):"
cat "$tmp/run-2/values.csv" 2>/dev/null || ls -R "$tmp/run-2" | head
