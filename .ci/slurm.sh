#!/usr/bin/env bash
# The Slurm scripts of deploy/slurm/ run for real: installs Debian's Slurm and MUNGE, starts munged,
# slurmctld and slurmd on this machine (one node, a minimal configuration in a temporary folder,
# no cgroups, no accounting), builds the release binary and then
#   0. checks that bad options are refused (exit 2) and --dry-run submits nothing;
#   1. counts N = 16 in 16 shards as a job array plus the dependent merge: total 14,772,512;
#   2. takes one record away: `nqueens merge` names the missing shard (exit 1), prints no total;
#   3. makes that shard fail under Slurm (its record path is a folder): the merge job is cancelled
#      and no total written; the same submit command again recounts only that shard and merges;
#   4. counts N = 12 in 70 shards on a cluster whose MaxArraySize is 32: 24 tasks of 3 shards;
#   4b. searches the first placement of N = 20 in 4 shards (--first), one of them stopped at once
#      beforehand and resumed from its record: the same placement as `nqueens list 20 --limit 1`;
#   5. counts N = 13 in 6 shards with --gpu: each array task asks the node's one GPU resource
#      (--gres=gpu:1) and counts on the GPU (Mesa's software Vulkan device, which .ci/run
#      installs, where the machine has no GPU): 73,712, every record naming its device;
#   6. only when FRONTIER="N K" is set (not in CI): a frontier count, N in K shards on every CPU
#      of the node (N = 17..27), checked against OEIS A000170, with its wall time, CPU time and
#      shard balance: `FRONTIER="21 1000" bash .ci/slurm.sh` (about an hour on 2 cores).
# Every wait is bounded; the daemons are stopped by PID on every exit, and their logs printed when
# a step fails. Needs root (apt-get, daemons) when Slurm is not installed. Takes about 30 s.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
submit=$repo/deploy/slurm/submit.sh

say() { echo "slurm test: $*" >&2; }
die() {
    say "FAILED: $*"
    exit 1
}

# --- The packages (about 3.5 MB of downloads). ---
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
    ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    say "installing slurmctld slurmd slurm-client munge"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        slurmctld slurmd slurm-client munge >/dev/null
fi

