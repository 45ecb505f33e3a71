#!/usr/bin/env bash
# sokoban.sh - solves a collection of XSB levels through the CLI, one
# process per level, and prints a table and a summary line.
#
#   bench/sokoban.sh [-t MS] [-o moves|pushes|any] [-l LEVELS] [-q] [FILE]
#
# FILE is an XSB collection (default bench/levels/microban1.xsb): levels
# are runs of rows starting with '#', the last `;` or `Title:` line before
# one names it. LEVELS picks levels by position: `all`, or a list like
# `120-152,154` (default 1-20, to keep `make bench` short); a level past
# the file's last is a usage error. Each level gets -t MS milliseconds
# (default 10000). -q prints only the summary. The summary reads "N of M
# solved (K proven OBJECTIVE-optimal), total T s, slowest S s; slowest
# solved: LEVEL, S s; answers: X moves, Y pushes [FILE, OBJECTIVE, limit
# L each]" (`any`: without the part in parentheses; seconds rounded to a
# tenth; M counts the levels selected): T sums the wall time of every
# level, unsolved ones included, and the slowest counts them too; the
# answers' moves and pushes add up the solved levels'. Every answer is
# replayed on its level (walls, boxes, pushes in capitals, all boxes on
# goals at the end, its steps and pushes as reported). A level is `error`
# when the CLI's exit status disagrees with its answer (0 for solved or
# impossible, 3 for limit), when it printed no answer (it crashed, say) or
# when the answer does not replay; each such level is named on stderr and
# the exit status is then 1 (2: usage). A level stopped by the CLI's
# state cap or memory budget rather than by -t is `limit:states` or
# `limit:memory`, and named on stderr. GRIDSOLVE_BIN names the binary
# (default build/gridsolve); defaults are relative to the repository, not
# to the current directory.
set -euo pipefail
# Decimal points and sorting the same whatever the caller's locale.
export LC_ALL=C

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
usage() { sed -n '2,/^[^#]/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; }
die_usage() {
    echo "sokoban.sh: $1" >&2
    echo "usage: bench/sokoban.sh [-t MS] [-o moves|pushes|any] [-l LEVELS] [-q] [FILE] (-h: help)" >&2
    exit 2
}

bin=${GRIDSOLVE_BIN:-$root/build/gridsolve}
timeout_ms=10000
optimize=moves
levels=1-20
quiet=0
while getopts ":t:o:l:qh" opt; do
    case $opt in
    t) timeout_ms=$OPTARG ;;
    o) optimize=$OPTARG ;;
    l) levels=$OPTARG ;;
    q) quiet=1 ;;
    h)
        usage
        exit 0
        ;;
    :) die_usage "-$OPTARG needs a value" ;;
    *) die_usage "unknown option -$OPTARG" ;;
    esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || die_usage "one FILE at most (got $#)"
[[ $timeout_ms =~ ^[1-9][0-9]{0,8}$ ]] ||
    die_usage "-t takes a positive whole number of milliseconds, not '$timeout_ms'"
