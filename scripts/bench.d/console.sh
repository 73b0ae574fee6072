#!/usr/bin/env bash
# Console benchmark (docs/design.md §5, issue 6), three measurements of the release build:
#  1. full redraw at 200x60: the benchmark test ConsoleRenderBenchmark renders a busy ConsoleScreen (both
#     panes, 64x36 preview pictures that change every frame, 500-entry logs, stacked toasts, a notice) into a
#     CellBuffer and diffs it against the previous frame, ONAIR_BENCH_CONSOLE times; mean and p99 of
#     render+diff, in wall time and in the thread's CPU time (on a shared machine the wall p99 is mostly
#     preemption). Target <= 2 ms.
#  2. idle CPU: the real `onair subscribe rtmp://127.0.0.1:PORT/live/none` console (nothing listens on PORT:
#     the subscriber waits and retries, redrawing at the default --preview-fps 8) in a 160x48 tmux pane;
#     utime+stime from /proc/PID/stat over a 10 s window. Target < 1 % of one core.
#  3. terminal bytes per second: `onair demo --size 640x360` (publisher, relay and subscriber in one process;
#     the preview pictures are 128x72 whatever the video size) in a 160x48 tmux pane, preview on (default
#     --preview-fps 8) and off (--preview-fps 0), 10 s each, captured with `tmux pipe-pane`. Reported (there
#     is no target; SSH links are slow), also as kbit/s. Then the same at 80x24, where issue 17 sets the
#     target: <= 10 kB/s with the preview on.
# Every tmux server runs on a private -L socket and is killed at exit; loopback only. Results: stdout and
# bench-results/console.txt. Bounded: about a minute once the release test bundle is built (engine.sh
# builds the same bundle, so under `make bench` the build is a no-op here).
# Exits non-zero only when a measurement could not be made; a MISSED target is a result, not a failure.
set -euo pipefail
cd "$(dirname "$0")/../.."
ONAIR=${ONAIR:-.build/release/onair}
# The benchmark test bundle is built with -enable-testing in its own scratch path (as publish.sh does), so
# building it never invalidates the plain release binary that `make demo` and engine.sh use.
SCRATCH=.build/bench
BUNDLE=${ONAIR_BENCH_BUNDLE:-$SCRATCH/release/OnAirPackageTests.xctest}
ITERATIONS=${CONSOLE_BENCH_ITERATIONS:-2000}
WINDOW=${CONSOLE_BENCH_WINDOW:-10}
WARMUP=${CONSOLE_BENCH_WARMUP:-3}
for tool in tmux python3 awk; do
  command -v "$tool" >/dev/null || { echo "console bench: $tool is not installed" >&2; exit 1; }
done

if [ -z "${ONAIR_BENCH_SKIP_BUILD:-}" ]; then
  swift build -c release --build-tests -Xswiftc -enable-testing --scratch-path "$SCRATCH" >/dev/null
  swift build -c release --product onair >/dev/null
fi
[ -x "$ONAIR" ] || { echo "console bench: $ONAIR missing" >&2; exit 1; }
[ -x "$BUNDLE" ] || { echo "console bench: $BUNDLE missing" >&2; exit 1; }
ONAIR=$(realpath "$ONAIR")   # the panes start in $WORK

