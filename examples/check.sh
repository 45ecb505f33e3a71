#!/usr/bin/env bash
# check.sh - runs every example and compares the answer with the expected
# one next to it (elapsed_ms, which varies, is left out of the comparison).
#
#   examples/check.sh                         through build/gridsolve solve
#   examples/check.sh http://127.0.0.1:8080   through a running server
#
# NAME.in -> NAME.out (judge text), NAME.xsb -> NAME.out (XSB text, when
# there is no NAME.in), NAME.json -> NAME.response.json (JSON mode); the
# puzzle is the part of NAME before the first '-'. Prints one line
# per example and 'check: N passed, N failed'; exit status 1 on a failure.
# Through the CLI the exit status counts too: 3 for an example whose name
# says it hits a limit (NAME-limit.*), 0 for every other; NAME-invalid.json
# must print its problem document's detail and title and exit 1.
set -uo pipefail
# The binary's path is made absolute before the cd (a relative
# GRIDSOLVE_BIN names a file from where the script was started).
bin="$(realpath -- "${GRIDSOLVE_BIN:-$(dirname "$0")/../build/gridsolve}")"
cd "$(dirname "$0")"
url="${1:-}"
pass=0 failed=0
mask() { sed -E 's/"elapsed_ms":[0-9.e+-]+/"elapsed_ms":_/'; }
run() { # run PUZZLE FILE MODE
  if [ -n "$url" ]; then
    local ct=application/json
    [ "$3" = text ] && ct=text/plain
    curl -s -H "Content-Type: $ct" --data-binary "@$2" "$url/solve/$1"
  elif [ "$3" = text ]; then
    "$bin" solve "$1" "$2"
  else
    "$bin" solve "$1" "$2" --json
  fi
}
check() { # check FILE EXPECTED MODE
  local name="${1%.*}" got rc want_rc=0
  got="$(run "${name%%-*}" "$1" "$3" 2>&1)"
  rc=$?
  got="$(printf '%s\n' "$got" | mask)"
  case "$name" in *-limit*) want_rc=3 ;; esac
  [ -n "$url" ] && want_rc=0 # curl's own status
  verdict "$1" "$got" "$rc" "$(mask < "$2")" "$want_rc"
}
verdict() { # verdict FILE GOT EXIT WANT WANT_EXIT: counts and prints one line
  if [ "$2" = "$4" ] && [ "$3" = "$5" ]; then
    pass=$((pass + 1)); echo "ok   $1"
  else
    failed=$((failed + 1)); echo "FAIL $1: got $2 (exit $3), expected $4 (exit $5)"
  fi
}
check_invalid() { # check_invalid FILE: the CLI's line for its problem document
  local doc want got rc
  doc="$(cat "${1%.json}.response.json")"
  want="$(printf '%s' "$doc" | sed -E 's/.*"title":"([^"]*)","status":([0-9]+),"detail":"(([^"\\]|\\.)*)".*/gridsolve: \3 (\2 \1)/')"
  got="$("$bin" solve "${1%%-*}" "$1" --json 2>&1)"
  rc=$?
  verdict "$1" "$got" "$rc" "$want" 1
}
for f in *.in; do check "$f" "${f%.in}.out" text; done
for f in *.xsb; do
  [ -f "${f%.xsb}.out" ] && [ ! -f "${f%.xsb}.in" ] || continue
  check "$f" "${f%.xsb}.out" text
done
for f in *.json; do
  case "$f" in *.response.json) continue ;; esac
  # An invalid body is a 422 problem document over HTTP; the CLI prints
  # its detail and title on stderr and exits 1.
  case "$f" in *-invalid.json) [ -z "$url" ] && { check_invalid "$f"; continue; } ;; esac
  check "$f" "${f%.json}.response.json" json
done
# The XSB level is the level of sokoban.json.
if ./xsb2json.sh sokoban.xsb | cmp -s - sokoban.json; then
  pass=$((pass + 1)); echo "ok   sokoban.xsb = sokoban.json"
else
  failed=$((failed + 1)); echo "FAIL sokoban.xsb differs from sokoban.json"
fi
echo "check: $pass passed, $failed failed"
[ "$failed" = 0 ]
