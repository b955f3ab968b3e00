#!/bin/bash
# make test-cluster: the Slurm and GNU parallel recipes of contrib/, run for
# real on this one machine.
#
# As root it installs Debian's slurmctld, slurmd, slurm-client, munge and
# parallel when they are missing, starts munged, slurmctld and slurmd by hand
# (no systemd) on private ports and a private munge socket, with a
# configuration written to a temporary folder, and then:
#   - solves a generated set in one process, the reference;
#   - queues it as a 4-task array plus a dependent merge through
#     contrib/slurm/submit.sh, kills one task's coinrow with SIGKILL and has
#     Slurm requeue another mid-way, and compares the merged run with the
#     reference (coinrow compare, exit 0);
#     "mid-way" is an event, not a time: those shards' first tries are held
#     right after their first commit (see "Holding a shard"), so a machine
#     ten times faster or slower kills them at the same place;
#   - merges without one shard (refused, naming it) and with a shard of
#     another job (refused), leaving the database as it was; merges twice;
#   - runs contrib/parallel/run-shards.sh, kills one shard mid-way (held
#     too; parallel retries it, it resumes) and compares again.
#   - runs a job of 100 shards and one of 1,000 through run-shards.sh, with
#     at most 64 files open, compares each merged run with a single run, and
#     merges the 1,000 without one shard and with one given twice (refused).
# It stops every daemon it started, by process id, and removes its folder,
# whatever happens (CLUSTER_KEEP=1 keeps the folder).  Every wait is for
# an event (a socket, a node's state, a process, a commit, a job's end),
# with a deadline that is a failure.
#
#   COINROW=build/coinrow      the binary under test
#   CLUSTER_COUNT, CLUSTER_N, CLUSTER_VALUES, CLUSTER_SOLVE_OPTS
#                              the generated set and the solve options
#   CLUSTER_WAIT=180           the deadline, in seconds, of each wait
set -eu

cd "$(dirname "$0")/../.."
ROOT=$(pwd)

passed=0
failed=0
say() { printf 'cluster: %s\n' "$*"; }
pass() { passed=$((passed + 1)); say "ok   $*"; }
fail() { failed=$((failed + 1)); say "FAIL $*"; }
# A step that later ones need failed: stop here (the EXIT trap cleans up).
die() { failed=$((failed + 1)); say "FAIL $*" >&2; exit 1; }
# check WHAT COMMAND...: one pass or fail per behaviour
check() {
    local what=$1
    shift
    if "$@"; then pass "$what"; else fail "$what"; fi
}
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN {printf "%.1f s", b - a}'; }

if [ "$(id -u)" != 0 ]; then
    say "skipped: needs root, to install Debian's slurmctld slurmd slurm-client munge parallel" \
        "and to run munged, slurmctld and slurmd as root"
    exit 0
fi

# ---------------------------------------------------------------- packages

install_packages() {
    local cmd missing=""
    for cmd in slurmctld slurmd sbatch munged mungekey parallel sqlite3; do
        command -v "$cmd" >/dev/null 2>&1 || missing=yes
    done
    [ -n "$missing" ] || return 0
    say "installing slurmctld slurmd slurm-client munge parallel sqlite3"
    if ! { DEBIAN_FRONTEND=noninteractive apt-get -qq -o DPkg::Lock::Timeout=600 update &&
           DEBIAN_FRONTEND=noninteractive apt-get -qq -y -o DPkg::Lock::Timeout=600 install \
               slurmctld slurmd slurm-client munge parallel sqlite3; } >"${TMPDIR:-/tmp}/coinrow-cluster-apt.$$.log" 2>&1; then
        tail -n 20 "${TMPDIR:-/tmp}/coinrow-cluster-apt.$$.log" >&2
        rm -f "${TMPDIR:-/tmp}/coinrow-cluster-apt.$$.log"
        die "cannot install Debian's slurmctld slurmd slurm-client munge parallel sqlite3 (apt-get failed, above)"
    fi
    rm -f "${TMPDIR:-/tmp}/coinrow-cluster-apt.$$.log"
    for cmd in slurmctld slurmd sbatch munged mungekey parallel sqlite3; do
        command -v "$cmd" >/dev/null 2>&1 || die "$cmd is still missing after apt-get install"
    done
}

