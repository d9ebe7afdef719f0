#!/usr/bin/env bash
# One command to run a sharded fairylab command on a Slurm cluster: it writes the sbatch
# scripts of the chain (an array of shards, the merge, and for a report the second array
# that needs the merged regression) into a work folder and submits them with afterok
# dependencies. Submitting the same command again resubmits the chain: finished shards
# find their games done and end at once, an interrupted one resumes.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: scripts/slurm/submit.sh --tasks N [recipe options] COMMAND [fairylab arguments] --out DIR

COMMAND is one of: report, values regress, values imbalance, experiment FILE, match,
tournament; the fairylab arguments are those of the command itself (no --shard: the
recipe gives each array task its shard). --out DIR is where the merged result goes.

recipe options (before COMMAND):
  --tasks N        array tasks, one shard each (required)
  --cpus C         CPUs per task and games each task plays at once (default 1)
  --work DIR       sbatch scripts, shard folders and logs (default DIR.slurm beside --out)
  --fairylab BIN   the binary the jobs run (default: fairylab on the PATH, else this
                   checkout's target/release/fairylab); every node must see it
  --sbatch OPT     an sbatch option for every job, repeatable (--sbatch --partition=long)
  --dry-run        write the scripts and print the sbatch commands; submit nothing

The work folder and --out must be on a file system every node sees.
EOF
}

# shellcheck source=../lib/command.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/command.sh"

tasks="" cpus=1 work="" bin="" dry=0
sbatch_opts=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --tasks) tasks="${2-}"; shift 2 || die "--tasks needs a number" ;;
        --cpus) cpus="${2-}"; shift 2 || die "--cpus needs a number" ;;
        --work) work="${2-}"; shift 2 || die "--work needs a folder" ;;
        --fairylab) bin="${2-}"; shift 2 || die "--fairylab needs a path" ;;
        --sbatch) sbatch_opts+=("${2-}"); shift 2 || die "--sbatch needs an option" ;;
        --dry-run) dry=1; shift ;;
        -h|--help) usage; exit 0 ;;
        --*) die "unknown recipe option $1 (recipe options come before the command; see --help)" ;;
        *) break ;;
    esac
done

[[ $# -gt 0 ]] || { usage >&2; exit 2; }
[[ "$tasks" =~ ^[1-9][0-9]*$ ]] || die "--tasks '$tasks' must be a whole number of at least 1"
[[ "$cpus" =~ ^[1-9][0-9]*$ ]] || die "--cpus '$cpus' must be a whole number of at least 1"
for o in "${sbatch_opts[@]}"; do
    [[ "$o" == -* ]] || die "--sbatch '$o' must be an sbatch option such as --partition=long"
done

read_command "$@"
shift "$command_words"

out="" concurrency=0 data=0 games=0
args=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --out) [[ $# -ge 2 ]] || die "--out needs a folder"; out="$2"; shift 2 ;;
        --out=*) out="${1#--out=}"; shift ;;
        --shard|--shard=*) die "--shard is the recipe's: each array task gets its own (leave it out)" ;;
        --concurrency|--concurrency=*) concurrency=1; args+=("$1"); shift ;;
        --data|--data=*) data=1; args+=("$1"); shift ;;
        --games|--games=*) games=1; args+=("$1"); shift ;;
        *) args+=("$1"); shift ;;
    esac
done
[[ -n "$out" ]] || die "give --out DIR: the folder the merged result goes to"
if [[ "${command[*]}" == "values regress" && $data -eq 1 ]]; then
    die "values regress --data fits games already played: nothing to shard (run it directly)"
fi
if [[ "${command[*]}" == "values regress" && $games -eq 0 ]]; then
    die "values regress on a cluster plays its corpus: give --games N"
fi

