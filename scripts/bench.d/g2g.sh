#!/usr/bin/env bash
# Glass-to-glass benchmark (issue 13), one run: 1280x720 30 fps test pattern, capture instant → picture
# decoded by the same `onair subscribe`, through the embedded relay (`onair serve`) and through nginx-rtmp,
# with OnAir's publisher and with the ffmpeg CLI side by side.
#  - OnAir: `onair publish --video test` stamps each frame's capture instant (CLOCK_REALTIME) into the
#    frame marker (README, "Glass to glass").
#  - ffmpeg: sends a Y4M made by `onair pattern` with -re; its markers count from frame 0, so frame n is
#    due at ffmpeg's start + n/30 s. "ffmpeg's start" is when -re released frame 0, read from ffmpeg itself:
#    a no-op setpts filter prints each frame's wall clock (RTCTIME) as it enters the filter graph, and the
#    start is the least RTCTIME(n) - n/30 s over the first second. (Taken at the process launch instead, it
#    would charge ffmpeg its start-up — exec, probing, the RTMP connect: 200-360 ms here, constant.)
#    Encoder settings as OnAir's (libx264 ultrafast, zerolatency, 2500k, keyframe every 2 s; video only) —
#    the comparison the aim is judged on — and again as guides usually write it (-preset veryfast, no
#    -tune: x264's lookahead and B-frames), for reference.
# Figures: the subscriber's glassToGlassP50Ms/P99Ms over its last 300 pictures (10 s), from its last
# `stats` event after RUN seconds. Aim: OnAir's p99 ≤ 80 ms and at most half of ffmpeg's.
# Measured here (2 cores shared with 4 other builds, 2026-11-23, three runs; p50/p99 ms):
#   relay  onair 3.5/8.1, 3.5/9.2, 3.4/7.7   ffmpeg 8.5/14.6, 4.9/12.7, 8.8/21.1   ffmpeg veryfast 643.5/654.9, 640.4/655.5
#   nginx  onair 3.3/8.2, 3.8/17.2, 3.2/6.6  ffmpeg 9.3/82.5, 5.3/12.6, 8.8/19.3   ffmpeg veryfast 638.9/649.2, 639.3/645.8
# OnAir's p99 is always far under 80 ms; against ffmpeg with the same x264 settings it was under half in
# 3 of 6 server-runs (ffmpeg's -re pacing and muxer add 2-5 ms at the median), and under 2 % of ffmpeg as
# commonly run. The p99s move with the machine's load (a 17 ms or 82 ms p99 is one preempted frame).
# Results: stdout and bench-results/g2g.txt. Bounded: about 6 × (RUN + 3) s plus writing the Y4M.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/bench.d/lib.sh
ONAIR=${ONAIR:-.build/release/onair}
RUN=${G2G_BENCH_SECONDS:-16}
bench_init g2g
bench_require ffmpeg nginx python3
[ -x "$ONAIR" ] || bench_fail "$ONAIR missing; run make release"
LOAD=$(cut -d" " -f1-3 /proc/loadavg)
PATTERN="$BENCH_WORK/pattern.y4m"
"$ONAIR" pattern --out "$PATTERN" --size 1280x720 --fps 30 --seconds $((RUN + 6)) 2> "$BENCH_WORK/pattern.err" \
  || bench_fail "onair pattern failed: $(cat "$BENCH_WORK/pattern.err")"

# subscribe URL NAME [EPOCH]: the subscriber's last stats line, after RUN seconds.
subscribe() {
  local url=$1 name=$2 epoch=${3:-}
  local args=("$url" --headless --duration "$RUN")
  [ -n "$epoch" ] && args+=(--pattern-epoch "$epoch")
  "$ONAIR" subscribe "${args[@]}" < /dev/null > "$BENCH_WORK/$name.jsonl" 2> "$BENCH_WORK/$name.err" || true
  grep '"kind":"stats"' "$BENCH_WORK/$name.jsonl" | tail -1
}

# measure SERVER-LABEL SERVER-PORT: both publishers in turn on one server; one result line each.
measure() {
  local label=$1 port=$2 line epoch
  local base="rtmp://127.0.0.1:$port/live"
  bench_spawn "$ONAIR" publish "$base/onair" --video test --audio test --size 1280x720 --fps 30 \
    --bitrate 2500k --headless --duration $((RUN + 4)) < /dev/null > "$BENCH_WORK/pub-$label.jsonl" 2>&1
  local publisher=$BENCH_PID
  sleep 1
  line=$(subscribe "$base/onair" "sub-onair-$label")
  kill "$publisher" 2>/dev/null || true; wait "$publisher" 2>/dev/null || true
  echo "$label onair $line" >> "$BENCH_WORK/results"
  ffmpeg_run "$label" "$base" ffmpeg -preset ultrafast -tune zerolatency
  ffmpeg_run "$label" "$base" ffmpeg-default -preset veryfast
}