# ---------------------------------------------------------------- daemons

T=""
PIDS=""            # daemons started here, "name:pid", stopped in reverse order
BACKGROUND=""      # other processes started here in the background
SLURMCTLD_PID=""

start_munge() {
    mkdir -m 0700 "$T/munge"
    mungekey --create --keyfile="$T/munge/munge.key"
    chmod 0400 "$T/munge/munge.key"
    mkdir -m 0711 "$T/munge/run"    # clients need search permission to reach the socket
    MUNGE_SOCKET=$T/munge/run/munge.socket
    munged --foreground --force --key-file="$T/munge/munge.key" --socket="$MUNGE_SOCKET" \
        --pid-file="$T/munge/munged.pid" --log-file="$T/munge/munged.log" \
        --seed-file="$T/munge/munged.seed" >"$T/munge/munged.out" 2>&1 &
    PIDS="munged:$! $PIDS"
    for _ in $(seq $((CLUSTER_WAIT * 10))); do
        [ -S "$MUNGE_SOCKET" ] && break
        sleep 0.1 # only how soon the socket is seen, not whether
    done
    munge -S "$MUNGE_SOCKET" -n </dev/null | unmunge -S "$MUNGE_SOCKET" >/dev/null ||
        die "munged does not answer on its socket (log: $(tail -n 3 "$T/munge/munged.log" 2>/dev/null))"
}

free_port() {
    local p
    for _ in $(seq 100); do
        p=$((20000 + RANDOM % 20000))
        if ! ss -Htln "( sport = :$p or sport = :$((p + 1)) )" | grep -q .; then
            echo "$p"
            return 0
        fi
    done
    die "no free TCP port pair found"
}

write_slurm_conf() {
    local node=$1 port=$2 cpus mem
    cpus=$(nproc)
    # What slurmd itself measures: a node configured with more memory than
    # slurmd finds is drained at once.
    mem=$(slurmd -C 2>/dev/null | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' | head -n 1)
    [ -n "$mem" ] || mem=$(awk '/^MemTotal:/ {print int($2 / 1024)}' /proc/meminfo)
    mkdir -p "$T/slurm/state" "$T/slurm/spool" "$T/slurm/log" "$T/slurm/run"
    cat >"$T/slurm/slurm.conf" <<EOF
# Written by tests/cluster/run.sh: one node, this machine, for the test only.
ClusterName=coinrowtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
# cred_expire is also how long a requeued job waits before it starts again
# (120 s by default): short here, so that the requeue tests take seconds.
AuthInfo=socket=$MUNGE_SOCKET,cred_expire=10
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$T/slurm/state
SlurmdSpoolDir=$T/slurm/spool
SlurmctldPidFile=$T/slurm/run/slurmctld.pid
SlurmdPidFile=$T/slurm/run/slurmd.pid
SlurmctldLogFile=$T/slurm/log/slurmctld.log
SlurmdLogFile=$T/slurm/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$T/slurm/log/jobcomp.txt
MailProg=/bin/true
ReturnToService=2
JobRequeue=1
MinJobAge=600
SlurmdTimeout=60
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
}

start_slurm() {
    local node port state
    node=$(hostname -s)
    port=$(free_port)
    write_slurm_conf "$node" "$port"
    export SLURM_CONF=$T/slurm/slurm.conf
    slurmctld -D -f "$SLURM_CONF" >"$T/slurm/log/slurmctld.out" 2>&1 &
    SLURMCTLD_PID=$!
    PIDS="slurmctld:$! $PIDS"
    slurmd -D -f "$SLURM_CONF" -N "$node" >"$T/slurm/log/slurmd.out" 2>&1 &
    PIDS="slurmd:$! $PIDS"
    for _ in $(seq $((CLUSTER_WAIT * 2))); do
        state=$(sinfo -h -n "$node" -o %T 2>/dev/null || true)
        [ "$state" = idle ] && return 0
        sleep 0.5
    done
    die "node $node is not idle after $CLUSTER_WAIT s (sinfo: ${state:-no answer})"
}

stop_pid() {
    local name=$1 pid=$2
    kill -0 "$pid" 2>/dev/null || return 0
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 100); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
    say "$name ($pid) did not stop in 10 s: SIGKILL"
    kill -9 "$pid" 2>/dev/null || true
}

