#!/bin/sh
# A stand-in for coinrow's generate, solve (whole set and --shard), merge and
# compare, with the same command lines and exit statuses, used by
# tests/cluster/run.sh when CLUSTER_SELFTEST=1.  It proves the cluster
# mechanics (Slurm array, dependent merge, requeue, GNU parallel, teardown)
# before the real commands exist.  It solves nothing: a "database" is a text
# file, and a coin row's "value" is a checksum of it.
#
#   input:  instance<TAB>SET<TAB>ID<TAB>COINS
#   solved: result<TAB>TAG<TAB>SET<TAB>ID<TAB>VALUE      (solve, merge)
#   shard:  a header (shard K N, tag, params, set SET COUNT) then results
#
# FAKE_DELAY seconds of sleep per instance (default 0.25) make a shard last
# long enough to be killed mid-way.
set -eu

die() { echo "coinrow: $*" >&2; exit 1; }
usage() { echo "coinrow (stand-in): $*" >&2; exit 2; }

# instances DB SET: the set's lines, sorted by id
instances() {
    [ -f "$1" ] || die "cannot open $1"
    awk -F '\t' -v set="$2" '$1 == "instance" && $2 == set' "$1" | sort -t "$(printf '\t')" -k3,3
}

# shard_of SET ID N: a stable hash of set name and external id, modulo N
shard_of() {
    h=$(printf '%s\t%s' "$1" "$2" | cksum | cut -d ' ' -f 1)
    echo $((h % $3))
}

value_of() { printf '%s' "$1" | cksum | cut -d ' ' -f 1; }

cmd_generate() {
    db="" set="" count="" n="" values="" seed=""
    while [ $# -gt 0 ]; do
        case $1 in
            --db) db=$2; shift 2 ;;
            --set) set=$2; shift 2 ;;
            --count) count=$2; shift 2 ;;
            --n) n=$2; shift 2 ;;
            --values) values=$2; shift 2 ;;
            --seed) seed=$2; shift 2 ;;
            *) usage "generate: unknown option $1" ;;
        esac
    done
    [ -n "$db" ] && [ -n "$set" ] && [ -n "$count" ] || usage "generate: --db, --set and --count are required"
    awk -v set="$set" -v count="$count" -v n="$n" -v values="$values" -v seed="${seed:-1}" 'BEGIN {
        split(n, nr, "[.][.]"); split(values, vr, "[.][.]");
        if (nr[2] == "") nr[2] = nr[1];
        srand(seed);
        for (k = 1; k <= count; k++) {
            len = nr[1] + int(rand() * (nr[2] - nr[1] + 1));
            row = "";
            for (i = 0; i < len; i++)
                row = row (i ? " " : "") (vr[1] + int(rand() * (vr[2] - vr[1] + 1)));
            printf "instance\t%s\t%04d\t%s\n", set, k, row;
        }
    }' >> "$db"
}

cmd_solve() {
    db="" set="" shard="" out="" tag="" params=""
    while [ $# -gt 0 ]; do
        case $1 in
            --db) db=$2; shift 2 ;;
            --set) set=$2; shift 2 ;;
            --shard) shard=$2; shift 2 ;;
            --out) out=$2; shift 2 ;;
            --run-tag) tag=$2; shift 2 ;;
            --variant|--moves|--algo|--jobs) params="$params $1 $2"; shift 2 ;;
            --quiet) shift ;;
            *) usage "solve: unknown option $1" ;;
        esac
    done
    [ -n "$db" ] && [ -n "$set" ] || usage "solve: --db and --set are required"
    list=$(instances "$db" "$set")
    [ -n "$list" ] || die "no set '$set' in $db"
    if [ -z "$shard" ]; then
        tag=single-$$
        printf '%s\n' "$list" | while IFS="$(printf '\t')" read -r _ s id coins; do
            printf 'result\t%s\t%s\t%s\t%s\n' "$tag" "$s" "$id" "$(value_of "$coins")"
        done >> "$db"
        return 0
    fi
    [ -n "$out" ] && [ -n "$tag" ] || usage "solve: --shard needs --out and --run-tag"
    k=${shard%/*} n=${shard#*/}
    count=$(printf '%s\n' "$list" | wc -l)
    header=$(printf 'shard\t%s\t%s\ntag\t%s\nparams\t%s\nset\t%s\t%s' "$k" "$n" "$tag" "$params" "$set" "$count")
    if [ -s "$out" ]; then
        # A shard restarted after a kill resumes: same header, skip what is done.
        [ "$(head -n 4 "$out")" = "$header" ] ||
            die "$out holds another shard or job (run tag $(awk -F '\t' '$1 == "tag" {print $2}' "$out"))"
    else
        printf '%s\n' "$header" > "$out"
    fi
    printf '%s\n' "$list" | while IFS="$(printf '\t')" read -r _ s id coins; do
        [ "$(shard_of "$s" "$id" "$n")" = "$k" ] || continue
        if awk -F '\t' -v id="$id" '$1 == "result" && $3 == id {found = 1} END {exit !found}' "$out"; then
            continue
        fi
        sleep "${FAKE_DELAY:-0.25}"
        printf 'result\t%s\t%s\t%s\n' "$s" "$id" "$(value_of "$coins")" >> "$out"
    done
}