# ffmpeg_run SERVER-LABEL BASE-URL NAME X264-OPTIONS…: ffmpeg sends the Y4M; one result line.
ffmpeg_run() {
  local label=$1 base=$2 name=$3 line epoch
  shift 3
  bench_spawn ffmpeg -hide_banner -loglevel info -re -i "$PATTERN" -vf "setpts='PTS+0*print(RTCTIME)'" \
    -c:v libx264 "$@" -b:v 2500k -maxrate 2500k -bufsize 2500k -g 60 -pix_fmt yuv420p \
    -an -f flv "$base/$name" < /dev/null > "$BENCH_WORK/$name-$label.log" 2>&1
  local sender=$BENCH_PID
  sleep 1.5
  # RTCTIME lines are microseconds since the epoch, one per frame in order.
  epoch=$(awk '/^[0-9]+\.[0-9]+$/ && length($1) > 16 { t = $1 / 1e6 - n / 30; if (n == 0 || t < best) best = t; n++; if (n == 30) exit }
               END { if (n) printf "%.6f", best }' "$BENCH_WORK/$name-$label.log")
  [ -n "$epoch" ] || bench_fail "ffmpeg printed no frame times: $(tail -3 "$BENCH_WORK/$name-$label.log")"
  line=$(subscribe "$base/$name" "sub-$name-$label" "$epoch")
  kill "$sender" 2>/dev/null || true; wait "$sender" 2>/dev/null || true
  echo "$label $name $line" >> "$BENCH_WORK/results"
}

RELAY_PORT=$(bench_free_port)
bench_spawn "$ONAIR" serve --listen "127.0.0.1:$RELAY_PORT" --idle-timeout 0 --record-dir "$BENCH_WORK/rec" --headless \
  > "$BENCH_WORK/serve.log" 2>&1
RELAY_PID=$BENCH_PID
bench_wait_port "$RELAY_PORT" || bench_fail "onair serve did not start: $(tail -3 "$BENCH_WORK/serve.log")"
measure relay "$RELAY_PORT"
kill "$RELAY_PID" 2>/dev/null || true
bench_start_nginx
measure nginx "$NGINX_PORT"
bench_stop_nginx

mkdir -p bench-results
python3 - "$BENCH_WORK/results" "$LOAD" "$RUN" <<'PY' | tee bench-results/g2g.txt
import json, sys
path, load, run = sys.argv[1], sys.argv[2], sys.argv[3]
rows = {}
for line in open(path):
    server, publisher, rest = (line.rstrip("\n").split(" ", 2) + ["", ""])[:3]
    try:
        details = json.loads(rest)["details"]
    except (ValueError, KeyError):
        details = {}
    rows[(server, publisher)] = details
print(f"glass to glass: 1280x720 30 fps test pattern, 2500k ultrafast/zerolatency, loopback, {run} s per run; load average {load}")
print(f"{'server':8} {'publisher':14} {'p50 ms':>8} {'p99 ms':>8} {'frozen ms':>10} {'skipped':>8} {'last frame':>10} {'unreadable':>10}")
ok = True
for server in ("relay", "nginx"):
    for publisher in ("onair", "ffmpeg", "ffmpeg-default"):
        d = rows.get((server, publisher), {})
        cells = [d.get(k, "-") for k in ("glassToGlassP50Ms", "glassToGlassP99Ms", "frozenMs", "skippedFrames", "lastFrameNumber", "markersUnreadable")]
        print(f"{server:8} {publisher:14} " + " ".join(f"{str(c):>{w}}" for c, w in zip(cells, (8, 8, 10, 8, 10, 10))))
for server in ("relay", "nginx"):
    mine = rows.get((server, "onair"), {}).get("glassToGlassP99Ms")
    theirs = rows.get((server, "ffmpeg"), {}).get("glassToGlassP99Ms")
    if mine is None or theirs is None:
        print(f"{server}: no figure from one of the publishers (see the .jsonl files)")
        ok = False
        continue
    met = mine <= 80 and mine <= theirs / 2
    ok = ok and met
    default = rows.get((server, "ffmpeg-default"), {}).get("glassToGlassP99Ms", "-")
    print(f"{server}: OnAir p99 {mine} ms vs ffmpeg {theirs} ms with the same x264 settings ({default} ms with -preset veryfast, no tune);"
          f" aim p99 <= 80 ms and <= half of ffmpeg's (same settings): {'MET' if met else 'MISSED'}")
PY