cleanup() {
    local status=$? entry pid jobs key fd
    set +e
    # a held coinrow finds no reader, and stops
    for key in "${!HELD[@]}"; do
        fd=${HELD[$key]}
        exec {fd}<&-
    done
    for pid in $BACKGROUND; do
        # GNU parallel stops its jobs on a second TERM: TERM until it ends
        for _ in $(seq 20); do
            kill -TERM "$pid" 2>/dev/null || break
            sleep 0.5
        done
        wait "$pid" 2>/dev/null
    done
    # Jobs first, so that slurmd's job processes end with them.  The clients
    # wait for a controller that is gone, so they get a time limit.
    if [ -n "$SLURMCTLD_PID" ] && kill -0 "$SLURMCTLD_PID" 2>/dev/null; then
        jobs=$(timeout 10 squeue -h -o %A 2>/dev/null | sort -u)
        if [ -n "$jobs" ]; then
            # shellcheck disable=SC2086  # one job id a word
            timeout 10 scancel $jobs 2>/dev/null
            for _ in $(seq 30); do
                [ -z "$(timeout 5 squeue -h 2>/dev/null)" ] && break
                sleep 0.5
            done
        fi
    fi
    for entry in $PIDS; do
        stop_pid "${entry%%:*}" "${entry#*:}"
    done
    if [ -n "$T" ] && [ -d "$T" ]; then
        if [ "$failed" != 0 ] || [ "$status" != 0 ]; then
            for log in "$T"/slurm/log/*.log "$T"/shards-slurm/slurm-*.out "$T"/munge/munged.log; do
                [ -f "$log" ] || continue
                echo "---- ${log#"$T"/} (last lines)"
                tail -n 15 "$log"
            done
        fi
        if [ "${CLUSTER_KEEP:-0}" = 1 ]; then say "kept $T"; else rm -rf "$T"; fi
    fi
    if [ "$status" != 0 ] && [ "$failed" = 0 ]; then failed=1; fi
    say "$passed passed, $failed failed"
    if [ "$failed" != 0 ]; then exit 1; fi
    exit "$status"
}

# ------------------------------------------- coinrow: the commands under test
# Everything that knows coinrow's command lines and messages is here.

SET=cluster
SHARDS=4

cr_generate() {
    "$COINROW" generate --db "$1" --set "$SET" --count "$CLUSTER_COUNT" --n "$CLUSTER_N" \
        --values "$CLUSTER_VALUES" --seed 6 --quiet
}

# cr_single DB: the reference run, one process
cr_single() {
    # shellcheck disable=SC2086  # options split on white space
    "$COINROW" solve --db "$1" --set "$SET" $CLUSTER_SOLVE_OPTS --quiet
}

# cr_shard K OUT TAG: one shard, by hand
cr_shard() {
    # shellcheck disable=SC2086
    "$COINROW" solve --shard "$1/$SHARDS" --out "$2" --db "$DATA/input.db" --set "$SET" \
        $CLUSTER_SOLVE_OPTS --run-tag "$3" --quiet
}

# cr_compare DB: exit 0 when DB's latest run equals the reference's
cr_compare() {
    "$COINROW" compare --db "$1" --against "$DATA/single.db" >"$T/compare.out" 2>&1 || {
        cat "$T/compare.out"
        return 1
    }
}

# cr_merge_refused WHAT PATTERN DB SHARD...: merge must exit 1, say PATTERN
# on stderr and leave DB as it was
cr_merge_refused() {
    local what=$1 pattern=$2 db=$3 before status=0
    shift 3
    before=$(md5sum <"$db")
    "$COINROW" merge --db "$db" "$@" >"$T/merge.out" 2>&1 || status=$?
    if [ "$status" != 1 ]; then
        say "merge $what: exit $status, expected 1: $(cat "$T/merge.out")"
        return 1
    fi
    if ! grep -Eq -- "$pattern" "$T/merge.out"; then
        say "merge $what: the message does not match /$pattern/: $(cat "$T/merge.out")"
        return 1
    fi
    say "merge $what said: $(head -n 3 "$T/merge.out" | tr '\n' ' ')"
    if [ "$(md5sum <"$db")" != "$before" ]; then
        say "merge $what: the database changed"
        return 1
    fi
}

# cr_pids SHARD_DB: the processes solving into SHARD_DB
cr_pids() { pgrep -f -- "--out $1 " || true; }

# ---------------------------------------------------------- holding a shard
# A shard killed or requeued mid-way is held right after its first commit,
# however fast the machine, as tests/support/run.c's run_start_held holds a
# C test's coinrow: its first try runs with --progress and its standard
# error into a FIFO that the test has filled to the brim, so that the
# progress line drawn after its first commit blocks until the test lets it
# go.  COINROW is then a wrapper that knows which shards are held; their
# later tries (the requeue, parallel's retry) run free.

declare -A HELD=() # the held shards' FIFOs, open here: key -> fd

# hold_key SHARD_DB: the shard's name in the hold, known before the job's id
# or tag, which name the folder the shard is in: SHARD_DIR/shard-K-of-N.db
hold_key() {
    local dir=${1%/*}
    echo "${dir%/*}/${1##*/}"
}