# --- A temporary cluster. ---
tmp=$(mktemp -d "${TMPDIR:-/tmp}/chess-puzzles-slurm.XXXXXX")
pids=()
cleanup() {
    local status=$?
    if ((status != 0)); then
        say "exit status $status; the logs:"
        for f in "$tmp"/log/*.log "$tmp"/runs/*/logs/*.out; do
            [[ -f $f ]] || continue
            echo "----- $f (last 40 lines)" >&2
            tail -n 40 -- "$f" >&2 || true
        done
    fi
    # The jobs of this cluster first (bounded), so that no job outlives its slurmd.
    if ((${#pids[@]} >= 3)); then
        scancel --quiet --user="$(id -un)" 2>/dev/null || true
        for _ in $(seq 50); do [[ -z $(squeue -h 2>/dev/null) ]] && break; sleep 0.2; done
    fi
    # Then the daemons in reverse order of start: slurmd, slurmctld, munged.
    local i
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        kill -TERM "${pids[i]}" 2>/dev/null || true
    done
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        # Bounded: a daemon still there after 10 s is killed.
        for _ in $(seq 100); do kill -0 "${pids[i]}" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "${pids[i]}" 2>/dev/null || true
    done
    if [[ -z ${KEEP_SLURM_TEST:-} ]]; then rm -rf -- "$tmp"; else say "kept $tmp"; fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# `wait_for SECONDS WHAT COMMAND...`: runs COMMAND every 0.2 s until it succeeds, at most SECONDS.
wait_for() {
    local limit=$1 what=$2
    shift 2
    local deadline=$((SECONDS + limit))
    until "$@"; do
        ((SECONDS < deadline)) || die "$what: not within $limit s"
        sleep 0.2
    done
}

mkdir -p "$tmp"/{munge,state,spool,log,runs}
chmod 700 "$tmp/munge"

say "starting munged"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
socket=$tmp/munge/munge.socket
munged --force --foreground --socket="$socket" --key-file="$tmp/munge/munge.key" \
    --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/log/munged.log" \
    --seed-file="$tmp/munge/munged.seed" 2>>"$tmp/log/munged.log" &
pids+=($!)
munge_works() { munge -n -S "$socket" 2>/dev/null | unmunge -S "$socket" >/dev/null 2>&1; }
wait_for 15 "munged answering on $socket" munge_works

# The node as slurmd sees this machine (CPUs, sockets, cores, threads, memory), named localhost.
hardware=$(slurmd -C | sed -n 's/^NodeName=[^ ]* //p')
[[ $hardware == *CPUs=* ]] || die "slurmd -C did not describe this machine: $(slurmd -C 2>&1)"
# `write_conf PORT`: the configuration, slurmctld on PORT and slurmd on PORT + 1.
write_conf() {
    cat >"$tmp/slurm.conf" <<EOF
ClusterName=chesspuzzles
SlurmctldHost=localhost
SlurmctldPort=$1
SlurmdPort=$(($1 + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool/%n
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
PlugStackConfig=$tmp/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MinJobAge=600
MaxArraySize=32
GresTypes=gpu
NodeName=localhost NodeAddr=127.0.0.1 $hardware Gres=gpu:1 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
}
: >"$tmp/plugstack.conf"
# One GPU resource on the node, its device file /dev/null (Slurm 22.05 counts no GPU without
# one; without cgroups nothing is hidden): a job asking for it counts on whatever GPU the
# machine has, or on the software device.
echo "NodeName=localhost Name=gpu File=/dev/null" >"$tmp/gres.conf"
export SLURM_CONF=$tmp/slurm.conf

ctld_up() { scontrol ping >/dev/null 2>&1; }
node_idle() {
    local state
    state=$(sinfo -h -n localhost -o %T 2>/dev/null) || return 1
    case $state in
    idle) return 0 ;;
    *drain* | *fail* | inval*) die "the node is $state: $(scontrol show node localhost | grep -i reason)" ;;
    *) return 1 ;;
    esac
}
# `wait_alive SECONDS PID COMMAND...`: runs COMMAND every 0.2 s until it succeeds (status 0), or
# the daemon PID has exited (status 1), or SECONDS have passed (the test fails).
wait_alive() {
    local deadline=$((SECONDS + $1)) pid=$2
    shift 2
    until "$@"; do
        kill -0 "$pid" 2>/dev/null || return 1
        ((SECONDS < deadline)) || die "$*: not within $1 s"
        sleep 0.2
    done
}
# `stop_daemon PID`: stops a daemon that came up wrong, bounded, and takes it out of pids.
stop_daemon() {
    kill -TERM "$1" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
    local kept=() p
    for p in "${pids[@]}"; do [[ $p == "$1" ]] || kept+=("$p"); done
    pids=("${kept[@]}")
}

# Two TCP ports for slurmctld and slurmd, below Linux's ephemeral range (32768-60999), where
# only a listener can hold one; a port nothing listens on may still be bound by a socket that
# does not listen, so when a daemon exits before it answers (its bind failed), both are
# stopped and started again on two other ports, up to 10 times.
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
ctld_port=''
for _ in $(seq 10); do
    p=$((16817 + 2 * (RANDOM % 500)))
    if listening "$p" || listening $((p + 1)); then continue; fi
    write_conf "$p"
    say "starting slurmctld (port $p) and slurmd (port $((p + 1)))"
    slurmctld -D -c -f "$SLURM_CONF" >>"$tmp/log/slurmctld.out" 2>&1 &
    ctld=$!
    pids+=("$ctld")
    if wait_alive 30 "$ctld" ctld_up; then
        slurmd -D -N localhost -f "$SLURM_CONF" >>"$tmp/log/slurmd.out" 2>&1 &
        node=$!
        pids+=("$node")
        if wait_alive 60 "$node" node_idle && kill -0 "$ctld" 2>/dev/null; then
            ctld_port=$p
            break
        fi
        say "slurmd did not come up on port $((p + 1)):"
        tail -n 5 "$tmp/log/slurmd.log" "$tmp/log/slurmd.out" >&2 2>/dev/null || true
        stop_daemon "$node"
    else
        say "slurmctld did not come up on port $p:"
        tail -n 5 "$tmp/log/slurmctld.log" "$tmp/log/slurmctld.out" >&2 2>/dev/null || true
    fi
    stop_daemon "$ctld"
done
[[ -n $ctld_port ]] || die "slurmctld and slurmd did not start on any of 10 pairs of ports"

say "building the release binary"
cargo build --release --quiet
bin=$repo/target/release/chess-puzzles

# `job_state ID`: the state of a job (of its first task for an array).
job_state() { scontrol show job -o "$1" 2>/dev/null | sed -n '1s/.*JobState=\([A-Z_]*\).*/\1/p'; }
# `wait_job SECONDS ID`: waits until job ID has ended; prints its final state.
wait_job() {
    local deadline=$((SECONDS + $1)) state
    while :; do
        state=$(job_state "$2")
        case $state in
        COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | PREEMPTED | BOOT_FAIL | DEADLINE)
            echo "$state"
            return
            ;;
        esac
        ((SECONDS < deadline)) || die "job $2 still ${state:-unknown} after $1 s"
        sleep 0.3
    done
}
# `submit_count OUTPUT_FILE ARGS...`: runs submit.sh, keeping its standard output.
submit_count() {
    local file=$1
    shift
    "$submit" "$@" >"$file" || die "submit.sh $* exited with $?"
    cat -- "$file" >&2
}
field() { sed -n "s/^$1=//p" "$2"; }

