#!/usr/bin/env bash
# Several destinations (issue 30): what each more destination of one broadcast costs. The real `onair
# publish` (release binary) publishes the engine bench's 1280x720 30 fps Y4M clip (looped in real time) + a
# tone, 2500k CBR, AAC 128k, to 1, 2 and 3 destinations at once — each a stream of its own on one nginx-rtmp
# on loopback — for ONAIR_BENCH_SECONDS (default 20) each; ONAIR_BENCH_RUNS (default 3) runs per count,
# interleaved (1, 2, 3, 1, 2, 3, …), medians compared.
#
#  - CPU-seconds per stream-second from /usr/bin/time -v around the process; stream seconds are the video
#    frames really encoded / 30 (the `stopped` event). One encode feeds every destination (the fan-out copies
#    queue entries, not packets), so the aim is <= 1.1x of one destination's figure for 2 and 3.
#  - Every destination is checked: nginx's access log must show at least 70 % of the nominal bytes for each
#    one, so an output that failed cannot look cheap; each output's queue drops (the last `outputStats`)
#    are printed beside.
# Results: stdout and bench-results/outputs.txt. Exit 1 only if a run failed.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/bench.d/lib.sh
SECONDS_EACH=${ONAIR_BENCH_SECONDS:-20}
RUNS=${ONAIR_BENCH_RUNS:-3}
# ONAIR_BENCH_BINARY: another onair binary to measure, used as is, nothing built.
ONAIR=${ONAIR_BENCH_BINARY:-.build/release/onair}

bench_init outputs
bench_require ffmpeg nginx python3
bench_release_binary

ffmpeg -v error -nostdin -f lavfi -i testsrc2=size=1280x720:rate=30 -frames:v 60 -pix_fmt yuv420p -y "$BENCH_WORK/clip.y4m"
LOAD=$(cut -d" " -f1-3 /proc/loadavg)
bench_start_nginx
url="rtmp://127.0.0.1:$NGINX_PORT/live"

# run_outputs N RUN: publishes to N destinations; sets FRAMES, DROPS (per output, a/b/c) and RECEIVED (per output).
run_outputs() {
  local count=$1 run=$2 name="n${1}r${2}" urls=() k minimum bytes
  for k in $(seq 1 "$count"); do urls+=("$url/${name}d$k"); done
  /usr/bin/time -v -o "$BENCH_WORK/$name.time" "$ONAIR" publish "${urls[@]}" --video "$BENCH_WORK/clip.y4m" --audio test \
    --size 1280x720 --fps 30 --bitrate 2500k --audio-bitrate 128k --headless --duration "$SECONDS_EACH" \
    < /dev/null > "$BENCH_WORK/$name.jsonl" 2> "$BENCH_WORK/$name.err" \
    || { tail -5 "$BENCH_WORK/$name.jsonl" "$BENCH_WORK/$name.err"; bench_fail "onair publish to $count ($name) failed"; }
  read -r FRAMES DROPS < <(python3 - "$BENCH_WORK/$name.jsonl" "$count" <<'PY'
import json, sys
stopped, drops = {}, {}
for line in open(sys.argv[1]):
    try: event = json.loads(line)
    except ValueError: continue
    details = event.get("details", {})
    if event.get("kind") == "stopped": stopped = details
    if event.get("kind") == "outputStats": drops[details.get("output")] = details.get("droppedVideo", 0)
count = int(sys.argv[2])
print(stopped.get("framesEncoded", 0), "/".join(str(drops.get(k, "-")) for k in range(1, count + 1)) if count > 1 else "-")
PY
)
  minimum=$(( (2500000 + 128000) / 8 * SECONDS_EACH * 70 / 100 ))
  RECEIVED=""
  for k in $(seq 1 "$count"); do
    bytes=$(bench_published_bytes "${name}d$k")
    [ "$bytes" -ge "$minimum" ] || bench_fail "$name: destination $k received $bytes bytes, expected at least $minimum"
    RECEIVED+="${RECEIVED:+/}$bytes"
  done
}

declare -A per cpu frames received drops
for i in $(seq 1 "$RUNS"); do
  for n in 1 2 3; do
    run_outputs "$n" "$i"
    [ "$FRAMES" -gt 0 ] || bench_fail "n${n}r$i encoded no frames"
    t="$BENCH_WORK/n${n}r$i.time"
    frames[$n]+="$FRAMES "; cpu[$n]+="$(bench_cpu_seconds "$t") "; received[$n]+="$RECEIVED "; drops[$n]+="$DROPS "
    per[$n]+="$(awk -v c="$(bench_cpu_seconds "$t")" -v f="$FRAMES" 'BEGIN {printf "%.3f", c / (f / 30)}') "
  done
done
bench_stop_nginx

med() { bench_median $1; }
joined() { echo "$1" | xargs | tr ' ' ' '; }
one=$(med "${per[1]}")
ratio() { awk -v a="$(med "${per[$1]}")" -v b="$one" 'BEGIN {printf "%.2f", a / b}'; }
is() { awk "BEGIN {print ($1) ? 1 : 0}"; }
row() { printf '%-6s %-18s %-20s %-30s %-14s %s\n' "$@"; }
mkdir -p bench-results
{
  echo "outputs: one broadcast (1280x720 30 fps Y4M clip + tone, x264 ultrafast 2500k, AAC 128k) to 1, 2 and 3 destinations,"
  echo "each a stream on one nginx-rtmp (loopback); $RUNS runs per count of ${SECONDS_EACH} s, interleaved; $(nproc) cores, load average $LOAD"
  row dests frames cpu_s "cpu_s/stream_s (median)" "queue drops" "bytes nginx received per destination"
  for n in 1 2 3; do
    row "$n" "$(joined "${frames[$n]}" | tr ' ' /)" "$(joined "${cpu[$n]}" | tr ' ' /)" \
      "$(joined "${per[$n]}" | tr ' ' /) ($(med "${per[$n]}"))" "$(joined "${drops[$n]}")" "$(joined "${received[$n]}")"
  done
  for n in 2 3; do
    echo "CPU per stream-second, $n destinations / 1: $(ratio "$n")  aim <= 1.1: $(bench_verdict "$(is "$(ratio "$n") <= 1.1")")"
  done
  echo "queue drops: each output's droppedVideo in its last outputStats (a/b/c per run); bytes: per destination a/b/c per run"
} | tee bench-results/outputs.txt
