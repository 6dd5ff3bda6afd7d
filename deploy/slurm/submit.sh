#!/usr/bin/env bash
# Counts the placements of N non-attacking queens on an N x N board on a Slurm cluster: the count
# is cut into K shards (`chess-puzzles nqueens count N --shard I/K`), submitted as one job array,
# each shard's record written to its own file, and `chess-puzzles nqueens merge` runs as a job that
# starts once every array task has succeeded. Run it again with the same options to finish a count
# whose shards failed: only the shards without a record are submitted again. With --first, the
# search for the first placement instead (`nqueens list N --limit 1 --shard I/K`), merged into the
# first placement. `--help` tells more.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

usage() {
    cat <<'EOF'
Usage: submit.sh -n N -k K [OPTION]... [-- SBATCH_OPTION...]

Counts the N-queens placements of an N x N board on a Slurm cluster in K shards: one job array
runs `chess-puzzles nqueens count N --shard I/K --format json` for I = 0..K-1 and writes each
shard's record to OUT/records/; a second job, started only when every array task has succeeded,
checks the records with `chess-puzzles nqueens merge` and writes the total to OUT/total.txt
(and OUT/total.json).

  -n, --side N             the board's side (required)
  -k, --shards K           how many shards the count is cut into (required)
  -b, --bin PATH           the chess-puzzles binary, at a path every node can reach
                           (default: chess-puzzles on PATH)
  -o, --out DIR            the output folder, on a file system every node shares
                           (default: ./nqueens-N-K)
  -m, --throttle M         run at most M array tasks at a time (sbatch --array=...%M;
                           default: no limit)
  -t, --threads T          threads per shard, and CPUs per array task (default: 1)
  -g, --gpu                count each shard on a GPU (`--device gpu`): each array task asks
                           Slurm for one (--gres=gpu:1, or the value of --gres)
      --gres SPEC          the generic resources each array task asks for with --gpu
                           (default: gpu:1; e.g. gpu:h100:1)
  -p, --partition NAME     the partition of both jobs (default: the cluster's default)
      --time LIMIT         time limit of each array task and of the merge, in sbatch's
                           format, e.g. 30 or 2:00:00 (default: the partition's)
      --mem SIZE           memory of each array task, e.g. 200M (default: the partition's)
      --shards-per-task S  shards run one after the other by each array task (default: 1,
                           or as many as it takes to keep the array within MaxArraySize)
      --max-array-size A   the cluster's MaxArraySize (default: read from
                           `scontrol show config`, or 1001 when it cannot be read)
      --dry-run            print the sbatch commands instead of running them
  -h, --help               print this help

  -f, --first              search for the first placement in lexicographic order instead of
                           counting: each array task runs `chess-puzzles nqueens list N
                           --limit 1 --shard I/K --format json` (resumable: a task killed
                           by its time limit goes on from its record when submitted again),
                           and the merge writes the placement to OUT/first.txt (and
                           OUT/first.json); not with --gpu or --threads
  -d, --depth D            with --first: the columns of a prefix (default: the program's
                           choice for N and K)

Everything after `--` is passed to both sbatch commands (e.g. -- --account=myproject).

Standard output gets two lines, for scripts:
  array_job=ID    the job array's id (`none` when every shard already has its record)
  merge_job=ID    the merge job's id
Exit status: 0 submitted, 1 sbatch refused a job, 2 bad options.

Records are written to a temporary name and renamed, so a record file is always whole; a shard
whose record exists is never counted again. If a task fails (node lost, time limit), Slurm
cancels the merge job; run the same command again: it submits only the array tasks with a
missing record, and a new merge job.
EOF
}

fail_usage() {
    echo "error: $1" >&2
    echo "Try 'submit.sh --help'." >&2
    exit 2
}

# `positive NAME VALUE`: VALUE must be a whole number from 1 up (at most 9 digits: no overflow).
positive() {
    [[ $2 =~ ^[0-9]{1,9}$ && $((10#$2)) -ge 1 ]] ||
        fail_usage "$1: expected a whole number from 1 up, found '$2'"
}

side='' shards='' bin=chess-puzzles out='' throttle='' threads=1 partition='' time_limit='' mem=''
per_task='' max_array='' dry_run=false device=cpu gres=gpu:1 search=count depth=''
threads_set=false
extra=()
while (($#)); do
    option=$1
    case $option in
    -h | --help) usage; exit 0 ;;
    --dry-run) dry_run=true; shift; continue ;;
    -g | --gpu) device=gpu; shift; continue ;;
    -f | --first) search=first; shift; continue ;;
    --) shift; extra=("$@"); break ;;
    -n | --side | -k | --shards | -b | --bin | -o | --out | -m | --throttle | -t | --threads | \
        -p | --partition | --time | --mem | --shards-per-task | --max-array-size | --gres | \
        -d | --depth) ;;
    *) fail_usage "expected an option (see --help), found '$option'" ;;
    esac
    (($# >= 2)) || fail_usage "$option: expected a value, found the end of the options"
    value=$2
    shift 2
    case $option in
    -n | --side) positive "$option" "$value"; side=$((10#$value)) ;;
    -k | --shards) positive "$option" "$value"; shards=$((10#$value)) ;;
    -b | --bin) bin=$value ;;
    -o | --out) out=$value ;;
    -m | --throttle) positive "$option" "$value"; throttle=$((10#$value)) ;;
    -t | --threads) positive "$option" "$value"; threads=$((10#$value)) threads_set=true ;;
    -d | --depth) positive "$option" "$value"; depth=$((10#$value)) ;;
    -p | --partition) partition=$value ;;
    --time) time_limit=$value ;;
    --mem) mem=$value ;;
    --gres)
        [[ $value =~ ^[A-Za-z0-9_:,.-]+$ ]] ||
            fail_usage "--gres: expected a generic resource like gpu:1 or gpu:h100:1, found '$value'"
        gres=$value
        ;;
    --shards-per-task) positive "$option" "$value"; per_task=$((10#$value)) ;;
    --max-array-size) positive "$option" "$value"; max_array=$((10#$value)) ;;
    esac
done
[[ -n $side ]] || fail_usage "-n/--side: expected the board's side, found nothing"
[[ -n $shards ]] || fail_usage "-k/--shards: expected the number of shards, found nothing"
if [[ $search == first ]]; then
    [[ $device == cpu ]] || fail_usage "--first: the first placement is searched on the CPU; not with --gpu"
    $threads_set && fail_usage "--first: each shard searches on one thread; not with --threads"
    ((side <= 64)) || fail_usage "-n/--side: expected a side 1..64 with --first, found $side"
    [[ -z $depth ]] || ((depth <= side)) ||
        fail_usage "--depth: expected a depth 1..$side (at most the side), found $depth"
else
    [[ -z $depth ]] || fail_usage "--depth: the columns of a prefix of --first; not for a count"
fi

# The binary: an absolute path, so that the jobs find it wherever they start.
if [[ $bin == */* ]]; then
    [[ -x $bin && -f $bin ]] || fail_usage "--bin: expected an executable file, found '$bin'"
    bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
else
    found=$(command -v "$bin" || true)
    [[ $found == /* ]] || fail_usage "--bin: expected a program on PATH or a path, found '$bin'"
    bin=$found
fi
version=$("$bin" --version 2>/dev/null | head -n 1) || true
[[ $version == chess-puzzles* ]] ||
    fail_usage "--bin: expected the chess-puzzles binary, found '$bin' (its --version: '${version:-nothing}')"

# The array: task T runs shards T*S .. T*S+S-1 (S shards per task), and the array's largest index
# must stay below MaxArraySize, so S grows when K is larger than MaxArraySize.
if [[ -z $max_array ]]; then
    max_array=$(scontrol show config 2>/dev/null | sed -n 's/^MaxArraySize *= *\([0-9]\{1,9\}\).*/\1/p') || true
    max_array=${max_array:-1001}
fi
if [[ -z $per_task ]]; then
    per_task=$(((shards + max_array - 1) / max_array))
fi
tasks=$(((shards + per_task - 1) / per_task))
((tasks <= max_array)) ||
    fail_usage "--shards-per-task: $per_task shards per task make $tasks array tasks, more than MaxArraySize ($max_array)"

if [[ $search == first ]]; then
    out=$(realpath -m -- "${out:-nqueens-first-$side-$shards}")
else
    out=$(realpath -m -- "${out:-nqueens-$side-$shards}")
fi
# sbatch reads '%' in --output as a pattern, the record name is a printf format ('%', '\'), and
# a newline would split the list of records.
[[ $out != *[%\\$'\n']* ]] ||
    fail_usage "--out: expected a folder name without '%', '\\' or a newline, found '$out'"
if ! $dry_run; then
    mkdir -p -- "$out/records" "$out/logs" || fail_usage "--out: cannot create the folder '$out'"
fi

# The record of shard I: zero-padded to K's width so that names sort in shard order; N and K in
# the name keep the records of different counts apart in one folder. The array tasks and the
# merge get it as a printf format.
if [[ $search == first ]]; then
    record_format="$out/records/nqueens-first-$side-of-$shards-shard-%0${#shards}d.json"
else
    record_format="$out/records/nqueens-$side-of-$shards-shard-%0${#shards}d.json"
fi

# The array tasks that still have a shard without a record, as sbatch ranges: "0-15", "3,7-9".
spec=
first_missing=-1 last_missing=-1
flush() {
    if ((first_missing >= 0)); then
        if ((first_missing == last_missing)); then range=$first_missing; else range=$first_missing-$last_missing; fi
        spec=${spec:+$spec,}$range
    fi
}
for ((task = 0; task < tasks; task++)); do
    missing=false
    for ((i = task * per_task; i < (task + 1) * per_task && i < shards; i++)); do
        # shellcheck disable=SC2059 # the format is ours
        printf -v path "$record_format" "$i"
        if [[ ! -f $path ]]; then missing=true; break; fi
    done
    if $missing; then
        if ((last_missing == task - 1 && first_missing >= 0)); then
            last_missing=$task
        else
            flush
            first_missing=$task last_missing=$task
        fi
    fi
done
flush

common=()
[[ -n $partition ]] && common+=(--partition="$partition")
[[ -n $time_limit ]] && common+=(--time="$time_limit")

submit() {
    if $dry_run; then
        printf '%q ' sbatch "$@" >&2
        echo >&2
        echo DRY-RUN
        return
    fi
    local answer
    answer=$(sbatch --parsable "$@") || { echo "error: sbatch refused the job" >&2; exit 1; }
    echo "${answer%%;*}"
}

array_job=none
name=nqueens-$side
[[ $search == first ]] && name=nqueens-first-$side
if [[ -n $spec ]]; then
    array=(--array="$spec${throttle:+%$throttle}" --job-name="$name-shards"
        --cpus-per-task="$threads" --output="$out/logs/shard-%A_%a.out" "${common[@]}")
    [[ -n $mem ]] && array+=(--mem="$mem")
    [[ $device == gpu ]] && array+=(--gres="$gres")
    if [[ $search == first ]]; then
        array_job=$(submit "${array[@]}" "${extra[@]}" "$here/first-shard.sbatch" \
            "$bin" "$side" "$shards" "$depth" "$record_format" "$per_task")
    else
        array_job=$(submit "${array[@]}" "${extra[@]}" "$here/shard.sbatch" \
            "$bin" "$side" "$shards" "$record_format" "$per_task" "$threads" "$device")
    fi
fi
merge=(--job-name="$name-merge" --output="$out/logs/merge-%j.out" "${common[@]}")
if [[ $array_job != none ]]; then
    merge+=(--dependency="afterok:$array_job" --kill-on-invalid-dep=yes)
fi
merge_job=$(submit "${merge[@]}" "${extra[@]}" "$here/merge.sbatch" "$bin" "$side" "$shards" "$record_format" "$out" "$search")

if [[ $array_job == none ]]; then
    echo "every shard of N = $side in $shards has its record in $out/records: no array" >&2
else
    echo "array job $array_job: shards 0-$((shards - 1)) of N = $side as tasks $spec" \
        "($per_task shard(s) per task${throttle:+, at most $throttle at a time}$([[ $device == gpu ]] && echo ", on a GPU each: --gres=$gres"))" >&2
fi
if [[ $search == first ]]; then
    echo "merge job $merge_job: the first placement goes to $out/first.txt" >&2
else
    echo "merge job $merge_job: the total goes to $out/total.txt" >&2
fi
echo "array_job=$array_job"
echo "merge_job=$merge_job"