here="$(pwd -P)"
absolute() {
    case "$1" in
        /*) printf '%s' "$1" ;;
        *) printf '%s/%s' "$here" "$1" ;;
    esac
}
out="$(absolute "${out%/}")"
work="$(absolute "${work:-$out.slurm}")"
work="${work%/}"

if [[ -z "$bin" ]]; then
    repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
    if command -v fairylab >/dev/null; then
        bin="$(command -v fairylab)"
    elif [[ -x "$repo/target/release/fairylab" ]]; then
        bin="$repo/target/release/fairylab"
    else
        die "no fairylab binary: cargo install --path . (or cargo build --release), or give --fairylab BIN"
    fi
fi
bin="$(absolute "$bin")"
[[ -x "$bin" ]] || die "--fairylab $bin is not an executable file"

# Every task plays as many games at once as it has CPUs, not one per core of the node.
[[ $concurrency -eq 1 ]] || args+=(--concurrency "$cpus")

# An #SBATCH line ends at the first blank: such a path would be cut short.
for p in "$work" "$here" "$bin"; do
    [[ "$p" != *[[:space:]]* ]] || die "'$p' holds a blank, which #SBATCH lines cannot carry: choose another folder"
done
mkdir -p "$work/logs" || die "cannot create $work"

# Quoted once here, so the scripts run the arguments exactly as typed.
q() { printf '%q ' "$@"; }
q1() { printf '%q' "$1"; }
run_cmd="$(q "$bin" "${command[@]}" "${args[@]}")"

# header NAME ARRAY: the lines every script starts with.
header() {
    local name="$1" array="$2" log
    log="$work/logs/$name-%j.out"
    [[ -n "$array" ]] && log="$work/logs/$name-%A-%a.out"
    echo "#!/usr/bin/env bash"
    echo "# Written by scripts/slurm/submit.sh; submitting the same command again rewrites it."
    echo "#SBATCH --job-name=fairylab-$name"
    echo "#SBATCH --output=$log"
    echo "#SBATCH --cpus-per-task=$cpus"
    echo "#SBATCH --chdir=$here"
    [[ -n "$array" ]] && echo "#SBATCH --array=$array"
    for o in "${sbatch_opts[@]}"; do echo "#SBATCH $o"; done
    echo "set -euo pipefail"
}

# shard_script NAME STEP SEED: array task i plays shard i/N into STEP/part-i; with SEED,
# the part starts as a copy of that merged folder (files already there are kept, so a
# rerun resumes instead of starting over).
shard_script() {
    local name="$1" step="$2" seed="${3-}"
    header "$name" "1-$tasks"
    echo "i=\$SLURM_ARRAY_TASK_ID"
    echo "part=$(q1 "$work/$step")/part-\$i"
    if [[ -n "$seed" ]]; then
        echo "mkdir -p \"\$part\""
        echo "cp -R -n $(q1 "$work/$seed")/. \"\$part\"/"
    fi
    echo "exec $run_cmd--shard \"\$i/$tasks\" --out \"\$part\""
}

# merge_lines STEP INTO: merges the parts of STEP into INTO after naming any task that
# left no folder (its shard never started, so the merge could not know it exists).
merge_lines() {
    local step="$1" into="$2"
    echo "missing=()"
    echo "for i in \$(seq 1 $tasks); do [[ -d $(q1 "$work/$step")/part-\$i ]] || missing+=(\"\$i\"); done"
    echo "if [[ \${#missing[@]} -gt 0 ]]; then"
    echo "    echo \"error: array task(s) \${missing[*]} of $tasks left no folder in $work/$step (shard i/$tasks with i = task): rerun them (submit the same command again)\" >&2"
    echo "    exit 1"
    echo "fi"
    echo "$(q1 "$bin") merge $(q1 "$work/$step")/part-{1..$tasks} --out $(q1 "$into")"
}

is_report=0
[[ "${command[0]}" == report ]] && is_report=1

shard_script step1 step1 >"$work/step1.sbatch"
jobs=(step1)
if [[ $is_report -eq 1 ]]; then
    { header merge1 ""; merge_lines step1 "$work/merged1"; } >"$work/merge1.sbatch"
    # The report's imbalance chain is built from the merged regression: a second array.
    shard_script step2 step2 merged1 >"$work/step2.sbatch"
    jobs+=(merge1 step2)
    last=step2
else
    last=step1
fi
# The unsharded command on the merged folder finds every game played and writes the
# figures (the report, the value table, the match result).
{
    header final ""
    merge_lines "$last" "$out"
    echo "exec $run_cmd--out $(q1 "$out")"
} >"$work/final.sbatch"
jobs+=(final)

previous=""
for j in "${jobs[@]}"; do
    submit=(sbatch --parsable)
    # A failed step cancels the rest instead of leaving it pending for ever.
    [[ -n "$previous" ]] && submit+=(--dependency="afterok:$previous" --kill-on-invalid-dep=yes)
    submit+=("$work/$j.sbatch")
    if [[ $dry -eq 1 ]]; then
        echo "${submit[*]}"
        previous="\$$j"
        continue
    fi
    id="$("${submit[@]}")" || die "sbatch refused $work/$j.sbatch"
    previous="${id%%;*}"
    echo "$j: job $previous"
done
if [[ $dry -eq 1 ]]; then
    echo "dry run: scripts in $work, nothing submitted"
else
    echo "result: $out (logs in $work/logs; squeue -u \$USER shows the chain)"
fi
