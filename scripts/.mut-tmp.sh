#!/usr/bin/env bash
# The scenario mutation test (issue 13, `make test`): every shipped scenario, once per `press` line, with
# that line deleted, played by the real binary against the embedded relay — each variant must FAIL (exit 1).
# A scenario that still passes without one of its presses proves nothing about that step.
#
# A press that may be deleted without changing the outcome is marked on the line above it:
#     # mutation: may be deleted — WHY
# and is skipped here (the reason is printed).
#
# Budget: variants run headless, two at a time, with small pictures (the flows are the same; see
# ScenarioRunTests.light); most fail at the first expectation after the missing step, so the whole phase
# takes a few minutes. Usage: scripts/mutation-test.sh [BINARY] (default .build/debug/onair).
set -euo pipefail
cd "$(dirname "$0")/.."
ONAIR=${1:-.build/debug/onair}
JOBS=${MUTATION_JOBS:-2}
[ -x "$ONAIR" ] || { echo "mutation test: $ONAIR missing; run swift build" >&2; exit 1; }
WORK=$(mktemp -d /tmp/onair-mutation.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

for scenario in Scenarios/device-*.scenario; do
  awk -v file="$scenario" -v dir="$WORK" '
    { lines[NR] = $0 }
    END {
      for (n = 1; n <= NR; n++) {
        if (tolower(lines[n]) !~ /^[ \t]*press[ \t]/) continue
        if (n > 1 && lines[n - 1] ~ /^[ \t]*#[ \t]*mutation:[ \t]*may be deleted/) {
          printf "kept    %s:%d  %s  (%s)\n", file, n, lines[n], lines[n - 1] > "/dev/stderr"
          continue
        }
        base = file; sub(/^.*\//, "", base); sub(/\.scenario$/, "", base)
        variant = dir "/" base ".line" n ".scenario"
        for (m = 1; m <= NR; m++) print (m == n ? "# (deleted by the mutation test) " lines[m] : lines[m]) > variant
        close(variant)
        print variant "\t" file ":" n "\t" lines[n]
      }
    }' "$scenario"
done > "$WORK/variants"

run_variant() {
  local variant=$1 origin=$2 text=$3 status=0
  "$4" demo --headless --size 320x180 --fps 15 --bitrate 300k --record-dir "$variant.rec" --script "$variant" \
    < /dev/null > "$variant.jsonl" 2> "$variant.err" || status=$?
  # Exit 1 with an expectation not met: the scenario noticed. (Exit 1 alone could be a broken broadcast.)
  local why
  why=$(grep '"met":false' "$variant.jsonl" | tail -1 \
    | python3 -c 'import json, sys; print(json.loads(sys.stdin.read())["details"]["expect"])' 2>/dev/null || true)
  if [ "$status" = 1 ] && [ -n "$why" ]; then
    printf 'failed  %s  %s  (as it must: %s)\n' "$origin" "$text" "$why"
  else
    printf 'PASSED  %s  %s  exit %s, no unmet expectation — this press can be deleted without the scenario noticing\n' "$origin" "$text" "$status"
  fi
}
export -f run_variant

count=$(wc -l < "$WORK/variants")
echo "mutation test: $count variants, $JOBS at a time"
tr '\n' '\0' < "$WORK/variants" \
  | xargs -0 -P "$JOBS" -I{} bash -c 'IFS=$'"'"'\t'"'"' read -r v o t <<< "$1"; run_variant "$v" "$o" "$t" "$2"' _ {} "$ONAIR" \
  | tee "$WORK/results"
survivors=$(grep -c '^PASSED' "$WORK/results" || true)
if [ "$survivors" != 0 ]; then
  echo "mutation test: $survivors of $count variants passed with a press deleted; add an expectation that needs it, or mark it (# mutation: may be deleted — why)" >&2
  exit 1
fi
echo "mutation test: all $count variants failed, as they must"
