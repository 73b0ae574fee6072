#!/usr/bin/env bash
# Runs `make test`'s phases one after another, each to its end even when an earlier one failed, so that one
# red phase does not hide the others (GitHub issue 24). Each argument is one phase, `NAME|COMMAND`; COMMAND
# runs in bash. As each phase ends its name, result and wall time are printed; a table of all of them comes
# last, and the exit status is non-zero if any phase failed. Under the table come the failing phases' failure
# lines (Swift Testing's ✘ lines, XCTest's errors, crashes): CI keeps only the tail of the output, and a red
# phase whose reason scrolled away cannot be fixed.
#
#   scripts/test-phases.sh "unit|swift test --skip-build --filter Unit" "fuzz|make fuzz-smoke"
set -uo pipefail
cd "$(dirname "$0")/.."

names=() results=() times=()
failed=0
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# 754 s -> "12m34s".
minutes() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

for phase in "$@"; do
  name=${phase%%|*}
  command=${phase#*|}
  printf '\n=== phase %s: %s\n' "$name" "$command"
  start=$(date +%s)
  log="$logs/${#names[@]}.log"
  if bash -c "$command" 2>&1 | tee "$log"; then result=pass; else result=FAIL; failed=1; fi
  elapsed=$(($(date +%s) - start))
  printf '=== phase %s: %s in %s\n' "$name" "$result" "$(minutes "$elapsed")"
  names+=("$name") results+=("$result") times+=("$elapsed")
done

total=0
printf '\n%-28s %-6s %s\n' phase result time
for i in "${!names[@]}"; do
  printf '%-28s %-6s %s\n' "${names[$i]}" "${results[$i]}" "$(minutes "${times[$i]}")"
  total=$((total + times[i]))
done
printf '%-28s %-6s %s\n' total "$([ $failed = 0 ] && echo pass || echo FAIL)" "$(minutes "$total")"

# Why each red phase failed, at most 40 lines of at most 400 characters a phase: Swift Testing's issues with
# the 3 lines after each (a test's own message, e.g. which expectation was unmet, follows its ✘ line), then
# XCTest's errors and crashes, the mutation test's variants that did not fail after their deleted press, and a
# fuzzer's crash (libFuzzer's or the sanitizer's ERROR and SUMMARY lines, where the crashing input was written).
for i in "${!names[@]}"; do
  [ "${results[$i]}" = FAIL ] || continue
  printf '\n--- why phase %s failed:\n' "${names[$i]}"
  { grep -aE -A3 '✘ .*recorded an issue' "$logs/$i.log"
    grep -aE '✘ .*(failed after|failed with)|error:|Fatal error|Assertion failed|Segmentation fault|Illegal instruction' "$logs/$i.log"
    grep -aE '^(PASSED|UNCLEAR|ERROR)  |^mutation test: [0-9]+ of' "$logs/$i.log"
    grep -aE 'ERROR: (libFuzzer|AddressSanitizer)|^SUMMARY: |Test unit written to' "$logs/$i.log"
  } | grep -avE '^(=== phase|--)$' | awk '!seen[$0]++' | cut -c1-400 | head -40
done
exit $failed
