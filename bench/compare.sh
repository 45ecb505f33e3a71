#!/usr/bin/env bash
# compare.sh - gridsolve against plain contest solutions (bench/baseline/),
# whole process, judge text in, same input and output.
#
#   bench/compare.sh [-r RUNS] [-c CPU] [WORKLOAD...]
#
# Needs BUILD (default build) to hold gridsolve, bench-gen, bench-runner and the
# baseline-* binaries (`make bench-compare` builds them). Inputs come from
# gen with fixed seeds, so every run measures the same bytes. The two
# programs run alternately RUNS times (default 5; workloads that take a
# few milliseconds at least 21 times, as one such run's CPU time varies by
# a tenth from the next); the medians of wall time,
# CPU time (user + system) and peak RSS are printed with the ratios beside
# the issue's targets. The verdict uses CPU time: on a shared machine wall
# time mostly measures the neighbours. The
# outputs must agree (wallpushers: any shortest move string, so the move
# counts must agree). -c CPU runs both programs on that CPU (taskset).
# A run that fails (exit status not 0) or an unknown WORKLOAD ends the
# script with status 1. BUILD is relative to the repository root.
set -euo pipefail
# sort -n and awk read the runner's '.' decimals whatever the caller's locale.
export LC_ALL=C

cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${BUILD:-build}
runs=5
pin=()
while getopts "r:c:h" opt; do
    case $opt in
    r) runs=$OPTARG ;;
    c) pin=(taskset -c "$OPTARG") ;;
    h)
        sed -n '2,19p' bench/compare.sh | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *)
        sed -n '2,19p' bench/compare.sh | sed 's/^# \{0,1\}//' >&2
        exit 2
        ;;
    esac
done
shift $((OPTIND - 1))
[[ $runs =~ ^[1-9][0-9]*$ ]] || {
    echo "compare.sh: -r takes a positive number of runs, not '$runs'" >&2
    exit 2
}

# name puzzle baseline target(speed ratio) target(memory ratio or -)
# least runs
workloads="blox-big bloxorz bloxorz 3 4 1
blox-batch bloxorz bloxorz 5 - 1
curling curling curling 3 - 1
sokoban sokoban sokoban 10 - 1
wallpushers wallpushers wallpushers 1 - 21
holedox holedox holedox 50 - 21"

for w in "$@"; do
    printf '%s\n' "$workloads" | cut -d' ' -f1 | grep -x -- "$w" >/dev/null || {
        echo "compare.sh: no workload '$w' (one of:" \
            $(printf '%s\n' "$workloads" | cut -d' ' -f1) ")" >&2
        exit 1
    }
done

dir=$build/bench-compare
mkdir -p "$dir"

# The middle value, or the mean of the two middle ones for an even count.
median() {
    sort -n | awk '{v[NR] = $1}
        END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}

# Same answers: byte for byte, or move counts for wallpushers.
same_output() {
    if [ "$1" = wallpushers ]; then
        cmp -s <(awk '{print ($1 == "Impossible") ? -1 : length($1)}' "$2") \
            <(awk '{print ($1 == "Impossible") ? -1 : length($1)}' "$3")
    else
        cmp -s "$2" "$3"
    fi
}

printf '%-12s %9s %9s %7s %9s %9s %7s %6s %8s %8s %7s %6s\n' workload \
    gs_wall base_wall wall_x gs_cpu base_cpu cpu_x target gs_KB base_KB \
    mem_x target
failed=0
while read -r name puzzle base target mtarget least; do
    if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -x -- "$name" >/dev/null; then
        continue
    fi
    in=$dir/$name.txt
    # Made again when bench-gen is newer; written whole or not at all.
    if [ ! -s "$in" ] || [ "$build/bench-gen" -nt "$in" ]; then
        "$build/bench-gen" "$name" 1 >"$in.tmp" && mv "$in.tmp" "$in" ||
            { rm -f "$in.tmp"; exit 1; }
    fi
    : >"$dir/$name.gs.times"
    : >"$dir/$name.base.times"
    n=$((runs > least ? runs : least))
    for i in $(seq "$n"); do
        # Alternate which goes first, so neither always meets a warm cache.
        for who in gs base; do
            [ $((i % 2)) = 0 ] && who=$([ $who = gs ] && echo base || echo gs)
            # A crash or an error is no figure: the runner still prints
            # the time, so its exit status (the program's) is checked.
            rc=0
            if [ $who = gs ]; then
                "${pin[@]}" "$build/bench-runner" "$in" "$dir/$name.gs.out" \
                    "$build/gridsolve" solve "$puzzle" \
                    >>"$dir/$name.gs.times" || rc=$?
            else
                "${pin[@]}" "$build/bench-runner" "$in" "$dir/$name.base.out" \
                    "$build/baseline-$base" >>"$dir/$name.base.times" || rc=$?
            fi
            if [ "$rc" != 0 ]; then
                echo "compare.sh: $name: $who exited with status $rc" >&2
                exit 1
            fi
        done
    done
    if ! same_output "$puzzle" "$dir/$name.gs.out" "$dir/$name.base.out"; then
        echo "$name: outputs differ ($dir/$name.gs.out vs .base.out)" >&2
        failed=1
    fi
    gs_ms=$(cut -d' ' -f1 "$dir/$name.gs.times" | median)
    base_ms=$(cut -d' ' -f1 "$dir/$name.base.times" | median)
    gs_kb=$(cut -d' ' -f2 "$dir/$name.gs.times" | median)
    base_kb=$(cut -d' ' -f2 "$dir/$name.base.times" | median)
    gs_cpu=$(cut -d' ' -f3 "$dir/$name.gs.times" | median)
    base_cpu=$(cut -d' ' -f3 "$dir/$name.base.times" | median)
    awk -v n="$name" -v g="$gs_ms" -v b="$base_ms" -v t="$target" \
        -v gc="$gs_cpu" -v bc="$base_cpu" \
        -v gk="$gs_kb" -v bk="$base_kb" -v mt="$mtarget" 'BEGIN {
        w = b / g; c = bc / (gc > 0 ? gc : 0.01); m = bk / gk;
        printf "%-12s %9.1f %9.1f %6.2fx %9.1f %9.1f %6.2fx %6s %8d %8d %6.2fx %6s  %s\n",
            n, g, b, w, gc, bc, c, t "x", gk, bk, m,
            (mt == "-" ? "-" : mt "x"),
            (c >= t && (mt == "-" || m >= mt)) ? "met" : "NOT met"
    }'
done < <(echo "$workloads")
exit $failed
