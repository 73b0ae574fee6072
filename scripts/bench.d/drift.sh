#!/usr/bin/env bash
# A/V drift benchmark (issue 4: one monotonic clock for audio and video, drift under one frame over 10 minutes,
# AAC priming handled). Opt-in, because it takes ONAIR_BENCH_DRIFT_MINUTES (default 10) of real time:
# runs only with ONAIR_BENCH_DRIFT=1, otherwise prints that it was skipped.
#
# The release `onair publish` sends the test pattern + 440 Hz tone (640x360 30 fps 800k, AAC 128k; the size
# does not matter to timestamps) for the whole time into nginx-rtmp, which records the stream to FLV.
# ffprobe then lists every packet's timestamp, and per track:
#   span   = last timestamp - first timestamp (what the timestamps say elapsed)
#   media  = the media those packets carry: audio (packets - 1) x 1024 / 48000 s; video (frames - 1 +
#            skipped ticks) / 30 s, where a gap of g nominal frame intervals counts as g - 1 skipped ticks
#   slip   = span - media (how far the track's timestamps ran away from its own media)
# A/V drift = audio slip - video slip: how far apart the two tracks' clocks ended up over the run, in ms
# (FLV timestamps are whole milliseconds, so +/- 2 ms is the resolution). Target: |drift| < one frame (33.3 ms).
# Also printed: the A/V offset where the recording starts and ends, and the file's duration (ffprobe).
# ONAIR_BENCH_DRIFT_SECONDS overrides the length in seconds (a quick check of the script itself).
# Results: stdout and bench-results/drift.txt. Exit 1 only if the run itself failed.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/bench.d/lib.sh
MINUTES=${ONAIR_BENCH_DRIFT_MINUTES:-10}
DURATION=${ONAIR_BENCH_DRIFT_SECONDS:-$(( MINUTES * 60 ))}
if [ "${ONAIR_BENCH_DRIFT:-0}" != 1 ]; then
  echo "drift: skipped (it takes $MINUTES minutes; ONAIR_BENCH_DRIFT=1 runs it, ONAIR_BENCH_DRIFT_MINUTES sets the length)"
  exit 0
fi
ONAIR=.build/release/onair

bench_init drift
bench_require ffprobe nginx python3
swift build -c release --product onair > "$BENCH_WORK/build.log" 2>&1 \
  || { tail -30 "$BENCH_WORK/build.log"; bench_fail "the release binary did not build"; }
mkdir -p "$BENCH_WORK/rec"
NGINX_RECORD="record all; record_path $BENCH_WORK/rec; record_unique off;"
LOAD=$(cut -d" " -f1-3 /proc/loadavg)
bench_start_nginx
"$ONAIR" publish "rtmp://127.0.0.1:$NGINX_PORT/live/drift" --video test --audio test --size 640x360 --fps 30 \
  --bitrate 800k --audio-bitrate 128k --headless --duration "$DURATION" \
  < /dev/null > "$BENCH_WORK/onair.jsonl" 2> "$BENCH_WORK/onair.err" \
  || { tail -5 "$BENCH_WORK/onair.jsonl" "$BENCH_WORK/onair.err"; bench_fail "onair publish failed"; }
bench_stop_nginx
flv="$BENCH_WORK/rec/drift.flv"
[ -s "$flv" ] || bench_fail "nginx recorded nothing ($(tail -3 "$NGINX_PREFIX/error.log"))"
ffprobe -v error -show_entries packet=codec_type,pts -of csv=p=0 "$flv" > "$BENCH_WORK/packets.csv"
duration=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$flv")

mkdir -p bench-results
python3 - "$BENCH_WORK/packets.csv" "$DURATION" "$LOAD" "$duration" <<'PY' | tee bench-results/drift.txt
import sys
path, seconds, load, duration = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
video, audio = [], []
for line in open(path):
    fields = line.strip().split(",")
    if len(fields) < 2 or not fields[1].lstrip("-").isdigit(): continue
    kind, pts = fields[0], fields[1]
    (video if kind == "video" else audio if kind == "audio" else []).append(int(pts))
if len(video) < 2 or len(audio) < 2: sys.exit("drift: the recording lacks audio or video packets")
frame, aac = 1000 / 30, 1024 * 1000 / 48000
skipped = sum(max(0, round((b - a) / frame) - 1) for a, b in zip(video, video[1:]))
video_span, audio_span = video[-1] - video[0], audio[-1] - audio[0]
video_media, audio_media = (len(video) - 1 + skipped) * frame, (len(audio) - 1) * aac
video_slip, audio_slip = video_span - video_media, audio_span - audio_media
drift = audio_slip - video_slip
start_offset = audio[0] - video[0]
end_offset = (audio[-1] + aac) - (video[-1] + frame)
print(f"drift: {seconds} s of test pattern + tone (640x360 30 fps, AAC 48 kHz) -> nginx-rtmp record; load average {load}")
print(f"video: {len(video)} frames ({skipped} skipped ticks), timestamps span {video_span / 1000:.3f} s, media {video_media / 1000:.3f} s, slip {video_slip:+.1f} ms")
print(f"audio: {len(audio)} AAC packets, timestamps span {audio_span / 1000:.3f} s, media {audio_media / 1000:.3f} s, slip {audio_slip:+.1f} ms")
print(f"A/V offset (audio - video): at the start {start_offset:+d} ms, at the end {end_offset:+.1f} ms; file duration (ffprobe): {duration} s")
verdict = "MET" if abs(drift) < frame else "MISSED"
print(f"A/V drift over the run: {drift:+.1f} ms  target |drift| < 33.3 ms (one frame): {verdict}")
PY
