#!/usr/bin/env bash
# Publish throughput benchmark (issue 3), one run, OnAir and ffmpeg side by side into the same nginx-rtmp on
# loopback (no subscriber): how fast each pushes a pre-encoded FLV, unpaced. Target: OnAir >= ffmpeg.
#
#  - The FLV: 10 s of testsrc2 1280x720 30 fps with noise, x264 ultrafast at 50 Mbit/s + AAC 128k, looped
#    with -c copy to ONAIR_BENCH_PUBLISH_MB (default 1500) MB. Generated once per run, in a temp dir.
#  - ffmpeg: `ffmpeg -v error -i big.flv -c copy -f flv rtmp://…` (no -re); its time is the wall time of the
#    process. Its fixed cost (start-up, probing, connect, publish) is measured on a 0.5 s cut of the same file
#    and also subtracted, to give "ffmpeg net": the stricter figure the target is judged against.
#  - OnAir: the real RTMPPublisher + FLVFileReader, driven by a benchmark-only test in the release test bundle
#    (Tests/OnAirNetTests/PublishBenchmark.swift; there is no user-facing flag for it); its time runs from
#    opening the file to the connection closed, so it includes connect/publish but not process start-up.
#  - Both: Gbit/s = FLV file bytes × 8 / seconds; ONAIR_BENCH_RUNS runs each (default 3), interleaved, median.
#    Every run must exit 0 and nginx's access log must show the publisher delivered at least 95 % of the file,
#    so a failed publish cannot look fast. CPU seconds from /usr/bin/time -v (OnAir's include the test runner).
# The test bundle is built with -enable-testing under .build/bench (its own scratch path), so it never
# invalidates the plain release build of `make release`; the first build takes minutes, later ones seconds.
# Results: stdout and bench-results/publish.txt. Exit 1 only if a side failed to run.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/bench.d/lib.sh
MB=${ONAIR_BENCH_PUBLISH_MB:-1500}
RUNS=${ONAIR_BENCH_RUNS:-3}
SCRATCH=.build/bench
BUNDLE="$SCRATCH/release/OnAirPackageTests.xctest"

bench_init publish
bench_require ffmpeg ffprobe nginx python3

echo "building the release test bundle ($SCRATCH) ..."
swift build -c release --build-tests -Xswiftc -enable-testing --scratch-path "$SCRATCH" > "$BENCH_WORK/build.log" 2>&1 \
  || { tail -30 "$BENCH_WORK/build.log"; bench_fail "the release test bundle did not build"; }

echo "generating the FLV ..."
ffmpeg -v error -nostdin -f lavfi -i testsrc2=size=1280x720:rate=30 -f lavfi -i sine=frequency=440:sample_rate=48000 \
  -t 10 -vf noise=alls=30:allf=t -c:v libx264 -preset ultrafast -b:v 50M -maxrate 50M -bufsize 50M -g 60 -bf 0 \
  -pix_fmt yuv420p -c:a aac -b:a 128k -f flv -y "$BENCH_WORK/clip.flv"
clip_bytes=$(stat -c %s "$BENCH_WORK/clip.flv")
loops=$(( (MB * 1000000 + clip_bytes - 1) / clip_bytes ))
ffmpeg -v error -nostdin -stream_loop $((loops - 1)) -i "$BENCH_WORK/clip.flv" -c copy -f flv -y "$BENCH_WORK/big.flv"
ffmpeg -v error -nostdin -i "$BENCH_WORK/clip.flv" -t 0.5 -c copy -f flv -y "$BENCH_WORK/cut.flv"
rm "$BENCH_WORK/clip.flv"
bytes=$(stat -c %s "$BENCH_WORK/big.flv")
cat "$BENCH_WORK/big.flv" > /dev/null      # in the page cache for both sides

LOAD=$(cut -d" " -f1-3 /proc/loadavg)
bench_start_nginx
url="rtmp://127.0.0.1:$NGINX_PORT/live"

# Checks that nginx received at least $2 bytes from the publisher of live/$1; sets RECEIVED.
check_arrived() {
  RECEIVED=$(bench_published_bytes "$1")
  [ "$RECEIVED" -ge "$2" ] || bench_fail "$1: nginx received only $RECEIVED bytes, expected at least $2"
}

# run_ffmpeg NAME FILE: sets WALL (seconds) and CPU (CPU-seconds).
run_ffmpeg() {
  local name=$1 file=$2 t0 t1
  t0=$EPOCHREALTIME
  /usr/bin/time -v -o "$BENCH_WORK/$name.time" ffmpeg -v error -nostdin -i "$file" -c copy -f flv "$url/$name" \
    > "$BENCH_WORK/$name.log" 2>&1 || { cat "$BENCH_WORK/$name.log"; bench_fail "ffmpeg run $name failed"; }
  t1=$EPOCHREALTIME
  WALL=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.4f", b - a}')
  CPU=$(bench_cpu_seconds "$BENCH_WORK/$name.time")
}

