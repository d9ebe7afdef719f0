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

[[ $(id -u) -eq 0 ]] || die "run as root: it starts munged, slurmctld and slurmd"
for p in munged slurmctld slurmd sbatch squeue scontrol sinfo; do
    command -v "$p" >/dev/null || die "$p not found: apt-get install -y slurm-wlm munge"
done

bin="${FAIRYLAB:-${CARGO_TARGET_DIR:-$repo/target}/release/fairylab}"
if [[ -z "${FAIRYLAB:-}" ]]; then
    (cd "$repo" && cargo build --release --quiet) || die "cargo build --release failed"
fi
[[ -x "$bin" ]] || die "no fairylab binary at $bin"

start=$(date +%s)
tmp="$(mktemp -d /tmp/fairylab-slurm-selftest.XXXXXX)"
pids=()
cleanup() {
    # Daemons in reverse order of starting, each by the id this script got for it.
    for ((k = ${#pids[@]} - 1; k >= 0; k--)); do
        kill "${pids[k]}" 2>/dev/null || true
        wait "${pids[k]}" 2>/dev/null || true
    done
    if [[ "${KEEP:-0}" == 1 ]]; then
        echo "selftest: kept $tmp"
    else
        rm -rf "$tmp"
    fi
}
trap cleanup EXIT

# munge: a key and a socket of its own, so a munged already running is left alone.
mkdir -p "$tmp/munge"
chmod 700 "$tmp/munge"
head -c 1024 /dev/urandom >"$tmp/munge/munge.key"
chmod 400 "$tmp/munge/munge.key"
munged --foreground --force --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/socket" \
    --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" \
    --seed-file="$tmp/munge/seed" 2>>"$tmp/munge/stderr" &
pids+=($!)

# Ports away from Slurm's defaults, in case this machine runs a Slurm of its own.
host="$(hostname -s)"
mkdir -p "$tmp/state" "$tmp/spool"
export SLURM_CONF="$tmp/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=fairylab-selftest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16917
SlurmdPort=16918
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=selftest Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

wait_for() { # SECONDS WHAT COMMAND...: polls COMMAND until it succeeds
    local limit=$1 what=$2
    shift 2
    for ((s = 0; s < limit; s++)); do
        "$@" >/dev/null 2>&1 && return 0
        sleep 1
    done
    die "$what did not happen within ${limit}s (logs in $tmp; KEEP=1 keeps them)"
}

wait_for 20 "munged starting" test -S "$tmp/munge/socket"
slurmctld -D -c -f "$SLURM_CONF" 2>>"$tmp/slurmctld.stderr" &
pids+=($!)
wait_for 30 "slurmctld answering" scontrol ping
slurmd -D -f "$SLURM_CONF" 2>>"$tmp/slurmd.stderr" &
pids+=($!)
node_idle() { [[ "$(sinfo -h -n "$host" -o %t)" == idle ]]; }
wait_for 60 "the node becoming idle" node_idle
echo "selftest: one-node Slurm up ($(sinfo -h -o '%P %D nodes, %c CPUs, %t'))"

# The cluster's report, through the recipe the user runs.
cluster="$tmp/cluster"
submitted="$("$repo/scripts/slurm/submit.sh" --tasks "$tasks" --cpus 1 --fairylab "$bin" \
    report --variant "$variant" --budget tiny --seed 1 --quiet --out "$cluster")" \
    || die "submit.sh failed: $submitted"
echo "$submitted"
final="$(sed -n 's/^final: job //p' <<<"$submitted")"
[[ -n "$final" ]] || die "no final job id in the submit output"

state() { scontrol show job "$final" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }
for ((s = 0; s < 900; s++)); do
    st="$(state)"
    case "$st" in
        COMPLETED) break ;;
        FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED)
            tail -n 20 "$cluster.slurm"/logs/* >&2 || true
            die "the chain ended with the final job $st" ;;
    esac
    sleep 1
done
[[ "$(state)" == COMPLETED ]] || die "the chain did not finish within 900s (squeue: $(squeue -h | head -5))"
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
