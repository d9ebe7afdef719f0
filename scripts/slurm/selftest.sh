#!/usr/bin/env bash
# Self-test of the Slurm recipe on a real Slurm: as root, brings up a one-node cluster
# on this machine (munged, slurmctld and slurmd of Debian's slurm-wlm and munge
# packages, with a configuration of its own in a temporary folder, so nothing in
# /etc is touched), submits a tiny sharded report through scripts/slurm/submit.sh with
# two array tasks, waits for the chain, and checks that the merged report equals the
# same report played on this machine alone. Stops the daemons it started, by their
# process ids. Exit 0 when equal, 1 when not, 2 when it cannot run.
#
#   sudo apt-get install -y slurm-wlm munge
#   sudo scripts/slurm/selftest.sh [VARIANT]      (default flying-bombers-hangars)
#
# FAIRYLAB=path/to/fairylab picks the binary; without it the release build of this
# checkout is used (built when missing). KEEP=1 keeps the temporary folder.
set -euo pipefail

variant="${1:-flying-bombers-hangars}"
tasks=2
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"

die() {
    echo "selftest: error: $*" >&2
    exit 2
}

# shellcheck source=scripts/slurm/cluster.sh
source "$repo/scripts/slurm/cluster.sh"
cluster_check || exit 2

bin="${FAIRYLAB:-${CARGO_TARGET_DIR:-$repo/target}/release/fairylab}"
if [[ -z "${FAIRYLAB:-}" ]]; then
    (cd "$repo" && cargo build --release --quiet) || die "cargo build --release failed"
fi
[[ -x "$bin" ]] || die "no fairylab binary at $bin"

start=$(date +%s)
tmp="$(mktemp -d /tmp/fairylab-slurm-selftest.XXXXXX)"
cleanup() {
    cluster_down
    if [[ "${KEEP:-0}" == 1 ]]; then
        echo "selftest: kept $tmp"
    else
        rm -rf "$tmp"
    fi
}
trap cleanup EXIT

cluster_up "$tmp" || die "the one-node Slurm did not come up (logs in $tmp; KEEP=1 keeps them)"
echo "selftest: one-node Slurm up ($(sinfo -h -o '%P %D nodes, %c CPUs, %t'))"

# The cluster's report, through the recipe the user runs.
cluster="$tmp/cluster"
submitted="$("$repo/scripts/slurm/submit.sh" --tasks "$tasks" --cpus 1 --fairylab "$bin" \
    report --variant "$variant" --budget tiny --seed 1 --quiet --out "$cluster")" \
    || die "submit.sh failed: $submitted"
echo "$submitted"
final="$(sed -n 's/^final: job //p' <<<"$submitted")"
[[ -n "$final" ]] || die "no final job id in the submit output"

if ! cluster_wait_job "$final" 900; then
    tail -n 20 "$cluster.slurm"/logs/* >&2 || true
    die "the chain did not complete (squeue: $(squeue -h | head -5))"
fi
cluster_done=$(date +%s)
echo "selftest: chain finished in $((cluster_done - start))s"

# Both steps ran: the second array played runs (the imbalance chain built from the
# merged regression) that the first did not.
step1_runs="$(cd "$cluster.slurm/step1/part-1" && find . -name games.csv | sort)"
step2_runs="$(cd "$cluster.slurm/step2/part-1" && find . -name games.csv | sort)"
second_only="$(comm -13 <(echo "$step1_runs") <(echo "$step2_runs") | wc -l)"
[[ $second_only -gt 0 ]] || die "the second array played no run of its own: the chain was not exercised"
echo "selftest: the second array played $second_only run(s) the first did not"

# The same report on this machine alone.
"$bin" report --variant "$variant" --budget tiny --seed 1 --quiet --concurrency 2 --out "$tmp/local" >/dev/null
echo "selftest: one-machine report in $(($(date +%s) - cluster_done))s"

# The games depend only on the seed, so the whole report.json must be the same to the
# byte (it holds no timing); the Markdown page too.
status=0
for f in report.json report.md; do
    if cmp -s "$tmp/local/$f" "$cluster/$f"; then
        echo "selftest: $f identical"
    else
        echo "selftest: $f differs between the cluster and one machine:" >&2
        diff "$tmp/local/$f" "$cluster/$f" | head -n 40 >&2 || true
        status=1
    fi
done
echo "selftest: wall time $(($(date +%s) - start))s"
[[ $status -eq 0 ]] && echo "selftest: passed"
exit $status