# run_onair NAME: sets WALL (the test's timed span) and CPU (of the whole test process).
run_onair() {
  local name=$1 json
  /usr/bin/time -v -o "$BENCH_WORK/$name.time" env ONAIR_BENCH_FLV="$BENCH_WORK/big.flv" ONAIR_BENCH_URL="$url/$name" \
    "$BUNDLE" --testing-library swift-testing --filter PublishBenchmark > "$BENCH_WORK/$name.log" 2>&1 \
    || { tail -40 "$BENCH_WORK/$name.log"; bench_fail "OnAir run $name failed"; }
  json=$(sed -n 's/.*ONAIR_BENCH \({.*}\).*/\1/p' "$BENCH_WORK/$name.log")
  [ -n "$json" ] || { tail -40 "$BENCH_WORK/$name.log"; bench_fail "OnAir run $name printed no ONAIR_BENCH line (test skipped?)"; }
  echo "$json" > "$BENCH_WORK/$name.json"
  WALL=$(python3 -c 'import json,sys; print("%.4f" % json.load(sys.stdin)["seconds"])' < "$BENCH_WORK/$name.json")
  CPU=$(bench_cpu_seconds "$BENCH_WORK/$name.time")
}

gbps() { awk -v b="$bytes" -v s="$1" 'BEGIN {printf "%.2f", b * 8 / s / 1e9}'; }
minimum=$((bytes * 95 / 100))
cut_bytes=$(stat -c %s "$BENCH_WORK/cut.flv")
fixed=()
for i in $(seq 1 "$RUNS"); do
  run_ffmpeg "cut$i" "$BENCH_WORK/cut.flv"
  check_arrived "cut$i" $((cut_bytes * 95 / 100))
  fixed+=("$WALL")
done
ffmpeg_fixed=$(bench_median "${fixed[@]}")

ff_rates=(); ff_net=(); ff_cpu=(); ff_recv=(); oa_rates=(); oa_cpu=(); oa_recv=()
for i in $(seq 1 "$RUNS"); do
  run_ffmpeg "ffmpeg$i" "$BENCH_WORK/big.flv"
  check_arrived "ffmpeg$i" "$minimum"
  ff_recv+=("$RECEIVED"); ff_cpu+=("$CPU"); ff_rates+=("$(gbps "$WALL")")
  ff_net+=("$(gbps "$(awk -v w="$WALL" -v f="$ffmpeg_fixed" 'BEGIN {print w - f}')")")
  run_onair "onair$i"
  check_arrived "onair$i" "$minimum"
  oa_recv+=("$RECEIVED"); oa_cpu+=("$CPU"); oa_rates+=("$(gbps "$WALL")")
done
bench_stop_nginx

ff_median=$(bench_median "${ff_rates[@]}"); ff_net_median=$(bench_median "${ff_net[@]}"); oa_median=$(bench_median "${oa_rates[@]}")
ratio=$(awk -v a="$oa_median" -v b="$ff_median" 'BEGIN {printf "%.2f", a / b}')
ratio_net=$(awk -v a="$oa_median" -v b="$ff_net_median" 'BEGIN {printf "%.2f", a / b}')
met=$(awk -v r="$ratio_net" 'BEGIN {print (r >= 1.0) ? 1 : 0}')
prepare=$(python3 - "$BENCH_WORK"/onair*.json <<'PY'
import json, statistics, sys
print("%.2f" % statistics.median(json.load(open(p))["prepareSeconds"] for p in sys.argv[1:]))
PY
)
joined() { local IFS=/; echo "$*"; }
row() { printf '%-11s %-18s %7s  %-18s %s\n' "$@"; }
mkdir -p bench-results
{
  echo "publish throughput into nginx-rtmp, loopback, no subscriber: FLV of $((bytes / 1000000)) MB (1280x720 H.264 ~50 Mbit/s + AAC),"
  echo "unpaced, $RUNS runs each (interleaved); Gbit/s = file bytes x 8 / seconds; $(nproc) cores, load average $LOAD"
  row side "Gbit/s per run" median "CPU-s per run" "bytes nginx received per run"
  row ffmpeg "$(joined "${ff_rates[@]}")" "$ff_median" "$(joined "${ff_cpu[@]}")" "$(joined "${ff_recv[@]}")"
  row "ffmpeg net" "$(joined "${ff_net[@]}")" "$ff_net_median" "-" "(wall minus ffmpeg's ${ffmpeg_fixed} s fixed cost on a 0.5 s cut)"
  row onair "$(joined "${oa_rates[@]}")" "$oa_median" "$(joined "${oa_cpu[@]}")" "$(joined "${oa_recv[@]}")"
  echo "ratio onair/ffmpeg: $ratio; onair/ffmpeg net: $ratio_net (target >= 1.0 against ffmpeg net: $(bench_verdict "$met"))"
  echo "onair: timed from connect to closed, after an untimed ${prepare} s (median) turning the FLV into Annex-B packets;"
  echo "its CPU-s include that preparation and the test runner. RTMP chunk size 4096 on both sides."
  echo "onair detail (run 1): $(cat "$BENCH_WORK/onair1.json")"
} | tee bench-results/publish.txt
