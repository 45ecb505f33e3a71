#!/usr/bin/env bash
# sokoban.sh - solves XSB levels through the CLI and prints a table.
#
#   bench/sokoban.sh [-t MS] [-o moves|pushes|any] [-l LEVELS] [LEVELFILE]
#
# LEVELFILE holds levels each preceded by a `; N` comment line (default:
# ../shared/levels/microban1.xsb when present). LEVELS picks levels by
# their position in the file: `all`, or a list like `1-20,35` (default
# 1-20, to keep `make bench` short). Each level gets -t MS milliseconds
# (default 10000) through the body's "limits". GRIDSOLVE_BIN names the
# binary (default build/gridsolve). A by-hand measurement, not a test.
set -u

bin=${GRIDSOLVE_BIN:-build/gridsolve}
timeout_ms=10000
optimize=moves
levels=1-20
while getopts "t:o:l:h" opt; do
    case $opt in
    t) timeout_ms=$OPTARG ;;
    o) optimize=$OPTARG ;;
    l) levels=$OPTARG ;;
    *)
        sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
        exit 2
        ;;
    esac
done
shift $((OPTIND - 1))
file=${1:-../shared/levels/microban1.xsb}
if [ ! -r "$file" ]; then
    echo "sokoban.sh: no level file ($file); pass one as an argument" >&2
    exit 0 # nothing to measure is not a failure of `make bench`
fi
if [ ! -x "$bin" ]; then
    echo "sokoban.sh: $bin is not executable (set GRIDSOLVE_BIN)" >&2
    exit 1
fi

# Whether level number $1 is selected by $levels.
selected() {
    [ "$levels" = all ] && return 0
    local part lo hi
    for part in ${levels//,/ }; do
        lo=${part%-*}
        hi=${part#*-}
        [ "$1" -ge "$lo" ] && [ "$1" -le "$hi" ] && return 0
    done
    return 1
}

# Splits the file into levels: one record per level, its label, a tab, then
# its rows as JSON strings joined by commas. A level is a run of lines made
# only of XSB cells; the last `;` comment before it labels it.
split_levels() {
    awk '
    function flush() {
        if (rows != "") print (label == "" ? n + 1 : label) "\t" rows
        if (rows != "") n++
        rows = ""
    }
    /^;/ { flush(); label = $0; sub(/^;[ \t]*/, "", label); next }
    /^[ #@+$*._-]*$/ && /#/ {
        row = $0; gsub(/\\/, "\\\\", row); gsub(/"/, "\\\"", row)
        rows = rows (rows == "" ? "" : ",") "\"" row "\""
        next
    }
    { flush() }
    END { flush() }
    ' "$1"
}

# Reads one field of the CLI's one-line JSON response.
field() {
    printf '%s' "$2" | grep -o "\"$1\":[^,}]*" | head -n 1 | cut -d: -f2- |
        tr -d '"'
}

printf '%-10s %5s %-10s %7s %7s %-7s %10s\n' level boxes status moves \
    pushes optimal time_ms
total=0
solved=0
optimal=0
idx=0
t_all=$(date +%s%N)
while IFS=$'\t' read -r label rows; do
    idx=$((idx + 1))
    selected "$idx" || continue
    total=$((total + 1))
    boxes=$(printf '%s' "$rows" | tr -cd '$*' | wc -c)
    body="{\"grid\": [$rows], \"optimize\": \"$optimize\", \"limits\": {\"timeout_ms\": $timeout_ms}}"
    t0=$(date +%s%N)
    out=$(printf '%s' "$body" | "$bin" solve sokoban --json 2>&1)
    t1=$(date +%s%N)
    status=$(field status "$out")
    [ -n "$status" ] || status=error
    steps=$(field steps "$out")
    pushes=$(field pushes "$out")
    opt=$(field optimal "$out")
    [ "$status" = solved ] && solved=$((solved + 1))
    [ "$status" = solved ] && [ "$opt" = true ] && optimal=$((optimal + 1))
    printf '%-10s %5d %-10s %7s %7s %-7s %10.1f\n' "$label" "$boxes" \
        "$status" "${steps:--}" "${pushes:--}" "${opt:--}" \
        "$(((t1 - t0) / 1000))e-3"
done < <(split_levels "$file")
t_end=$(date +%s%N)
echo "levels: $total, solved: $solved, solved $optimize-optimal: $optimal" \
    "(limit ${timeout_ms} ms each, total $(((t_end - t_all) / 1000000)) ms)"
