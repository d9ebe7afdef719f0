#!/usr/bin/env bash
# The Kubernetes path of a sharded fairylab command: Indexed Jobs whose completion index
# is the shard, a shared volume for the parts, and the merge (and for a report the second
# array, which needs the merged regression) as follow-up Jobs. Kubernetes has no
# dependencies between Jobs, so this script applies each Job when the one before it has
# completed. Applying again after a failure resumes: a part already on the volume is kept.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: scripts/k8s/submit.sh --tasks N --image IMAGE [options] COMMAND [fairylab arguments] --out DIR

COMMAND is one of: report, values regress, values imbalance, experiment FILE, match,
tournament, with its fairylab arguments (no --shard). DIR is a folder on the shared
volume, relative to its mount point /data.

options (before COMMAND):
  --tasks N        shards, run as one Indexed Job of N pods (required)
  --image IMAGE    a container image with fairylab on the PATH (scripts/k8s/Dockerfile)
  --claim NAME     the ReadWriteMany PersistentVolumeClaim of the parts (default fairylab-data)
  --cpus C         CPUs per pod and games it plays at once (default 1)
  --name NAME      prefix of the Job names (default fairylab)
  --manifests DIR  where the manifests are written (default ./k8s-NAME)
  --dry-run        write the manifests; apply nothing
EOF
}

# shellcheck source=../lib/command.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/command.sh"

tasks="" image="" claim=fairylab-data cpus=1 name=fairylab manifests="" dry=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        --tasks) tasks="${2-}"; shift 2 || die "--tasks needs a number" ;;
        --image) image="${2-}"; shift 2 || die "--image needs an image" ;;
        --claim) claim="${2-}"; shift 2 || die "--claim needs a claim name" ;;
        --cpus) cpus="${2-}"; shift 2 || die "--cpus needs a number" ;;
        --name) name="${2-}"; shift 2 || die "--name needs a name" ;;
        --manifests) manifests="${2-}"; shift 2 || die "--manifests needs a folder" ;;
        --dry-run) dry=1; shift ;;
        -h|--help) usage; exit 0 ;;
        --*) die "unknown option $1 (options come before the command; see --help)" ;;
        *) break ;;
    esac
done
[[ $# -gt 0 ]] || { usage >&2; exit 2; }
[[ "$tasks" =~ ^[1-9][0-9]*$ ]] || die "--tasks '$tasks' must be a whole number of at least 1"
[[ "$cpus" =~ ^[1-9][0-9]*$ ]] || die "--cpus '$cpus' must be a whole number of at least 1"
[[ -n "$image" ]] || die "give --image: a container image with fairylab on the PATH"
# Job names become DNS labels: lower case, digits and dashes.
[[ "$name" =~ ^[a-z]([-a-z0-9]{0,40}[a-z0-9])?$ ]] || die "--name '$name' must be lower-case letters, digits and dashes"

read_command "$@"
shift "$command_words"
out="" concurrency=0
args=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --out) [[ $# -ge 2 ]] || die "--out needs a folder"; out="$2"; shift 2 ;;
        --out=*) out="${1#--out=}"; shift ;;
        --shard|--shard=*) die "--shard is the recipe's: each pod gets its own (leave it out)" ;;
        --concurrency|--concurrency=*) concurrency=1; args+=("$1"); shift ;;
        --data|--data=*) [[ "${command[*]}" != "values regress" ]] || die "values regress --data: nothing to shard"; args+=("$1"); shift ;;
        *) args+=("$1"); shift ;;
    esac
done
[[ -n "$out" ]] || die "give --out DIR: the folder on the volume the merged result goes to"
# The path goes unquoted into the pods' scripts: plain characters only.
[[ "$out" =~ ^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*/?$ && "$out" != *..* ]] \
    || die "--out '$out' must be a relative path inside the volume, of letters, digits, '.', '_', '-' and '/'"
out="/data/${out%/}"
work="$out.k8s"
[[ $concurrency -eq 1 ]] || args+=(--concurrency "$cpus")
manifests="${manifests:-k8s-$name}"
mkdir -p "$manifests" || die "cannot create $manifests"

