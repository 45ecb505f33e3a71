#!/usr/bin/env bash
# http.sh - gridsolve's HTTP path against a bare libmicrohttpd server.
#
#   bench/http.sh [-r RUNS] [-d SECONDS] [-c CONNECTIONS] [-t THREADS]
#
# Starts `gridsolve serve` and bench/http/bare.c (body read, fixed JSON
# answer, MHD thread pool with epoll) on free ports, then loads each in
# turn with wrk (POST of the README's tiny bloxorz example, keep-alive),
# RUNS times alternately (default 3, 5 s each, 64 connections, 2 wrk
# threads). Prints the median requests/s, p50 and p99 latency of each,
# and gridsolve's share of the bare server's rate beside the target (70 %).
# Also the median CPU time of each server per request (user + system of
# its process, /proc/PID/stat, over each run): other load on the machine
# disturbs it far less than the rates, which it slows unevenly.
# BUILD names the build directory (default build, relative to the
# repository root). A server that does not start or dies, or a wrk run
# that gives no rate, ends the script with status 1.
set -euo pipefail
# wrk's "1.39ms" and the table's %f read and print '.' decimals whatever
# the caller's locale (under a decimal comma bash's printf rejects them).
export LC_ALL=C

cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${BUILD:-build}
runs=3
secs=5
conns=64
threads=2
while getopts "r:d:c:t:h" opt; do
    case $opt in
    r) runs=$OPTARG ;;
    d) secs=$OPTARG ;;
    c) conns=$OPTARG ;;
    t) threads=$OPTARG ;;
    h)
        sed -n '2,18p' bench/http.sh | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *)
        sed -n '2,18p' bench/http.sh | sed 's/^# \{0,1\}//' >&2
        exit 2
        ;;
    esac
done
for v in "$runs" "$secs" "$conns" "$threads"; do
    [[ $v =~ ^[1-9][0-9]*$ ]] || {
        echo "http.sh: -r, -d, -c and -t take positive numbers, not '$v'" >&2
        exit 2
    }
done
here=$PWD/bench
command -v wrk >/dev/null || {
    echo "http.sh: wrk is not installed (apt-get install wrk)" >&2
    exit 1
}

dir=$build/bench-http
mkdir -p "$dir"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup EXIT

# Starts "$@" (which prints "listening on ADDR:PORT"); sets port.
start() {
    local log=$1
    shift
    "$@" >"$log" 2>&1 &
    pids+=($!)
    for _ in $(seq 100); do
        port=$(sed -n 's/.*listening on [^:]*:\([0-9]*\).*/\1/p' "$log" |
            head -n 1)
        [ -n "$port" ] && return 0
        kill -0 "${pids[-1]}" 2>/dev/null || break
        sleep 0.05
    done
    echo "http.sh: $* did not start; see $log" >&2
    exit 1
}

start "$dir/gridsolve.log" "$build/gridsolve" serve --port 0
gs_port=$port
gs_pid=${pids[-1]}
start "$dir/bare.log" "$build/bench-bare" 0
bare_port=$port
bare_pid=${pids[-1]}
tck=$(getconf CLK_TCK)

# CPU clock ticks (user + system) of process $1 so far.
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
curl -s -H 'Content-Type: application/json' -d \
    '{"grid": ["#######", "#..X###", "#..##O#", "#....E#", "#....E#", "#.....#", "#######"]}' \
    "127.0.0.1:$gs_port/solve/bloxorz" >"$dir/answer.json" || true
grep -q '"steps":10' "$dir/answer.json" || {
    echo "http.sh: gridsolve did not answer the example:" >&2
    cat "$dir/answer.json" >&2
    exit 1
}

# One wrk run against port $1, server process $2: prints "requests/s
# p50_us p99_us cpu_us_per_request errors".
load() {
    local t0
    kill -0 "$2" 2>/dev/null || {
        echo "http.sh: the server on port $1 is gone; see $dir/*.log" >&2
        exit 1
    }
    t0=$(ticks "$2")
    wrk -t "$threads" -c "$conns" -d "${secs}s" --latency \
        -s "$here/http/post.lua" "http://127.0.0.1:$1" >"$dir/wrk.out" 2>&1 ||
        true
    # A run without a rate is no figure: an empty field would shift the
    # columns the medians read.
    grep -q 'Requests/sec' "$dir/wrk.out" || {
        echo "http.sh: wrk against port $1 gave no rate:" >&2
        cat "$dir/wrk.out" >&2
        exit 1
    }
    awk -v t0="$t0" -v t1_file="/proc/$2/stat" -v tck="$tck" '
        function us(v) {
            if (v ~ /us$/) return v + 0;
            if (v ~ /ms$/) return v * 1000;
            if (v ~ /s$/) return v * 1000000;
            return v
        }
        /^ *50%/ { p50 = us($2) }
        /^ *99%/ { p99 = us($2) }
        /requests in/ { n = $1 }
        /Requests\/sec/ { rps = $2 }
        /Non-2xx|Socket errors/ { err = err " " $0 }
        END {
            getline st < t1_file
            split(st, f, " ")
            cpu = n ? (f[14] + f[15] - t0) / tck * 1e6 / n : 0
            printf "%s %s %s %.2f %s\n", rps, p50, p99, cpu,
                (err == "" ? "-" : "errors")
        }' "$dir/wrk.out"
}

: >"$dir/gs.runs"
: >"$dir/bare.runs"
for i in $(seq "$runs"); do
    if [ $((i % 2)) = 1 ]; then
        load "$gs_port" "$gs_pid" >>"$dir/gs.runs"
        load "$bare_port" "$bare_pid" >>"$dir/bare.runs"
    else
        load "$bare_port" "$bare_pid" >>"$dir/bare.runs"
        load "$gs_port" "$gs_pid" >>"$dir/gs.runs"
    fi
done

# The middle value, or the mean of the two middle ones for an even count.
median() {
    sort -n | awk '{v[NR] = $1}
        END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}
col() { cut -d' ' -f"$2" "$dir/$1.runs" | median; }
printf 'wrk -t %s -c %s -d %ss, POST /solve/bloxorz (README example), %s runs each\n' \
    "$threads" "$conns" "$secs" "$runs"
printf '%-10s %12s %10s %10s %12s\n' server requests/s p50_us p99_us \
    cpu_us/req
for who in gs bare; do
    printf '%-10s %12.0f %10.0f %10.0f %12.2f\n' \
        "$([ $who = gs ] && echo gridsolve || echo bare)" \
        "$(col $who 1)" "$(col $who 2)" "$(col $who 3)" "$(col $who 4)"
done
awk -v g="$(col gs 1)" -v b="$(col bare 1)" 'BEGIN {
    if (!(g > 0 && b > 0)) {
        print "gridsolve / bare: no figure (a server gave no rate; see above)"
        exit 1
    }
    printf "gridsolve / bare: %.0f %%  (target 70 %%: %s)\n", 100 * g / b,
        (g >= 0.7 * b) ? "met" : "NOT met" }'
echo "load average now: $(cut -d' ' -f1-3 /proc/loadavg) (on a loaded machine" \
    "the rates flatter the slower server; compare CPU per request)"
grep -h errors "$dir/gs.runs" "$dir/bare.runs" >/dev/null &&
    echo "note: some runs saw socket errors or non-2xx answers" >&2
exit 0
