# Shared by the cluster recipes (scripts/slurm/submit.sh, scripts/k8s/submit.sh); sourced.

die() {
    echo "error: $*" >&2
    exit 2
}

# read_command ARGS...: the fairylab command words at the front of ARGS into the array
# `command` and their count into `command_words` (the caller shifts them off); what
# follows goes to fairylab unchanged but for --out.
read_command() {
    command=("$1")
    command_words=1
    case "$1" in
        report|match|tournament) ;;
        values)
            [[ $# -gt 1 && ( "$2" == regress || "$2" == imbalance ) ]] \
                || die "values needs regress or imbalance after it"
            command+=("$2")
            command_words=2
            ;;
        experiment)
            [[ $# -gt 1 && "$2" != -* ]] || die "experiment needs its FILE after it"
            command+=("$2")
            command_words=2
            ;;
        *) die "unknown command '$1': report, values regress, values imbalance, experiment FILE, match or tournament" ;;
    esac
}