q() { printf '%q ' "$@"; }
run_cmd="fairylab $(q "${command[@]}" "${args[@]}")"

# job NAME INDEXED SCRIPT: one Job manifest; SCRIPT runs under bash in the container.
job() {
    local job="$1" indexed="$2" script="$3"
    cat <<EOF
apiVersion: batch/v1
kind: Job
metadata:
  name: $name-$job
  labels:
    app.kubernetes.io/name: fairylab
    fairylab/chain: $name
spec:
EOF
    if [[ $indexed == 1 ]]; then
        cat <<EOF
  completionMode: Indexed
  completions: $tasks
  parallelism: $tasks
EOF
    fi
    cat <<EOF
  # A restarted pod finds its part on the volume and resumes it.
  backoffLimit: $((indexed == 1 ? 2 * tasks : 2))
  template:
    metadata:
      labels:
        app.kubernetes.io/name: fairylab
    spec:
      restartPolicy: OnFailure
      containers:
        - name: fairylab
          image: $image
          command: ["bash", "-c"]
          args:
            - |
EOF
    sed 's/^/              /' <<<"$script"
    cat <<EOF
          resources:
            requests:
              cpu: "$cpus"
            limits:
              cpu: "$cpus"
          volumeMounts:
            - name: data
              mountPath: /data
      volumes:
        - name: data
          persistentVolumeClaim:
            claimName: $claim
EOF
}

# Pod i of the Indexed Job plays shard i+1/N (completion indexes count from 0).
shard_script() {
    local step="$1" seed="${2-}"
    echo "set -euo pipefail"
    echo "i=\$((JOB_COMPLETION_INDEX + 1))"
    echo "part=$work/$step/part-\$i"
    if [[ -n "$seed" ]]; then
        echo "mkdir -p \"\$part\""
        echo "cp -R -n $work/$seed/. \"\$part\"/"
    fi
    echo "exec $run_cmd--shard \"\$i/$tasks\" --out \"\$part\""
}

merge_script() {
    local step="$1" into="$2"
    echo "set -euo pipefail"
    echo "missing=()"
    echo "for i in \$(seq 1 $tasks); do [[ -d $work/$step/part-\$i ]] || missing+=(\"\$i\"); done"
    echo "if [[ \${#missing[@]} -gt 0 ]]; then echo \"error: shard(s) \${missing[*]} of $tasks left no folder in $work/$step (pod index = shard - 1)\" >&2; exit 1; fi"
    echo "fairylab merge $work/$step/part-{1..$tasks} --out $into"
}

jobs=(step1)
job step1 1 "$(shard_script step1)" >"$manifests/step1.yaml"
last=step1
if [[ "${command[0]}" == report ]]; then
    job merge1 0 "$(merge_script step1 "$work/merged1")" >"$manifests/merge1.yaml"
    # The report's imbalance chain is built from the merged regression: a second array.
    job step2 1 "$(shard_script step2 merged1)" >"$manifests/step2.yaml"
    jobs+=(merge1 step2)
    last=step2
fi
job final 0 "$(merge_script "$last" "$out"; echo "exec $run_cmd--out $out")" >"$manifests/final.yaml"
jobs+=(final)

if [[ $dry -eq 1 ]]; then
    echo "dry run: manifests in $manifests (${jobs[*]}), nothing applied"
    exit 0
fi
command -v kubectl >/dev/null || die "kubectl not found"
for j in "${jobs[@]}"; do
    # A Job's pod template cannot change: the finished Job of an earlier attempt goes first.
    kubectl delete job "$name-$j" --ignore-not-found >/dev/null
    kubectl apply -f "$manifests/$j.yaml"
    while :; do
        state="$(kubectl get job "$name-$j" -o jsonpath='{.status.conditions[?(@.status=="True")].type}')"
        case "$state" in
            *Complete*) break ;;
            *Failed*) die "job $name-$j failed (kubectl logs job/$name-$j); run the same command again to resume" ;;
        esac
        sleep 20
    done
    echo "$name-$j: complete"
done
echo "result: $out on the volume $claim"
