#!/usr/bin/env bash
# Runs a command with N extra busy loops on the CPU (`make test-under-load`, GitHub issue 24): a test whose
# verdict depends on how fast the machine is fails here, so its margin is proved before a busy CI finds it.
# The hogs are killed when the command ends, however it ends.
#
#   scripts/with-cpu-hogs.sh 2 swift test --skip-build --skip 'Slow'
set -uo pipefail
count=${1:?usage: with-cpu-hogs.sh COUNT COMMAND...}
shift
hogs=()
cleanup() { [ ${#hogs[@]} = 0 ] || kill "${hogs[@]}" 2>/dev/null; }
trap cleanup EXIT
trap 'exit 130' INT TERM
for _ in $(seq "$count"); do
  sh -c 'while :; do :; done' &
  hogs+=($!)
done
echo "with-cpu-hogs: $count busy loops (pids ${hogs[*]}) while: $*"
"$@"
