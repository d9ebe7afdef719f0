# A one-node Slurm on this machine, for the self-test and the scaling measurement:
# sourced, not run. As root, `cluster_up DIR` starts munged, slurmctld and slurmd with a
# key, a socket, ports and a slurm.conf of their own under DIR (nothing in /etc is
# touched, and a Slurm or munged already running is left alone) and exports SLURM_CONF
# for the client commands; `cluster_down` stops what it started, by process id.
# Debian's slurm-wlm and munge packages: apt-get install -y slurm-wlm munge.

cluster_pids=()

# Prints why the cluster cannot come up here, and fails, if it cannot.
cluster_check() {
    if [[ $(id -u) -ne 0 ]]; then
        echo "error: run as root: it starts munged, slurmctld and slurmd" >&2
        return 1
    fi
    local p
    for p in munged slurmctld slurmd sbatch squeue scontrol sinfo; do
        if ! command -v "$p" >/dev/null; then
            echo "error: $p not found: apt-get install -y slurm-wlm munge" >&2
            return 1
        fi
    done
}

# cluster_wait SECONDS WHAT COMMAND...: polls COMMAND until it succeeds.
cluster_wait() {
    local limit=$1 what=$2 s
    shift 2
    for ((s = 0; s < limit; s++)); do
        "$@" >/dev/null 2>&1 && return 0
        sleep 1
    done
    echo "error: $what did not happen within ${limit}s (logs in $cluster_dir)" >&2
    return 1
}

cluster_node_idle() {
    [[ "$(sinfo -h -n "$cluster_host" -o %t)" == idle ]]
}

# Prints a port p with p and p+1 free, picked at random above 20000.
cluster_free_ports() {
    local p k
    for ((k = 0; k < 50; k++)); do
        p=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
        # /proc/net/tcp* list ports in hex; a port absent from both is free for now.
        if ! grep -qiE ":($(printf '%04X|%04X' "$p" $((p + 1)))) " /proc/net/tcp /proc/net/tcp6 2>/dev/null; then
            echo "$p"
            return 0
        fi
    done
    echo "error: no free pair of ports found" >&2
    return 1
}

# cluster_up DIR [CPUS]: CPUS is what the node offers (default 2, this machine's cores).
cluster_up() {
    cluster_dir="$1"
    local cpus="${2:-2}"
    mkdir -p "$cluster_dir/munge" "$cluster_dir/state" "$cluster_dir/spool"
    chmod 700 "$cluster_dir/munge"
    head -c 1024 /dev/urandom >"$cluster_dir/munge/munge.key"
    chmod 400 "$cluster_dir/munge/munge.key"
    munged --foreground --force --key-file="$cluster_dir/munge/munge.key" \
        --socket="$cluster_dir/munge/socket" --pid-file="$cluster_dir/munge/munged.pid" \
        --log-file="$cluster_dir/munge/munged.log" --seed-file="$cluster_dir/munge/seed" \
        2>>"$cluster_dir/munge/stderr" &
    cluster_pids+=($!)

    # Ports of its own, away from Slurm's defaults, so a Slurm of the machine's own or a
    # second self-test running at the same time is left alone.
    local port
    port="$(cluster_free_ports)" || return 1
    cluster_host="$(hostname -s)"
    export SLURM_CONF="$cluster_dir/slurm.conf"
    cat >"$SLURM_CONF" <<EOF
ClusterName=fairylab-selftest
SlurmctldHost=$cluster_host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$cluster_dir/munge/socket
StateSaveLocation=$cluster_dir/state
SlurmdSpoolDir=$cluster_dir/spool
SlurmctldPidFile=$cluster_dir/slurmctld.pid
SlurmdPidFile=$cluster_dir/slurmd.pid
SlurmctldLogFile=$cluster_dir/slurmctld.log
SlurmdLogFile=$cluster_dir/slurmd.log
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
NodeName=$cluster_host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=selftest Nodes=$cluster_host Default=YES MaxTime=INFINITE State=UP
EOF
    cluster_wait 20 "munged starting" test -S "$cluster_dir/munge/socket" || return 1
    slurmctld -D -c -f "$SLURM_CONF" 2>>"$cluster_dir/slurmctld.stderr" &
    cluster_pids+=($!)
    cluster_wait 30 "slurmctld answering" scontrol ping || return 1
    slurmd -D -f "$SLURM_CONF" 2>>"$cluster_dir/slurmd.stderr" &
    cluster_pids+=($!)
    cluster_wait 60 "the node becoming idle" cluster_node_idle
}

# cluster_job_state ID: COMPLETED, RUNNING, FAILED, ... (empty once Slurm forgot the job).
cluster_job_state() {
    scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'
}

# cluster_wait_job ID SECONDS: waits until the job completes; fails if it ends otherwise.
cluster_wait_job() {
    local id="$1" limit="$2" s st
    for ((s = 0; s < limit; s++)); do
        st="$(cluster_job_state "$id")"
        case "$st" in
            COMPLETED) return 0 ;;
            FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED)
                echo "error: job $id ended $st" >&2
                return 1 ;;
        esac
        sleep 1
    done
    echo "error: job $id did not finish within ${limit}s" >&2
    return 1
}

cluster_down() {
    # Daemons in reverse order of starting, each by the id this shell got for it.
    local k
    for ((k = ${#cluster_pids[@]} - 1; k >= 0; k--)); do
        kill "${cluster_pids[k]}" 2>/dev/null || true
        wait "${cluster_pids[k]}" 2>/dev/null || true
    done
    cluster_pids=()
}
