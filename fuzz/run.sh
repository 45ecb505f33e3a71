#!/usr/bin/env bash
# run.sh - runs every fuzz harness for every puzzle and mode in turn.
#
#   fuzz/run.sh BUILD_DIR SECONDS [HARNESS...]
#
# BUILD_DIR holds the harness binaries and fuzz_seeds. fuzz_parse and
# fuzz_service run once per (puzzle, mode) of the registry, each SECONDS
# seconds on its own corpus, BUILD_DIR/corpus/<harness>-<puzzle>-<mode>,
# seeded from BUILD_DIR/seeds/<puzzle>-<mode>. fuzz_http (which serves
# every puzzle in one process) and fuzz_config run once each. Crashes go
# to BUILD_DIR/artifacts/, logs to BUILD_DIR/logs/; a failed run prints
# its reproducer and the command that replays it. One run at a time
# (the machine is shared); FUZZ_NICE=N runs them under `nice -n N`. Exits
# 1 when any run found something, naming the runs that did.
set -uo pipefail
build=${1:?usage: run.sh BUILD_DIR SECONDS [HARNESS...]}
seconds=${2:?usage: run.sh BUILD_DIR SECONDS [HARNESS...]}
shift 2
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] &&
  harnesses=(fuzz_parse fuzz_service fuzz_http fuzz_config)
nice_cmd=()
[ -n "${FUZZ_NICE:-}" ] && nice_cmd=(nice -n "$FUZZ_NICE")

for h in "${harnesses[@]}"; do
  if [ ! -x "$build/$h" ]; then
    echo "fuzz: no harness $build/$h (harnesses: fuzz_parse fuzz_service" \
      "fuzz_http fuzz_config)" >&2
    exit 2
  fi
done
rm -rf "$build/seeds"
targets=$("$build/fuzz_seeds" "$build/seeds") || exit 1
mkdir -p "$build/artifacts" "$build/logs"
failed=0 runs=0 failed_names=
for h in "${harnesses[@]}"; do
  list=$targets extra=()
  case $h in
  fuzz_http)
    list="http raw"
    # Other threads allocate while an input runs: per-input leak checks
    # would report the daemon's live connections.
    extra=(-detect_leaks=0)
    ;;
  fuzz_config) list="config raw" ;;
  esac
  while read -r puzzle mode; do
    name=$h-$puzzle-$mode
    seeds=$build/seeds/$puzzle-$mode dict=$build/seeds/$puzzle.dict
    if [ "$mode" = raw ]; then
      name=$h seeds=$build/seeds/$puzzle
    fi
    corpus=$build/corpus/$name
    mkdir -p "$corpus"
    runs=$((runs + 1))
    # -timeout: an input slower than 10 s is a finding (a limit ignored);
    # -rss_limit_mb: so is one that needs more than 2 GB.
    if GS_FUZZ_PUZZLE=$puzzle GS_FUZZ_MODE=$mode "${nice_cmd[@]}" \
      "$build/$h" -max_total_time="$seconds" -timeout=10 \
      -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 "${extra[@]}" \
      -dict="$dict" -artifact_prefix="$build/artifacts/$name-" \
      "$corpus" "$seeds" >"$build/logs/$name.log" 2>&1; then
      execs=$(sed -n 's/^stat::number_of_executed_units: *//p' \
        "$build/logs/$name.log")
      seed=$(sed -n 's/^INFO: Seed: *//p' "$build/logs/$name.log")
      echo "fuzz: $name ok (${execs:-?} runs in ${seconds}s, seed ${seed:-?})"
    else
      failed=$((failed + 1)) failed_names="$failed_names $name"
      seed=$(sed -n 's/^INFO: Seed: *//p' "$build/logs/$name.log")
      echo "fuzz: $name FAILED (seed ${seed:-?}); log $build/logs/$name.log:"
      # The report's first lines, or the log's last when it has none.
      grep -E 'ERROR|SUMMARY|gs_fuzz_check|runtime error' \
        "$build/logs/$name.log" | head -6 | sed 's/^/  /' | grep . ||
        tail -3 "$build/logs/$name.log" | sed 's/^/  /'
      # The input libFuzzer saved, and the command that runs it again.
      unit=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' \
        "$build/logs/$name.log" | tail -1)
      if [ -n "$unit" ]; then
        echo "  reproducer: $unit"
        env="GS_FUZZ_PUZZLE=$puzzle GS_FUZZ_MODE=$mode "
        [ "$mode" = raw ] && env=
        echo "  replay: $env$build/$h ${extra[*]:+${extra[*]} }$unit"
      else
        echo "  no reproducer written (the harness failed outside an input)"
      fi
    fi
  done <<<"$list"
done
echo "fuzz: $runs runs, $failed failed${failed_names:+:$failed_names}"
[ "$failed" -eq 0 ]