WORK=$(mktemp -d /tmp/onair-console-bench.XXXXXX)
SOCKETS=()
PIDS=()
cleanup() {
  for socket in "${SOCKETS[@]}"; do tmux -L "$socket" kill-server 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
# A pane whose program died stays readable (its status shows in the pane) instead of taking the server along.
echo 'set-option -g remain-on-exit on' >"$WORK/tmux.conf"

TICKS=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
FAILED=()

# start_console LABEL ARGS... → a detached COLSxROWS (default 160x48) tmux session (socket and session both LABEL) running onair
# directly (no shell in between), so the pane's pid is onair's. Sets CONSOLE_PID.
start_console() {
  local label=$1; shift
  local socket="onair-bench-$label-$$"
  SOCKETS+=("$socket")
  tmux -L "$socket" -f "$WORK/tmux.conf" new-session -d -s "$label" -x "${COLS:-160}" -y "${ROWS:-48}" -c "$WORK" \
    -e TERM=tmux-256color -e LANG="${LANG:-C.UTF-8}" -- "$ONAIR" "$@"
  CONSOLE_PID=$(tmux -L "$socket" display-message -p -t "$label" '#{pane_pid}')
  PIDS+=("$CONSOLE_PID")
}

# wait_screen LABEL PATTERN: until the pane shows PATTERN (grep -E), at most 30 s.
wait_screen() {
  local socket="onair-bench-$1-$$"
  for _ in $(seq 1 300); do
    tmux -L "$socket" capture-pane -p -t "$1" 2>/dev/null | grep -qE "$2" && return 0
    sleep 0.1
  done
  echo "console bench: '$2' never appeared in $1:" >&2
  tmux -L "$socket" capture-pane -p -t "$1" >&2 2>/dev/null || true
  return 1
}

# stop_console LABEL PID: SIGTERM (a clean stop), at most 10 s, then the tmux server goes.
stop_console() {
  kill -TERM "$2" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$2" 2>/dev/null || break; sleep 0.1; done
  tmux -L "onair-bench-$1-$$" kill-server 2>/dev/null || true
}

# 1. Render + diff at 200x60.
REDRAW_JSON=""
if ONAIR_BENCH_CONSOLE="$ITERATIONS" "$BUNDLE" --testing-library swift-testing --filter ConsoleRenderBenchmark \
    >"$WORK/render.out" 2>&1 && grep -q 'ONAIR_BENCH {' "$WORK/render.out"; then
  REDRAW_JSON=$(sed -n 's/.*ONAIR_BENCH \({.*}\).*/\1/p' "$WORK/render.out" | head -1)
else
  cat "$WORK/render.out" >&2
  FAILED+=("redraw")
fi
field() { python3 -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$REDRAW_JSON" "$1"; }

# 2. Idle CPU of the subscriber console with nobody publishing.
IDLE_PCT=""
if start_console idle subscribe "rtmp://127.0.0.1:$(free_port)/live/none" \
    && wait_screen idle 'q quit'; then
  idle_pid=$CONSOLE_PID
  sleep "$WARMUP"
  t0=$(cpu_ticks "$idle_pid"); s0=$(date +%s.%N)
  sleep "$WINDOW"
  t1=$(cpu_ticks "$idle_pid"); s1=$(date +%s.%N)
  IDLE_PCT=$(awk -v a="$t0" -v b="$t1" -v hz="$TICKS" -v s0="$s0" -v s1="$s1" 'BEGIN {printf "%.2f", 100 * (b - a) / hz / (s1 - s0)}')
  IDLE_STATE=$(tmux -L "onair-bench-idle-$$" capture-pane -p -t idle | grep -oE ' (CONNECTING|ERROR|RECONNECTING|WAITING FOR PUBLISHER|IDLE) ' | head -1 | tr -d ' ')
  stop_console idle "$idle_pid"
else
  FAILED+=("idle")
fi

# 3. Bytes written to the terminal by the demo, preview on and off. Sets DEMO_RATE (bytes per second).
# Not run in $(…): the sockets and pids it starts must reach cleanup.
demo_bytes() {
  DEMO_RATE=""
  local label=$1; shift
  local socket="onair-bench-$label-$$"
  start_console "$label" demo --size 640x360 --record-dir "$WORK/rec-$label" "$@" || return 1
  local pid=$CONSOLE_PID
  wait_screen "$label" ' PLAYING ' || { stop_console "$label" "$pid"; return 1; }
  sleep "$WARMUP"
  : >"$WORK/$label.bytes"
  tmux -L "$socket" pipe-pane -o -t "$label" "cat >> '$WORK/$label.bytes'"
  local s0; s0=$(date +%s.%N)
  sleep "$WINDOW"
  tmux -L "$socket" pipe-pane -t "$label"
  local s1; s1=$(date +%s.%N)
  sleep 0.2
  local screen; screen=$(tmux -L "$socket" capture-pane -p -t "$label")
  stop_console "$label" "$pid"
  grep -q ' PUBLISHING ' <<<"$screen" || { echo "console bench: $label stopped publishing:" >&2; echo "$screen" >&2; return 1; }
  local bytes; bytes=$(wc -c <"$WORK/$label.bytes")
  [ "$bytes" -gt 0 ] || { echo "console bench: nothing captured from $label" >&2; return 1; }
  DEMO_RATE=$(awk -v b="$bytes" -v s0="$s0" -v s1="$s1" 'BEGIN {printf "%.0f", b / (s1 - s0)}')
}
PREVIEW_ON=""; PREVIEW_OFF=""
if demo_bytes preview-on; then PREVIEW_ON=$DEMO_RATE; else FAILED+=("bytes, preview on"); fi
if demo_bytes preview-off --preview-fps 0; then PREVIEW_OFF=$DEMO_RATE; else FAILED+=("bytes, preview off"); fi
SMALL_ON=""; SMALL_OFF=""
export COLS=80 ROWS=24
if demo_bytes small-preview-on; then SMALL_ON=$DEMO_RATE; else FAILED+=("bytes 80x24, preview on"); fi
if demo_bytes small-preview-off --preview-fps 0; then SMALL_OFF=$DEMO_RATE; else FAILED+=("bytes 80x24, preview off"); fi
unset COLS ROWS

verdict() { awk -v v="$1" -v t="$2" -v op="$3" 'BEGIN { ok = (op == "<=") ? v <= t : v < t; print ok ? "MET" : "MISSED" }'; }
rate() { awk -v b="$1" 'BEGIN {printf "%.1f kB/s (%.0f kbit/s)", b / 1000, b * 8 / 1000}'; }
row() { printf '%-50s %-26s %-10s %s\n' "$@"; }
# output_row WHAT BYTES_PER_SECOND [TARGET_BYTES]: a terminal-output row, judged when a target is given.
output_row() {
  local name="terminal output, onair demo $1" target="reported" result="REPORTED"
  if [ -n "${3:-}" ]; then target="<= $(($3 / 1000)) kB/s"; fi
  if [ -z "$2" ]; then row "$name" "-" "$target" "FAILED TO RUN"; return; fi
  if [ -n "${3:-}" ]; then result=$(verdict "$2" "$3" '<='); fi
  row "$name" "$(rate "$2")" "$target" "$result"
}

mkdir -p bench-results
{
  echo "console benchmark, release build, $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)"
  row measurement value target result
  if [ -n "$REDRAW_JSON" ]; then
    for stat in totalMeanMs totalP99Ms cpuMeanMs cpuP99Ms; do
      value=$(field "$stat")
      case $stat in
        totalMeanMs) name="full redraw 200x60, render+diff, wall mean" ;;
        totalP99Ms) name="full redraw 200x60, render+diff, wall p99" ;;
        cpuMeanMs) name="full redraw 200x60, render+diff, CPU mean" ;;
        cpuP99Ms) name="full redraw 200x60, render+diff, CPU p99" ;;
      esac
      row "$name" "$(printf '%.3f ms' "$value")" "<= 2 ms" "$(verdict "$value" 2 '<=')"
    done
  else
    row "full redraw 200x60" "-" "<= 2 ms" "FAILED TO RUN"
  fi
  if [ -n "$IDLE_PCT" ]; then
    row "idle CPU, onair subscribe (${IDLE_STATE:-?}), ${WINDOW} s" "$IDLE_PCT % of a core" "< 1 %" "$(verdict "$IDLE_PCT" 1 '<')"
  else
    row "idle CPU, onair subscribe" "-" "< 1 %" "FAILED TO RUN"
  fi
  output_row "160x48, preview on" "$PREVIEW_ON"
  output_row "160x48, preview off" "$PREVIEW_OFF"
  output_row "80x24, preview on" "$SMALL_ON" 10000
  output_row "80x24, preview off" "$SMALL_OFF"
  if [ -n "$REDRAW_JSON" ]; then
    echo "redraw detail: wall p50 $(field totalP50Ms) ms; CPU = the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), wall includes" \
      "preemption by whatever else runs; load average $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "  render mean $(field renderMeanMs) ms (p99 $(field renderP99Ms)), diff mean $(field diffMeanMs) ms" \
      "(p99 $(field diffP99Ms)), $(field changedCellsPerFrame) changed cells per frame, full-repaint diff $(field fullRepaintDiffMeanMs) ms," \
      "$(field iterations) frames"
  fi
} | tee bench-results/console.txt

if [ ${#FAILED[@]} -gt 0 ]; then
  echo "console bench: could not measure: ${FAILED[*]}" >&2
  exit 1
fi