# --- 0. Bad options: exit 2 before anything is submitted. ---
bad() {
    local status=0
    "$submit" "$@" >/dev/null 2>"$tmp/bad.err" || status=$?
    [[ $status == 2 ]] || die "submit.sh $* exited with $status, not 2"
    [[ -z $(squeue -h) ]] || die "submit.sh $* submitted a job"
}
bad -n 16 -k 0 -b "$bin"
bad -n 16 -b "$bin"
bad -n 16 -k 16 -b "$bin" --throttle
bad -n 16 -k 16 -b "$bin" --bogus
bad -n 16 -k 16 -b /bin/true
bad -n 16 -k 16 -b "$bin" -o "$tmp/100%"
bad -n 16 -k 100 -b "$bin" --shards-per-task 2 # 50 tasks, MaxArraySize is 32
bad -n 16 -k 16 -b "$bin" --gpu --gres 'gpu 1'
"$submit" -n 16 -k 16 -b "$bin" -o "$tmp/runs/dry" -m 2 --dry-run >"$tmp/ids" 2>"$tmp/dry.err" ||
    die "submit.sh --dry-run failed: $(cat "$tmp/dry.err")"
if ! grep -q -- '--array=0-15%2 ' "$tmp/dry.err" || ! grep -q -- '--dependency=afterok:' "$tmp/dry.err"; then
    die "submit.sh --dry-run: $(cat "$tmp/dry.err")"
fi
[[ ! -e $tmp/runs/dry && -z $(squeue -h) ]] || die "submit.sh --dry-run submitted or wrote something"
say "0. bad options: exit 2, nothing submitted; --dry-run prints the sbatch commands"