case $optimize in
moves | pushes | any) ;;
*) die_usage "-o takes moves, pushes or any, not '$optimize'" ;;
esac
# LEVELS as pairs of bounds; 10# reads 08 as eight, not octal.
los=()
his=()
if [ "$levels" != all ]; then
    [[ $levels =~ ^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$ ]] ||
        die_usage "-l takes 'all' or a list like 1-20,35, not '$levels'"
    IFS=, read -ra parts <<<"$levels"
    for part in "${parts[@]}"; do
        lo=$((10#${part%-*}))
        hi=$((10#${part#*-}))
        [ "$lo" -ge 1 ] && [ "$lo" -le "$hi" ] ||
            die_usage "-l: '$part' is not a range of levels from 1 up"
        los+=("$lo")
        his+=("$hi")
    done
fi
file=${1:-$root/bench/levels/microban1.xsb}
if [ ! -r "$file" ]; then
    echo "sokoban.sh: no level file ($file); pass one as an argument" >&2
    exit 1
fi
if [ ! -f "$bin" ] || [ ! -x "$bin" ]; then
    echo "sokoban.sh: $bin is not an executable file (set GRIDSOLVE_BIN)" >&2
    exit 1
fi

# Whether level number $1 is selected by $levels.
selected() {
    [ "$levels" = all ] && return 0
    local i
    for i in "${!los[@]}"; do
        [ "$1" -ge "${los[i]}" ] && [ "$1" -le "${his[i]}" ] && return 0
    done
    return 1
}

# Splits the file into levels: one record per level, its label, a tab, then
# its rows as JSON strings joined by commas. The same rule as the service's
# XSB text mode (parse.c), so both see the same levels: a row starts with
# '#' after padding of ' ', '-', '_' or tabs (which the solver then
# refuses: the level is an error, not split in two); the last `;` or
# `Title:` line (any case) before a level names it, trimmed.
split_levels() {
    awk '
    function flush() {
        if (rows != "") { n++; print (label == "" ? n : label) "\t" rows }
        if (rows != "") label = ""
        rows = ""
    }
    function name(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
    { sub(/\r$/, "") }
    /^[ \t_-]*#/ {
        row = $0; gsub(/\\/, "\\\\", row); gsub(/"/, "\\\"", row)
        gsub(/\t/, "\\t", row)
        rows = rows (rows == "" ? "" : ",") "\"" row "\""
        next
    }
    { flush() }
    /^;/ { label = name(substr($0, 2)) }
    tolower(substr($0, 1, 6)) == "title:" { label = name(substr($0, 7)) }
    END { flush() }
    ' "$1"
}

# Reads one scalar field of the CLI's one-line JSON response (empty when
# absent). No pipeline: a missing field must not end the script under -e.
field() {
    local re="\"$1\":\"?([^,}\"]*)"
    if [[ $2 =~ $re ]]; then printf '%s' "${BASH_REMATCH[1]}"; fi
}

# Replays answer $2 (LURD: capitals push) on level rows $1 (the JSON
# strings of split_levels); prints why it fails, nothing when it solves
# the level in $3 steps and $4 pushes.
replay() {
    ROWS=$1 MOVES=$2 STEPS=$3 PUSHES=$4 awk 'BEGIN {
        s = ENVIRON["ROWS"]
        gsub(/\\\\/, "\\", s); gsub(/\\"/, "\"", s)
        nr = split(substr(s, 2, length(s) - 2), row, "\",\"")
        for (r = 1; r <= nr; r++)
            for (c = 1; c <= length(row[r]); c++) {
                ch = substr(row[r], c, 1)
                g[r, c] = ch != "#"
                if (ch == "@" || ch == "+") { pr = r; pc = c }
                if (ch == "$" || ch == "*") b[r, c] = 1
                if (ch == "." || ch == "+" || ch == "*") goal[r, c] = 1
            }
        m = ENVIRON["MOVES"]; pushes = 0
        for (i = 1; i <= length(m); i++) {
            ch = substr(m, i, 1); k = index("lurdLURD", ch)
            if (!k) { print "move " i " is \"" ch "\", not one of lurdLURD"; exit }
            d = (k - 1) % 4
            dr = d == 1 ? -1 : d == 3 ? 1 : 0; dc = d == 0 ? -1 : d == 2 ? 1 : 0
            nr2 = pr + dr; nc = pc + dc
            if (!g[nr2, nc]) { print "move " i " walks into a wall"; exit }
            if (((nr2, nc) in b) != (k > 4)) {
                print "move " i " (" ch ") " (k > 4 ? "pushes no box" : \
                    "moves a box without a capital"); exit
            }
            if (k > 4) {
                if (!g[nr2 + dr, nc + dc] || ((nr2 + dr, nc + dc) in b)) {
                    print "move " i " pushes a box into a wall or box"; exit
                }
                delete b[nr2, nc]; b[nr2 + dr, nc + dc] = 1; pushes++
            }
            pr = nr2; pc = nc
        }
        for (k in b) if (!(k in goal)) { print "a box is off its goals at the end"; exit }
        if (length(m) != ENVIRON["STEPS"] || pushes != ENVIRON["PUSHES"])
            print length(m) " moves, " pushes " pushes, reported as " \
                ENVIRON["STEPS"] " and " ENVIRON["PUSHES"]
    }'
}

mapfile -t records < <(split_levels "$file")
count=${#records[@]}
if [ "$levels" != all ]; then
    for hi in "${his[@]}"; do
        [ "$hi" -le "$count" ] ||
            die_usage "-l $levels: $(basename "$file") has $count levels"
    done
fi

[ "$quiet" = 1 ] || printf '%-12s %5s %-12s %7s %7s %-7s %9s\n' level boxes \
    status moves pushes optimal time_s
total=0
failed=()
other_limits=()
solved=0
optimal=0
idx=0
sum_ms=0
worst_ms=0
worst_solved_ms=-1
worst_solved=
sum_moves=0
sum_pushes=0
for record in "${records[@]}"; do
    idx=$((idx + 1))
    selected "$idx" || continue
    label=${record%%$'\t'*}
    rows=${record#*$'\t'}
    total=$((total + 1))
    boxes=${rows//[^\$*]/}
    boxes=${#boxes}
    body="{\"grid\": [$rows], \"optimize\": \"$optimize\", \"limits\": {\"timeout_ms\": $timeout_ms}}"
    t0=$(date +%s%N)
    rc=0
    out=$(printf '%s' "$body" | "$bin" solve sokoban --json 2>&1) || rc=$?
    t1=$(date +%s%N)
    ms=$(((t1 - t0) / 1000000))
    sum_ms=$((sum_ms + ms))
    [ "$ms" -le "$worst_ms" ] || worst_ms=$ms
    status=$(field status "$out")
    steps=$(field steps "$out")
    pushes=$(field pushes "$out")
    opt=$(field optimal "$out")
    why=
    case $rc:$status in
    0:solved)
        if ! [[ $steps =~ ^[0-9]+$ && $pushes =~ ^[0-9]+$ ]]; then
            why="solved without steps and pushes"
        else
            why=$(replay "$rows" "$(field moves "$out")" "$steps" "$pushes")
            [ -z "$why" ] || why="answer does not replay: $why"
        fi
        ;;
    0:impossible) ;;
    3:limit)
        # The CLI's default state cap or memory budget can stop a level
        # before -t does: say so, or "limit T each" would misname it.
        kind=$(field limit "$out")
        if [ "$kind" != time ]; then
            status="limit:${kind:-?}"
            other_limits+=("$label")
        fi
        ;;
    *) why="exit status $rc, status '${status:-none}': ${out:0:200}" ;;
    esac
    if [ -n "$why" ]; then
        status=error
        failed+=("$label")
        echo "sokoban.sh: level $label: $why" >&2
    elif [ "$status" = solved ]; then
        solved=$((solved + 1))
        sum_moves=$((sum_moves + steps))
        sum_pushes=$((sum_pushes + pushes))
        if [ "$ms" -gt "$worst_solved_ms" ]; then
            worst_solved_ms=$ms
            worst_solved=$label
        fi
        [ "$opt" != true ] || optimal=$((optimal + 1))
    fi
    [ "$status" = solved ] || steps= pushes= opt=
    [ "$quiet" = 1 ] || printf '%-12s %5d %-12s %7s %7s %-7s %9s\n' \
        "${label:0:12}" "$boxes" "$status" "${steps:--}" "${pushes:--}" \
        "${opt:--}" "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
done
# Milliseconds as seconds, rounded to a tenth.
secs() { printf '%d.%d' $((($1 + 50) / 1000)) $(((($1 + 50) % 1000) / 100)); }
# `any` claims no optimality: its summary says nothing of it.
proven=" ($optimal proven $optimize-optimal)"
[ "$optimize" != any ] || proven=
limit="$((timeout_ms / 1000)) s"
[ $((timeout_ms % 1000)) = 0 ] || limit="$timeout_ms ms"
slowest_solved=-
[ "$solved" = 0 ] ||
    slowest_solved="$worst_solved, $(secs $worst_solved_ms) s"
echo "$solved of $total solved$proven, total" \
    "$(secs $sum_ms) s, slowest $(secs $worst_ms) s;" \
    "slowest solved: $slowest_solved;" \
    "answers: $sum_moves moves, $sum_pushes pushes" \
    "[$(basename "$file"), $optimize, limit $limit each]"
if [ "${#other_limits[@]}" -gt 0 ]; then
    echo "sokoban.sh: ${#other_limits[@]} levels stopped at the state cap or" \
        "memory budget before the time limit: ${other_limits[*]}" >&2
fi
if [ "${#failed[@]}" -gt 0 ]; then
    echo "sokoban.sh: ${#failed[@]} of $total levels failed:" \
        "${failed[*]}" >&2
    exit 1
fi
