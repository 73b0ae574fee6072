#!/usr/bin/env bash
# Engine benchmark (DESIGN.md §5): CPU seconds per stream-second and peak RSS of OnAir's capture-and-encode
# engine against the ffmpeg CLI encoding the same 1280x720 30 fps Y4M clip with the same x264 settings
# (ultrafast, zerolatency, 2500k CBR with a 1 s VBV, 2 s GOP, no B-frames, same thread count) to -f null.
# Both run unpaced over the same number of frames; both are measured with /usr/bin/time -v.
#
# Environment: ONAIR_BENCH_SECONDS (stream seconds, default 20), ONAIR_BENCH_BUILD (release | debug,
# default release: the test bundle built with -enable-testing so @testable imports still link).
# Video only: the ffmpeg side has no live audio source to match, and AAC costs ~0.3 ms per 21 ms frame.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${ONAIR_BENCH_SECONDS:-20}"
build="${ONAIR_BENCH_BUILD:-release}"
frames=$((seconds * 30))
cores=$(nproc)
threads=$((cores - 1)); [ "$threads" -lt 1 ] && threads=1; [ "$threads" -gt 4 ] && threads=4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p bench-results

# A 2-second moving clip (testsrc2), looped by both sides: the same bytes reach both encoders.
ffmpeg -v error -f lavfi -i testsrc2=size=1280x720:rate=30 -frames:v 60 -pix_fmt yuv420p -y "$work/clip.y4m"

if [ "$build" = release ]; then
  swift build -c release --build-tests -Xswiftc -enable-testing >/dev/null
else
  swift build --build-tests >/dev/null
fi
bundle=".build/$build/OnAirPackageTests.xctest"

/usr/bin/time -v -o "$work/onair.time" env ONAIR_BENCH_Y4M="$work/clip.y4m" ONAIR_BENCH_SECONDS="$seconds" \
  "$bundle" --testing-library swift-testing --filter EngineBenchmark >"$work/onair.out" 2>&1 || {
  cat "$work/onair.out"; echo "engine benchmark failed"; exit 1; }
grep -q 'ONAIR_BENCH {' "$work/onair.out" || { cat "$work/onair.out"; echo "engine benchmark did not run"; exit 1; }

/usr/bin/time -v -o "$work/ffmpeg.time" ffmpeg -v error -nostdin -stream_loop -1 -i "$work/clip.y4m" -frames:v "$frames" \
  -c:v libx264 -preset ultrafast -tune zerolatency -b:v 2500k -minrate 2500k -maxrate 2500k -bufsize 2500k \
  -g 60 -bf 0 -threads "$threads" -f null - >"$work/ffmpeg.out" 2>&1

cpu() { awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {printf "%.2f", u + s}' "$1"; }
rss() { awk -F': ' '/Maximum resident set size/ {printf "%d", $2 / 1024}' "$1"; }
onair_cpu=$(cpu "$work/onair.time"); ffmpeg_cpu=$(cpu "$work/ffmpeg.time")
onair_rss=$(rss "$work/onair.time"); ffmpeg_rss=$(rss "$work/ffmpeg.time")
detail=$(sed -n 's/.*ONAIR_BENCH \({.*}\).*/\1/p' "$work/onair.out")
ratio=$(awk -v a="$onair_cpu" -v b="$ffmpeg_cpu" 'BEGIN {printf "%.2f", a / b}')
per() { awk -v c="$1" -v s="$seconds" 'BEGIN {printf "%.3f", c / s}'; }

printf '%-8s %10s %22s %12s\n' side cpu_s cpu_s_per_stream_s peak_rss_MiB
printf '%-8s %10s %22s %12s\n' onair "$onair_cpu" "$(per "$onair_cpu")" "$onair_rss"
printf '%-8s %10s %22s %12s\n' ffmpeg "$ffmpeg_cpu" "$(per "$ffmpeg_cpu")" "$ffmpeg_rss"
echo "ratio onair/ffmpeg CPU: $ratio (target <= 1.0); $frames frames 1280x720, x264 threads $threads, $build build"
echo "onair detail: $detail"
cat >bench-results/engine.json <<JSON
{"streamSeconds": $seconds, "frames": $frames, "threads": $threads, "build": "$build",
 "onair": {"cpuSeconds": $onair_cpu, "cpuPerStreamSecond": $(per "$onair_cpu"), "peakRssMiB": $onair_rss, "detail": $detail},
 "ffmpeg": {"cpuSeconds": $ffmpeg_cpu, "cpuPerStreamSecond": $(per "$ffmpeg_cpu"), "peakRssMiB": $ffmpeg_rss},
 "cpuRatio": $ratio}
JSON