# --- 1. N = 16 in 16 shards. ---
run=$tmp/runs/n16
started=$SECONDS
submit_count "$tmp/ids" -n 16 -k 16 -b "$bin" -o "$run" -m 2 --time 5
array_job=$(field array_job "$tmp/ids")
merge_job=$(field merge_job "$tmp/ids")
[[ $array_job =~ ^[0-9]+$ && $merge_job =~ ^[0-9]+$ ]] || die "no job ids in: $(cat "$tmp/ids")"
[[ $(wait_job 300 "$merge_job") == COMPLETED ]] || die "the merge job $merge_job did not complete"
records=("$run"/records/nqueens-16-of-16-shard-*.json)
((${#records[@]} == 16)) || die "expected 16 record files, found ${#records[@]}"
for i in $(seq 0 15); do
    f=$(printf '%s/records/nqueens-16-of-16-shard-%02d.json' "$run" "$i")
    [[ -s $f ]] || die "no record for shard $i ($f)"
done
[[ $(cat "$run/total.txt") == 14772512 ]] || die "total.txt says '$(cat "$run/total.txt")', not 14772512"
grep -Eq '"count": ?14772512[,}]' "$run/total.json" || die "total.json: $(cat "$run/total.json")"
say "1. N = 16 in 16 shards: 14772512 in $((SECONDS - started)) s (array $array_job, merge $merge_job)"

# --- 2. A missing record is named by merge. ---
shard5=$run/records/nqueens-16-of-16-shard-05.json
rm -- "$shard5" "$run/total.txt" "$run/total.json"
set +e
"$bin" nqueens merge "$run"/records/*.json >"$tmp/merge.out" 2>"$tmp/merge.err"
status=$?
set -e
[[ $status == 1 ]] || die "merge without shard 5 exited with $status, not 1 ($(cat "$tmp/merge.err"))"
[[ ! -s $tmp/merge.out ]] || die "merge without shard 5 printed a total: $(cat "$tmp/merge.out")"
grep -Eq '(^|[^0-9])5([^0-9]|$)' "$tmp/merge.err" ||
    die "merge without shard 5 does not name shard 5: $(cat "$tmp/merge.err")"
say "2. merge without shard 5: exit 1, $(cat "$tmp/merge.err")"

# --- 3. A shard that fails under Slurm, and the rerun. ---
mkdir -- "$shard5" # a folder where the record goes: the task's rename fails
before=$(stat -c '%n %i %y' "$run"/records/*.json | grep -v shard-05)
submit_count "$tmp/ids" -n 16 -k 16 -b "$bin" -o "$run" -m 2 --time 5
array_job=$(field array_job "$tmp/ids")
merge_job=$(field merge_job "$tmp/ids")
[[ $(job_state "$array_job") != "" ]] || die "no array job $array_job"
scontrol show job -o "$array_job" | grep -Eq 'ArrayTaskId=5(%[0-9]+)?( |$)' ||
    die "the rerun did not submit exactly task 5: $(scontrol show job -o "$array_job" | grep -o 'ArrayTaskId=[^ ]*')"
[[ $(scontrol show job -o "$array_job" | wc -l) == 1 ]] || die "the rerun submitted more than task 5"
[[ $(wait_job 120 "$array_job") == FAILED ]] || die "shard 5's task did not fail"
state=$(wait_job 60 "$merge_job")
[[ $state == CANCELLED ]] || die "the merge job after a failed shard is $state, not CANCELLED"
[[ ! -e $run/total.txt ]] || die "a total was written after a failed shard"
rmdir -- "$shard5"
submit_count "$tmp/ids" -n 16 -k 16 -b "$bin" -o "$run" -m 2 --time 5
merge_job=$(field merge_job "$tmp/ids")
[[ $(wait_job 300 "$merge_job") == COMPLETED ]] || die "the merge job $merge_job of the rerun did not complete"
[[ $(cat "$run/total.txt") == 14772512 ]] || die "the rerun's total is '$(cat "$run/total.txt")'"
after=$(stat -c '%n %i %y' "$run"/records/*.json | grep -v shard-05)
[[ $before == "$after" ]] || die "the rerun rewrote records that were there"
submit_count "$tmp/ids" -n 16 -k 16 -b "$bin" -o "$run"
[[ $(field array_job "$tmp/ids") == none ]] || die "a complete count submitted an array again"
[[ $(wait_job 120 "$(field merge_job "$tmp/ids")") == COMPLETED ]] || die "the merge of a complete count failed"
say "3. shard 5 failed: merge cancelled, no total; the rerun counted shard 5 alone: 14772512"

# --- 4. More shards than MaxArraySize (32): N = 12 in 70 shards, 3 per task. ---
run=$tmp/runs/n12
started=$SECONDS
submit_count "$tmp/ids" -n 12 -k 70 -b "$bin" -o "$run" --time 5
array_job=$(field array_job "$tmp/ids")
merge_job=$(field merge_job "$tmp/ids")
[[ $(wait_job 300 "$merge_job") == COMPLETED ]] || die "the merge job $merge_job did not complete"
tasks=$(grep -l . "$run"/logs/shard-*.out | wc -l)
[[ $tasks == 24 ]] || die "expected 24 array tasks (3 shards each), found $tasks task logs"
records=("$run"/records/nqueens-12-of-70-shard-*.json)
((${#records[@]} == 70)) || die "expected 70 record files, found ${#records[@]}"
[[ $(cat "$run/total.txt") == 14200 ]] || die "total.txt says '$(cat "$run/total.txt")', not 14200"
say "4. N = 12 in 70 shards as 24 tasks of 3 (MaxArraySize 32): 14200 in $((SECONDS - started)) s"

# --- 4b. The first placement of N = 20 in 4 shards (submit.sh --first), stopped and resumed. ---
run=$tmp/runs/first
started=$SECONDS
bad -n 20 -k 4 -b "$bin" --first --gpu
bad -n 20 -k 4 -b "$bin" --first --depth 21
# Shard 2 stopped before it ends: its resumable record says where it was.
state=$(printf '%s/records/nqueens-first-20-of-4-shard-2.json.state' "$run")
mkdir -p "$run/records"
set +e
"$bin" nqueens list 20 --limit 1 --shard 2/4 --depth 7 --time-limit 0 --record "$state" >/dev/null 2>&1
status=$?
set -e
[[ $status == 124 ]] || die "a shard stopped at once exited with $status, not 124"
grep -q '"outcome":"running"' "$state" || die "the stopped shard's record: $(cat "$state")"
submit_count "$tmp/ids" -n 20 -k 4 -b "$bin" -o "$run" --first --depth 7 --time 5
merge_job=$(field merge_job "$tmp/ids")
[[ $(wait_job 300 "$merge_job") == COMPLETED ]] || die "the merge job $merge_job of the first placement did not complete"
expected=$("$bin" nqueens list 20 --limit 1)
[[ $(cat "$run/first.txt") == "$expected" ]] || die "first.txt says '$(cat "$run/first.txt")', not '$expected'"
grep -q '"prefix":' "$run/first.json" || die "first.json: $(cat "$run/first.json")"
for i in 0 1 2 3; do
    [[ -s $run/records/nqueens-first-20-of-4-shard-$i.json ]] || die "no record for shard $i of the first placement"
done
say "4b. the first placement of N = 20 in 4 shards (shard 2 resumed): $(cat "$run/first.txt") in $((SECONDS - started)) s"

# --- 5. Shards on a GPU. ---
run=$tmp/runs/gpu
started=$SECONDS
# The node's one "GPU" is Mesa's software device: let it count (sbatch passes the variable on).
export CHESS_PUZZLES_GPU_ALLOW_SOFTWARE=1
submit_count "$tmp/ids" -n 13 -k 6 -b "$bin" -o "$run" --gpu --time 5
merge_job=$(field merge_job "$tmp/ids")
[[ $(wait_job 600 "$merge_job") == COMPLETED ]] || die "the merge job $merge_job of the GPU shards did not complete"
[[ $(cat "$run/total.txt") == 73712 ]] || die "the GPU shards' total is '$(cat "$run/total.txt")', not 73712"
for f in "$run"/records/*.json; do
    grep -q '"device":"' "$f" || die "$f was not counted on a GPU: $(cat "$f")"
done
# (Read whole before grep: with pipefail, grep -q stopping early would fail the pipeline.)
job=$(scontrol show job -o "$(field array_job "$tmp/ids")" 2>/dev/null)
[[ $job == *TresPerNode=gres:gpu:1* ]] || die "the array job did not ask for a GPU: $job"
say "5. N = 13 in 6 shards, one GPU each (--gres=gpu:1): 73712 in $((SECONDS - started)) s, on $(sed -n 's/.*"device":"\([^"]*\)".*/\1/p' "$run/records/nqueens-13-of-6-shard-0.json")"

# --- 6. On demand: a frontier count. ---
if [[ -n ${FRONTIER:-} ]]; then
    read -r fn fk <<<"$FRONTIER"
    # OEIS A000170.
    declare -A known=([17]=95815104 [18]=666090624 [19]=4968057848 [20]=39029188884
        [21]=314666222712 [22]=2691008701644 [23]=24233937684440 [24]=227514171973736
        [25]=2207893435808352 [26]=22317699616364044 [27]=234907967154122528)
    [[ -n ${known[$fn]:-} && $fk =~ ^[0-9]+$ ]] || die "FRONTIER='$FRONTIER': expected N (17..27) and K"
    cpus=$(sinfo -h -n localhost -o %c)
    run=$tmp/runs/frontier
    started=$SECONDS
    submit_count "$tmp/ids" -n "$fn" -k "$fk" -b "$bin" -o "$run" -m "$cpus"
    merge_job=$(field merge_job "$tmp/ids")
    [[ $(wait_job $((7 * 24 * 3600)) "$merge_job") == COMPLETED ]] || die "the frontier merge job did not complete"
    wall=$((SECONDS - started))
    total=$(cat "$run/total.txt")
    [[ $total == "${known[$fn]}" ]] || die "N = $fn: total $total, not ${known[$fn]}"
    # Shard balance from the records' CPU times.
    balance=$(cat "$run"/records/*.json | python3 -c '
import json, sys
cpu = [json.loads(line)["cpu_seconds"] for line in sys.stdin if line.strip()]
print("CPU %.1f s in all, shards %d, mean %.2f s, largest %.2f s (%.2fx the mean)"
      % (sum(cpu), len(cpu), sum(cpu) / len(cpu), max(cpu), max(cpu) / (sum(cpu) / len(cpu))))')
    side=$(head -c 400 "$(ls "$run"/records/*.json | head -n 1)" | sed -n 's/.*"side":\([0-9]*\).*/\1/p')
    say "6. frontier: N = $fn in $fk shards (band sides of $side columns) on $cpus CPUs: $total (OEIS A000170) in $wall s of wall time; $balance"
fi

echo "slurm: 7 passed, 0 failed"