cmd_merge() {
    into=""
    while [ $# -gt 0 ]; do
        case $1 in
            --db) into=$2; shift 2 ;;
            --help) echo "usage: coinrow merge [--db INTO.db] SHARD.db..."; return 0 ;;
            -*) usage "merge: unknown option $1" ;;
            *) break ;;
        esac
    done
    [ -n "$into" ] && [ $# -gt 0 ] || usage "merge: --db INTO.db and at least one shard"
    tag="" params="" set="" count="" n="" seen=" " first=""
    for f in "$@"; do
        [ -f "$f" ] || die "cannot open shard $f"
        t=$(awk -F '\t' '$1 == "tag" {print $2}' "$f")
        p=$(awk -F '\t' '$1 == "params" {print $2}' "$f")
        s=$(awk -F '\t' '$1 == "set" {print $2 " " $3}' "$f")
        kn=$(awk -F '\t' '$1 == "shard" {print $2 " " $3}' "$f")
        if [ -z "$first" ]; then
            first=$f tag=$t params=$p set=$s n=${kn#* }
        elif [ "$t" != "$tag" ] || [ "$p" != "$params" ] || [ "$s" != "$set" ] || [ "${kn#* }" != "$n" ]; then
            die "shard $f is from another job (run tag $t, $first has $tag)"
        fi
        case $seen in *" ${kn% *} "*) die "shard ${kn% *}/$n given twice ($f)" ;; esac
        seen="$seen${kn% *} "
    done
    k=0 missing=""
    while [ "$k" -lt "$n" ]; do
        case $seen in *" $k "*) ;; *) missing="$missing $k/$n" ;; esac
        k=$((k + 1))
    done
    [ -z "$missing" ] || die "missing shard$missing of run tag $tag"
    count=${set##* }
    got=$(cat "$@" | awk -F '\t' '$1 == "result"' | wc -l)
    [ "$got" -eq "$count" ] || die "shards of run tag $tag cover $got of $count instances"
    if awk -F '\t' -v tag="$tag" '$1 == "result" && $2 == tag {found = 1} END {exit !found}' "$into" 2>/dev/null; then
        return 0    # merged before: nothing changes
    fi
    # One step, like a transaction: a new file renamed over the old one.
    { [ ! -f "$into" ] || cat "$into"
      cat "$@" | awk -F '\t' -v tag="$tag" 'BEGIN {OFS = "\t"} $1 == "result" {print "result", tag, $2, $3, $4}'
    } > "$into.tmp.$$"
    mv "$into.tmp.$$" "$into"
}

# The latest run of a database, as "SET ID VALUE" lines.
latest_run() {
    tag=$(awk -F '\t' '$1 == "result" {t = $2} END {print t}' "$1")
    [ -n "$tag" ] || die "no run in $1"
    awk -F '\t' -v tag="$tag" '$1 == "result" && $2 == tag {print $3, $4, $5}' "$1" | sort
}

cmd_compare() {
    a="" b=""
    while [ $# -gt 0 ]; do
        case $1 in
            --db) a=$2; shift 2 ;;
            --against) b=$2; shift 2 ;;
            *) usage "compare: unknown option $1" ;;
        esac
    done
    ra=$(latest_run "$a") rb=$(latest_run "$b")
    if [ "$ra" = "$rb" ]; then
        echo "same: $(printf '%s\n' "$ra" | wc -l) results"
    else
        echo "different"; return 1
    fi
}

[ $# -gt 0 ] || usage "no command"
cmd=$1; shift
case $cmd in
    generate|solve|merge|compare) "cmd_$cmd" "$@" ;;
    *) usage "unknown command $cmd" ;;
esac