# make_holder: writes the wrapper, $T/coinrow-held, and its folder of FIFOs
make_holder() {
    mkdir -p "$T/hold"
    cat >"$T/coinrow-held" <<EOF
#!/bin/bash
# Written by tests/cluster/run.sh: coinrow, but the first try of a shard
# with a FIFO in $T/hold writes its progress into that FIFO.
out= prev=
for a; do [ "\$prev" = --out ] && out=\$a; prev=\$a; done
dir=\${out%/*}
key=\${dir%/*}/\${out##*/}
fifo=$T/hold/\${key//\//_}
if [ -n "\$out" ] && [ -p "\$fifo" ] && mkdir "\$fifo.tried" 2>/dev/null; then
    args=()
    for a; do [ "\$a" = --quiet ] || args+=("\$a"); done
    exec "$COINROW" "\${args[@]}" --progress 2>"\$fifo"
fi
exec "$COINROW" "\$@"
EOF
    chmod 0755 "$T/coinrow-held"
}

# hold KEY: the shard's first try is held after its first commit
hold() {
    local fifo=$T/hold/${1//\//_} fd
    mkfifo "$fifo"
    exec {fd}<>"$fifo"
    # to the brim: dd's non-blocking writes stop at the first with no room
    dd if=/dev/zero of="$fifo" bs=4096 count=4096 oflag=nonblock 2>/dev/null || true
    HELD[$1]=$fd
}

# release KEY: lets the held shard go on, reading what it writes until it
# ends (its only reader: no other process has the FIFO open)
release() {
    local fifo=$T/hold/${1//\//_} fd=${HELD[$1]} rd
    exec {rd}<"$fifo"
    cat <&"$rd" >/dev/null {fd}<&- &
    exec {rd}<&- {fd}<&-
    unset "HELD[$1]"
}

# ------------------------------------------------------------ the scenarios

# wait_pids_of SHARD_DB: until a process solves into it; prints its ids
wait_pids_of() {
    local pids
    for _ in $(seq $((CLUSTER_WAIT * 10))); do
        pids=$(cr_pids "$1")
        if [ -n "$pids" ]; then echo "$pids"; return 0; fi
        sleep 0.1 # only how soon the process is seen, not whether
    done
    return 1
}

# wait_held SHARD_DB: until the held shard's first commit is in it (its
# coinrow is held from then on); 1 when its coinrow ended without one
wait_held() {
    local n
    wait_pids_of "$1" >/dev/null || { say "no process ever solved into $1"; return 1; }
    for _ in $(seq $((CLUSTER_WAIT * 10))); do
        n=$(sqlite3 -readonly "$1" "SELECT count(*) FROM result" 2>/dev/null || true)
        [ "${n:-0}" -gt 0 ] && return 0
        if [ -z "$(cr_pids "$1")" ]; then
            say "the coinrow of ${1##*/} ended without a commit, held or not"
            return 1
        fi
        sleep 0.1 # only how soon the commit is seen, not whether
    done
    say "no commit in ${1##*/} after $CLUSTER_WAIT s"
    return 1
}

# kill_held SHARD_DB: SIGKILL its coinrow, held after its first commit
kill_held() {
    local pids
    wait_held "$1" || return 1
    pids=$(cr_pids "$1")
    if [ -z "$pids" ]; then
        say "the shard ended before it could be killed: it was not held"
        return 1
    fi
    # shellcheck disable=SC2086
    kill -9 $pids
    release "$(hold_key "$1")"
    say "killed the coinrow of ${1##*/} (SIGKILL, pid $(echo "$pids" | tr '\n' ' '))"
}

# job_field JOBID FIELD: the field of each record of the job (array: each task)
job_field() {
    scontrol show job -o "$1" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# wait_job JOBID SECONDS: until the job has ended; 1 when it never will or is late
wait_job() {
    local id=$1 limit=$2 start state reason
    start=$SECONDS
    while [ $((SECONDS - start)) -lt "$limit" ]; do
        state=$(job_field "$id" JobState | head -n 1)
        reason=$(job_field "$id" Reason | head -n 1)
        case $state in
            COMPLETED) return 0 ;;
            FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED)
                say "job $id ended $state"; return 1 ;;
            PENDING)
                if [ "$reason" = DependencyNeverSatisfied ]; then
                    say "job $id will never start: DependencyNeverSatisfied"; return 1
                fi ;;
        esac
        sleep 0.5
    done
    say "job $id still $state ($reason) after $limit s"
    return 1
}

# merge_again DB DIR: merging DIR's shards into DB, where they are merged
# already, succeeds and leaves DB as it was
merge_again() {
    local db=$1 before k
    local -a files=()
    for ((k = 0; k < SHARDS; k++)); do files+=("$2/shard-$k-of-$SHARDS.db"); done
    before=$(md5sum <"$db")
    "$COINROW" merge --db "$db" "${files[@]}" || return 1
    [ "$(md5sum <"$db")" = "$before" ] || { say "the second merge changed $db"; return 1; }
}

slurm_scenario() {
    local t0 ids array merge shards=$T/shards-slurm dir state restarts
    cp "$DATA/input.db" "$DATA/slurm.db"
    hold "$shards/shard-0-of-$SHARDS.db"
    hold "$shards/shard-1-of-$SHARDS.db"
    t0=$(now)
    ids=$(COINROW="$T/coinrow-held" COINROW_DB="$DATA/input.db" COINROW_SET=$SET \
          COINROW_SHARD_DIR="$shards" COINROW_SHARDS=$SHARDS COINROW_MERGE_DB="$DATA/slurm.db" \
          COINROW_SOLVE_OPTS="$CLUSTER_SOLVE_OPTS" contrib/slurm/submit.sh) ||
        die "contrib/slurm/submit.sh failed"
    array=$(echo "$ids" | sed -n 's/^COINROW_ARRAY_JOB=//p')
    merge=$(echo "$ids" | sed -n 's/^COINROW_MERGE_JOB=//p')
    if [ -z "$array" ] || [ -z "$merge" ]; then die "submit.sh printed no job ids: $ids"; fi
    say "slurm: array job $array ($SHARDS tasks), merge job $merge (afterok:$array)"
    check "slurm: the merge job waits for the array (dependency afterok:$array)" \
        test "$(job_field "$merge" Dependency)" != "(null)"
    dir=$shards/$array

    # Two faults while the first tasks run: task 0's coinrow is SIGKILLed (the
    # task requeues itself), task 1 is requeued by Slurm, which kills it.
    check "slurm: task 0 killed mid-way (SIGKILL)" kill_held "$dir/shard-0-of-$SHARDS.db"
    if wait_held "$dir/shard-1-of-$SHARDS.db"; then
        # requeued while held; let go, it sees Slurm's SIGTERM and stops
        if scontrol requeue "${array}_1"; then
            pass "slurm: task 1 requeued by Slurm mid-way"
        else
            fail "slurm: task 1 requeued by Slurm mid-way"
        fi
    else
        fail "slurm: task 1 never held after its first commit"
    fi
    release "$shards/shard-1-of-$SHARDS.db"

    check "slurm: the merge job ran after every task and succeeded" wait_job "$merge" "$CLUSTER_WAIT"
    say "slurm: array + merge took $(since "$t0")"
    state=$(job_field "$array" JobState | sort | uniq -c | awk '{printf "%s%s %s", sep, $1, $2; sep = ", "}')
    check "slurm: all $SHARDS tasks COMPLETED ($state)" \
        test "$(job_field "$array" JobState | grep -c '^COMPLETED$')" = "$SHARDS"
    restarts=$(job_field "${array}_0" Restarts)
    check "slurm: task 0 requeued itself and resumed (restarts: $restarts)" \
        grep -q "requeueing the task" "$shards/slurm-${array}_0.out"
    restarts=$(job_field "${array}_1" Restarts)
    check "slurm: task 1 ran again after the requeue (restarts: $restarts)" test "${restarts:-0}" -ge 1
    check "slurm: merged run equals the single-process run (coinrow compare)" cr_compare "$DATA/slurm.db"
    SLURM_SHARDS=$dir
    SLURM_TAG=$array
}

merge_faults() {
    local s=$SLURM_SHARDS/shard t0
    t0=$(now)
    cp "$DATA/input.db" "$DATA/faults.db"
    check "merge: without shard 2 of $SHARDS, refused naming it (exit 1), database untouched" \
        cr_merge_refused "without shard 2" "(2/$SHARDS|shard[^0-9]*2([^0-9]|$)|2 of $SHARDS)" \
        "$DATA/faults.db" "$s-0-of-$SHARDS.db" "$s-1-of-$SHARDS.db" "$s-3-of-$SHARDS.db"
    mkdir -p "$T/stranger"
    cr_shard 1 "$T/stranger/shard-1-of-$SHARDS.db" "not-$SLURM_TAG" || die "solve --shard 1/$SHARDS by hand failed"
    check "merge: a shard of another job (run tag not-$SLURM_TAG), refused naming it (exit 1), database untouched" \
        cr_merge_refused "with a stranger" "stranger/shard-1-of-$SHARDS\.db" \
        "$DATA/faults.db" "$s-0-of-$SHARDS.db" "$T/stranger/shard-1-of-$SHARDS.db" \
        "$s-2-of-$SHARDS.db" "$s-3-of-$SHARDS.db"
    check "merge: the same shards again change nothing" merge_again "$DATA/slurm.db" "$SLURM_SHARDS"
    say "merge faults took $(since "$t0")"
}

parallel_scenario() {
    local t0 pid status=0 shards=$T/shards-parallel tag final held
    cp "$DATA/input.db" "$DATA/parallel.db"
    mkdir -p "$shards"
    tag=parallel-test-$$
    hold "$shards/shard-2-of-$SHARDS.db"
    held=${HELD["$shards/shard-2-of-$SHARDS.db"]}
    t0=$(now)
    # (without the held FIFO, which only this shell may keep open)
    COINROW="$T/coinrow-held" COINROW_DB="$DATA/input.db" COINROW_SET=$SET COINROW_SHARD_DIR="$shards" \
        COINROW_SHARDS=$SHARDS COINROW_MERGE_DB="$DATA/parallel.db" COINROW_RUN_TAG=$tag \
        COINROW_SOLVE_OPTS="$CLUSTER_SOLVE_OPTS" COINROW_JOBS=2 COINROW_RETRIES=2 \
        contrib/parallel/run-shards.sh >"$T/parallel.out" 2>&1 {held}<&- &
    pid=$!
    BACKGROUND="$pid"
    check "parallel: shard 2 killed mid-way (SIGKILL)" kill_held "$shards/$tag/shard-2-of-$SHARDS.db"
    wait "$pid" || status=$?
    BACKGROUND=""
    say "parallel: run-shards.sh took $(since "$t0")"
    [ "$status" = 0 ] || cat "$T/parallel.out"
    check "parallel: run-shards.sh retried the killed shard and merged (exit $status)" test "$status" = 0
    # The joblog keeps a job's last try only: exit 0 there is the retry's.
    final=$(awk -F '\t' 'NR > 1 && $9 ~ /--shard 2\// {print $7}' "$shards/$tag/parallel.log")
    check "parallel: the killed shard was tried again and succeeded (joblog exit: $final)" test "$final" = 0
    check "parallel: merged run equals the single-process run (coinrow compare)" cr_compare "$DATA/parallel.db"
}

# many_shards_scenario: a job of 100 shards through run-shards.sh, and one
# of 1,000 tiny shards, each merged through a list (no command line holds
# 1,000 paths) with only 64 files open at most, equal to a single-process
# run; then merges of the 1,000 without one shard and with one given twice
# under another name, refused naming it.
many_shards_scenario() {
    local t0 n status tag dir input=$DATA/many-input.db single=$DATA/many-single.db
    t0=$(now)
    "$COINROW" generate --db "$input" --set many --count "$MANY_COUNT" --n 10..40 --values 1..1000 --seed 7 \
        --quiet || die "coinrow generate (many) failed"
    cp "$input" "$single"
    "$COINROW" solve --db "$single" --set many --variant all --quiet || die "coinrow solve (many) failed"
    for n in 100 1000; do
        tag=many-$n-$$
        status=0
        (ulimit -n 64
            COINROW="$COINROW" COINROW_DB="$input" COINROW_SET=many COINROW_SHARD_DIR="$T/many-$n" \
                COINROW_SHARDS=$n COINROW_MERGE_DB="$DATA/many-$n.db" COINROW_RUN_TAG=$tag \
                COINROW_SOLVE_OPTS="--variant all" COINROW_JOBS=2 COINROW_RETRIES=0 \
                contrib/parallel/run-shards.sh) >"$T/many-$n.out" 2>&1 || status=$?
        [ "$status" = 0 ] || tail -n 5 "$T/many-$n.out"
        check "many: $n shards through run-shards.sh solved and merged, 64 files open at most (exit $status)" \
            test "$status" = 0
        check "many: the $n shards' merged run equals the single-process run (coinrow compare)" \
            "$COINROW" compare --db "$DATA/many-$n.db" --against "$single" --limit 3
    done
    dir=$T/many-1000/many-1000-$$
    grep -v -- '/shard-500-of-1000\.db$' "$dir/shards-of-1000.txt" >"$T/without-500.txt"
    check "many: 1,000 shards without shard 500, refused naming it (exit 1), database untouched" \
        cr_merge_refused "without shard 500" "shard 500/1000 .*is missing" "$DATA/many-100.db" \
        --shards "$T/without-500.txt"
    cp "$dir/shard-7-of-1000.db" "$dir/again-7.db"
    check "many: 1,000 shards with shard 7 twice, refused naming both files (exit 1), database untouched" \
        cr_merge_refused "with shard 7 twice" "shard 7/1000 .*given twice: .*(again-7|shard-7-of-1000)\.db and" \
        "$DATA/many-100.db" --shards "$dir"
    say "many shards took $(since "$t0")"
}

# ------------------------------------------------------------------- main

trap cleanup EXIT
trap 'exit 130' INT TERM

COINROW=${COINROW:-build/coinrow}
case $COINROW in /*) ;; */*) COINROW=$ROOT/$COINROW ;; esac
# Shards with work left after their first commit, so that a shard held there
# is killed mid-way: with the canonical line in O(n sqrt n) (issue 23), n in
# the hundreds of thousands (about 10 s for the whole set in one process here).
: "${CLUSTER_COUNT:=40}" "${CLUSTER_N:=200000..300000}" "${CLUSTER_VALUES:=1..1000000000}"
: "${CLUSTER_SOLVE_OPTS:=--variant all --moves canonical}"
: "${CLUSTER_WAIT:=180}"
# The job of 1,000 shards: tiny instances, a few per shard.
: "${MANY_COUNT:=3000}"

T0=$(now)
install_packages
T=$(mktemp -d "${TMPDIR:-/tmp}/coinrow-cluster.XXXXXX")
chmod 0755 "$T"
DATA=$T/data
mkdir -p "$DATA"
make_holder

t=$(now)
start_munge
start_slurm
say "munged, slurmctld and slurmd up on $(hostname -s), $(nproc) CPUs, in $(since "$t")"

t=$(now)
cr_generate "$DATA/input.db" || die "coinrow generate failed"
cp "$DATA/input.db" "$DATA/single.db"
cr_single "$DATA/single.db" || die "coinrow solve (one process) failed"
say "reference: $CLUSTER_COUNT instances solved in one process in $(since "$t")"

slurm_scenario
merge_faults
parallel_scenario
many_shards_scenario
say "total $(since "$T0")"
