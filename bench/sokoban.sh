#!/usr/bin/env bash
# sokoban.sh - solves a collection of XSB levels through the CLI, one
# process per level, and prints a table and a summary line.
#
#   bench/sokoban.sh [-t MS] [-o moves|pushes|any] [-l LEVELS] [-q] [FILE]
#
# FILE is an XSB collection (default bench/levels/microban1.xsb): levels
# are runs of rows starting with '#', the last `;` or `Title:` line before
# one names it. LEVELS picks levels by position: `all`, or a list like
# `1-20,35` (default 1-20, to keep `make bench` short). Each level gets
# -t MS milliseconds (default 10000). -q prints only the summary. The
# summary reads "N of M solved (K proven optimal), total T s, slowest S s;
# slowest solved: LEVEL, S s; answers: X moves, Y pushes" (`any`: without
# the part in parentheses): T sums the wall time of every level, unsolved
# ones included, and the slowest counts them too; the answers' moves and
# pushes add up the solved levels'. The exit status is 1 when a level's
# answer could not be read (status `error`: the solver crashed, say).
# GRIDSOLVE_BIN names the binary (default build/gridsolve).
set -u

bin=${GRIDSOLVE_BIN:-build/gridsolve}
timeout_ms=10000
optimize=moves
levels=1-20
quiet=0
while getopts "t:o:l:qh" opt; do
    case $opt in
    t) timeout_ms=$OPTARG ;;
    o) optimize=$OPTARG ;;
    l) levels=$OPTARG ;;
    q) quiet=1 ;;
    *)
        sed -n '2,/^[^#]/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'
        exit 2
        ;;
    esac
done
shift $((OPTIND - 1))
file=${1:-bench/levels/microban1.xsb}
if [ ! -r "$file" ]; then
    echo "sokoban.sh: no level file ($file); pass one as an argument" >&2
    exit 1
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
# its rows as JSON strings joined by commas. The same rule as the service's
# XSB text mode: a row starts with '#' after floor padding.
split_levels() {
    awk '
    function flush() {
        if (rows != "") { n++; print (label == "" ? n : label) "\t" rows }
        if (rows != "") label = ""
        rows = ""
    }
    { sub(/\r$/, "") }
    /^[ _-]*#/ {
        row = $0; gsub(/\\/, "\\\\", row); gsub(/"/, "\\\"", row)
        rows = rows (rows == "" ? "" : ",") "\"" row "\""
        next
    }
    { flush() }
    /^;/ { label = $0; sub(/^;[ \t]*/, "", label) }
    /^[Tt]itle:/ { label = $0; sub(/^[Tt]itle:[ \t]*/, "", label) }
    END { flush() }
    ' "$1"
}

# Reads one field of the CLI's one-line JSON response.
field() {
    printf '%s' "$2" | grep -o "\"$1\":[^,}]*" | head -n 1 | cut -d: -f2- |
        tr -d '"'
}

[ "$quiet" = 1 ] || printf '%-12s %5s %-10s %7s %7s %-7s %9s\n' level boxes \
    status moves pushes optimal time_s
total=0
errors=0
solved=0
optimal=0
idx=0
sum_ms=0
worst_ms=0
worst_solved_ms=-1
worst_solved=
sum_moves=0
sum_pushes=0
while IFS=$'\t' read -r label rows; do
    idx=$((idx + 1))
    selected "$idx" || continue
    total=$((total + 1))
    boxes=$(printf '%s' "$rows" | tr -cd '$*' | wc -c)
    body="{\"grid\": [$rows], \"optimize\": \"$optimize\", \"limits\": {\"timeout_ms\": $timeout_ms}}"
    t0=$(date +%s%N)
    out=$(printf '%s' "$body" | "$bin" solve sokoban --json 2>&1)
    t1=$(date +%s%N)
    ms=$(((t1 - t0) / 1000000))
    sum_ms=$((sum_ms + ms))
    [ "$ms" -gt "$worst_ms" ] && worst_ms=$ms
    status=$(field status "$out")
    [ -n "$status" ] || status=error
    [ "$status" = error ] && errors=$((errors + 1))
    steps=$(field steps "$out")
    pushes=$(field pushes "$out")
    opt=$(field optimal "$out")
    if [ "$status" = solved ]; then
        solved=$((solved + 1))
        sum_moves=$((sum_moves + ${steps:-0}))
        sum_pushes=$((sum_pushes + ${pushes:-0}))
        if [ "$ms" -gt "$worst_solved_ms" ]; then
            worst_solved_ms=$ms
            worst_solved=$label
        fi
        [ "$opt" = true ] && optimal=$((optimal + 1))
    fi
    [ "$quiet" = 1 ] || printf '%-12s %5d %-10s %7s %7s %-7s %9s\n' \
        "${label:0:12}" "$boxes" "$status" "${steps:--}" "${pushes:--}" \
        "${opt:--}" "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
done < <(split_levels "$file")
secs() { printf '%d.%d' $(($1 / 1000)) $((($1 % 1000) / 100)); }
# `any` claims no optimality: its summary says nothing of it.
proven=" ($optimal proven $optimize-optimal)"
[ "$optimize" = any ] && proven=
limit="$((timeout_ms / 1000)) s"
[ $((timeout_ms % 1000)) = 0 ] || limit="$timeout_ms ms"
slowest_solved=-
[ "$solved" -gt 0 ] &&
    slowest_solved="$worst_solved, $(secs $worst_solved_ms) s"
echo "$solved of $total solved$proven, total" \
    "$(secs $sum_ms) s, slowest $(secs $worst_ms) s;" \
    "slowest solved: $slowest_solved;" \
    "answers: $sum_moves moves, $sum_pushes pushes" \
    "[$(basename "$file"), $optimize, limit $limit each]"
[ "$errors" = 0 ]
