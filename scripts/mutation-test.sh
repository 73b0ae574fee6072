#!/usr/bin/env bash
# The scenario mutation test (issue 13, `make test`): every shipped scenario, once per `press` line, with
# that line deleted, played by the real binary against the embedded relay — each variant must FAIL (exit 1).
# A scenario that still passes without one of its presses proves nothing about that step.
#
# A press that may be deleted without changing the outcome is marked on the line above it:
#     # mutation: may be deleted — WHY
# and is skipped here (the reason is printed).
#
# Budget: variants run headless with small pictures (the flows are the same; see ScenarioRunTests.light),
# MUTATION_JOBS (6) at a time, the longest first. A variant is its scenario's real-time waits up to the first
# expectation after the missing step (the run ends there; start-up and teardown take ~0.3 s), at about 0.13 of
# a core (measured: 86 s of CPU in 655 s of variants; the weak signal's 720p, 0.28): six use under one core,
# and the phase takes about as long as its longest variant (the weak signal without its lift, ~90 s).
# More load can only make a variant fail, never pass; a failure counts only on a line after the deleted press,
# and a variant that failed before it is played again alone (MUTATION_RETRIES, 2) before it counts against
# the phase.
# Usage: scripts/mutation-test.sh [BINARY] (default .build/debug/onair); MUTATION_SCENARIOS picks the files
# (default Scenarios/*.scenario).
set -euo pipefail
cd "$(dirname "$0")/.."
ONAIR=${1:-.build/debug/onair}
JOBS=${MUTATION_JOBS:-6}
[ -x "$ONAIR" ] || { echo "mutation test: $ONAIR missing; run swift build" >&2; exit 1; }
WORK=$(mktemp -d /tmp/onair-mutation.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

for scenario in ${MUTATION_SCENARIOS:-Scenarios/*.scenario}; do
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
        print fixed(n) "\t" variant "\t" file ":" n "\t" lines[n]
      }
    }
    # Milliseconds of `wait D` and `for W` written before line n: what the variant must play through at least,
    # to start the longest first.
    function fixed(n,    m, k, count, words, total) {
      total = 0
      for (m = 1; m < n; m++) {
        if (lines[m] ~ /^[ \t]*#/) continue
        count = split(lines[m], words, /[ \t]+/)
        for (k = 1; k < count; k++) if (tolower(words[k]) == "wait" || tolower(words[k]) == "for") total += ms(words[k + 1])
      }
      return total
    }
    function ms(text,    value) {
      value = text + 0
      if (text ~ /ms$/) return value
      if (text ~ /s$/) return value * 1000
      if (text ~ /m$/) return value * 60000
      return 0
    }' "$scenario"
done | sort -t $'\t' -k1,1nr | cut -f2- > "$WORK/variants"

run_variant() {
  local variant=$1 origin=$2 text=$3 status=0
  "$4" demo --headless --size 320x180 --fps 15 --bitrate 300k --record-dir "$variant.rec" --script "$variant" \
    < /dev/null > "$variant.jsonl" 2> "$variant.err" || status=$?
  # Exit 1 with an expectation not met, on a line after the deleted press: the scenario noticed. (Exit 1 alone
  # could be a broken broadcast; an unmet expectation before the deleted line could be anything but the
  # deletion, e.g. a machine too loaded for a step before it — it would hide a press nothing needs.)
  local deleted=${origin##*:} line why
  IFS=$'\t' read -r line why < <(grep '"met":false' "$variant.jsonl" | tail -1 \
    | python3 -c 'import json, sys; d = json.loads(sys.stdin.read())["details"]; print(str(d["line"]) + "\t" + d["expect"])' 2>/dev/null) || true
  if [ "$status" = 1 ] && [ -n "${why:-}" ] && [ "${line:-0}" -gt "$deleted" ]; then
    printf 'failed  %s  %s  (as it must: line %s %s)\n' "$origin" "$text" "$line" "$why"
  elif [ "$status" = 1 ] && [ -n "${why:-}" ]; then
    printf 'UNCLEAR  %s  %s  failed before the deleted press (line %s: %s), so it proves nothing about it\n' "$origin" "$text" "$line" "$why"
  elif [ "$status" = 0 ] || [ "$status" = 1 ]; then
    printf 'PASSED  %s  %s  exit %s, no unmet expectation — this press can be deleted without the scenario noticing\n' "$origin" "$text" "$status"
  else
    printf 'ERROR  %s  %s  exit %s: %s\n' "$origin" "$text" "$status" "$(tail -3 "$variant.err" | tr '\n' ' ' | cut -c1-300)"
  fi
}
export -f run_variant

count=$(wc -l < "$WORK/variants")
echo "mutation test: $count variants, $JOBS at a time"
tr '\n' '\0' < "$WORK/variants" \
  | xargs -0 -P "$JOBS" -I{} bash -c 'IFS=$'"'"'\t'"'"' read -r v o t <<< "$1"; run_variant "$v" "$o" "$t" "$2"' _ {} "$ONAIR" \
  | tee "$WORK/results"

# A variant that failed before its deleted press says nothing either way (CI's busy cores can miss a step six
# variants share them with). Each is played again alone, up to MUTATION_RETRIES times: a press nothing needs
# still passes there, and one the scenario needs still fails after it; only a variant unclear every time fails
# the phase, as unclear.
retries=${MUTATION_RETRIES:-2}
for attempt in $(seq "$retries"); do
  grep -q '^UNCLEAR' "$WORK/results" || break
  grep -v '^UNCLEAR' "$WORK/results" > "$WORK/settled"
  while IFS= read -r result; do
    origin=$(awk '{print $2}' <<< "$result")
    IFS=$'\t' read -r v o t < <(awk -F'\t' -v origin="$origin" '$2 == origin' "$WORK/variants")
    echo "mutation test: $origin again, alone (attempt $attempt of $retries)"
    run_variant "$v" "$o" "$t" "$ONAIR" | tee -a "$WORK/settled"
  done < <(grep '^UNCLEAR' "$WORK/results")
  mv "$WORK/settled" "$WORK/results"
done

survivors=$(grep -cE '^(PASSED|UNCLEAR|ERROR)' "$WORK/results" || true)
if [ "$survivors" != 0 ]; then
  grep -E '^(PASSED|UNCLEAR|ERROR)' "$WORK/results" >&2
  echo "mutation test: $survivors of $count variants did not fail after their deleted press (above); add an expectation that needs it, or mark it (# mutation: may be deleted — why)" >&2
  exit 1
fi
echo "mutation test: all $count variants failed, as they must"
