#!/bin/sh
# xsb2json.sh - turns the first level of an XSB file (or standard input)
# into a JSON body for POST /solve/sokoban: map rows are the lines made of
# XSB cells (# @ + $ * . space - _); comment (;) and title lines are skipped.
#
#   examples/xsb2json.sh examples/sokoban.xsb |
#     curl -s -H 'Content-Type: application/json' --data-binary @- \
#       localhost:8080/solve/sokoban
exec awk '
  /^[ #@+$*._-]*#[ #@+$*._-]*$/ { if (done) next; rows[n++] = $0; next }
  n > 0 { done = 1 }
  END {
    printf "{\"grid\": ["
    for (i = 0; i < n; i++) printf "%s\"%s\"", (i ? ", " : ""), rows[i]
    print "]}"
  }' "${1:--}"
