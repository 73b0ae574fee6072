#!/usr/bin/env bash
# `make bench`: OnAir measured side by side with ffmpeg and nginx-rtmp, in one run, on this machine.
# Each benchmark is a script in scripts/bench.d/; its results go to bench-results/ and to stdout.
# ONAIR_BENCH_ONLY="abr engine" runs just those sections, ONAIR_BENCH_SKIP="publish console" all but those.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench-results
shopt -s nullglob
benches=(scripts/bench.d/*.sh)
if [ ${#benches[@]} -eq 0 ]; then
  echo "bench: no benchmarks yet"
  exit 0
fi
for bench in "${benches[@]}"; do
  # lib.sh holds helpers the benchmarks source; it measures nothing itself.
  [ "$(basename "$bench")" = lib.sh ] && continue
  section=$(basename "$bench" .sh)
  if [ -n "${ONAIR_BENCH_ONLY:-}" ] && [[ " $ONAIR_BENCH_ONLY " != *" $section "* ]]; then continue; fi
  if [[ " ${ONAIR_BENCH_SKIP:-} " == *" $section "* ]]; then echo "== $section: skipped (ONAIR_BENCH_SKIP)"; continue; fi
  echo "== $(basename "$bench" .sh)"
  bash "$bench"
done
