#!/usr/bin/env bash
# Relay benchmark (docs/design.md §5, issue 5), one run, `onair serve` and nginx-rtmp side by side:
#  1. fan-out: ffmpeg publishes 1280x720 30 fps x264 2500k + AAC 128k (-re); 100 players on loopback;
#     CPU of the server process (utime+stime from /proc) over a fixed window → cores; target ratio ≤ 1.0.
#  2. hop latency: a publisher stamps each (fake, keyframe-flagged) video message with CLOCK_MONOTONIC
#     nanoseconds; a player in the same process reads the stamp when the message arrives through the
#     server; median and p90 of 300 frames at 30 fps. Video, not a data message, because nginx-rtmp drops
#     custom data messages (docs/interop-notes.md). Target: median ≤ 0.7 ms (nginx measured 0.7 ms).
# Players are a small asyncio RTMP client (handshake, connect, createStream, play, acknowledgements; it
# counts bytes without parsing chunks), so that 100 of them cost far less CPU than 100 rtmpdump processes.
# Results: stdout and bench-results/relay.txt. Bounded: about 90 s.
# Measured here (2 cores shared with other builds, 2026-11-22): before issue 5's work onair 0.067-0.068 core vs
# nginx 0.042-0.043 (ratio 1.56-1.62); after (one batched write per player per burst, audio-only bursts merged
# into the next video frame's write, --audio-merge-ms 40) 0.040-0.043 vs 0.041-0.044, ratio 0.93-1.00 over
# three runs; with --audio-merge-ms 0, ratio 1.40-1.46. Hop latency median 0.44-0.49 ms vs nginx 0.38-0.40 ms.
# What is left is NIO's per-write path (pipeline, pending-writes queue, flush) and the kernel's loopback TCP
# (about two thirds of onair's CPU, as for nginx): one write(2) per player per video frame.
# Measured 2026-11-27 (issue 31, 2 cores, load average 2.3-4.5): merge 0 ratio 1.48 (main's code) / 1.54 (this
# branch, same relay write path), default merge 1.04 / 1.04; --no-tcp-nodelay 1.57: Nagle is not what makes
# nginx cheaper. perf: most samples in the kernel (loopback TCP), then NIO's per-write path, retain/release.
# Issue 31, direct writes (docs/relay-direct-writes.md: a player's bytes go to its socket with send(2) while NIO
# holds none of them), measured 2026-11-27 on 2 shared cores, before/after in alternation, same-run nginx:
# merge 0 ratio 1.39 / 1.52 / 1.59 before, 1.07 / 1.20 / 1.13 after (and 1.17 in a full run); default merge
# 0.97 / 1.22 / 1.26 before, 0.83 / 0.83 / 0.83 after (0.86 full run); load average 2.9-8.4. perf (15 s at merge
# 0): user space 0.29 -> 0.14 CPU-s, kernel 0.55 -> 0.53 (nginx's whole worker 0.65, its kernel 0.55): what is
# left is loopback TCP, where nginx's Nagle merges the audio it sends behind an unacknowledged video frame.
# Issue 31, armed players (docs/relay-direct-writes.md: a player that keeps up is sent each batch from a slot
# in one array, without touching its player object or handler), 2026-11-27, 2 shared cores, load 1.0-5.4,
# before/after/nginx interleaved, 20 s windows: merge 0 before 0.032/0.036/0.036 core, after 0.032/0.033/0.030,
# nginx 0.027/0.033/0.029 (ratio after 1.19/1.00/1.03, before 1.19/1.09/1.24); default merge after
# 0.025/0.025/0.024 (0.93/0.76/0.83 of nginx), before 0.025/0.028/0.026. Hop latency median after
# 0.302/0.328/0.329 ms, before 0.337/0.342/0.380, nginx 0.276/0.301/0.279. perf at merge 0 (20 s, 4999 Hz):
# deliverPending with its retains 350 -> ~50 samples; what is left is the kernel's loopback TCP (as much as
# nginx's, for as many send(2) calls) and NIO's read path; per message the relay spends ~75 us from epoll
# wake to send(2) (syscall tracepoints) where nginx spends ~35 us, which is the hop-latency gap. Full run
# (this script, load 2.7-3.1): merge 0 ratio 1.10, default 0.90, --no-tcp-nodelay 1.03, latency 0.323 vs 0.277 ms.
# perf stat, 15 s each at merge 0: onair 72,900 send(2) and 478 ms CPU, nginx 160,600 send(2) (smaller
# writes) and 470 ms: onair's kernel time per byte, not its number of calls, is what is left to explain.
# Issue 31: the fan-out runs twice for onair, at --audio-merge-ms 0 (every message leaves when it arrives, as
# nginx-rtmp sends) and at the default merge window, both against the same nginx run, and a third, short
# onair run at --audio-merge-ms 0 is sampled with perf (lib.sh's bench_perf_top) for its top frames.
# Issue 31, session 10 (docs/relay-direct-writes.md, "Where the kernel's work lands"), 2026-11-27, 2 shared cores,
# load 2-8.5, five full runs of this script (before = the armed fan-out, after = one stream look-up per
# message; the same within noise): merge 0 ratio 0.95/0.85/1.03 before, 1.03/1.06 after; default merge
# 0.68/0.70/0.79 before, 0.76/0.75 after; hop latency median onair 0.336/0.341/0.332 before, 0.340/0.363 after
# vs nginx 0.292/0.331/0.308/0.259/0.382 ms. The players' CPU is about twice as high with nginx (0.17-0.21 core vs
# 0.05-0.10 at merge 0) and nginx's sockets take one ACK per segment (139,000 vs 53,000-68,000 in 20 s):
# nginx-rtmp sends each 4096-byte chunk with Nagle on, so the rest of a frame leaves from the player's process
# when its ACK arrives, and loopback TCP does the receiver's work in the transmitter's process; perf stat
# counts about half of nginx's segments transmitted in its worker, all of onair's in onair. The server-CPU
# ratio compares those two shares; the players' CPU and segment lines below are printed for that reason.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/bench.d/lib.sh
ONAIR=${ONAIR:-.build/release/onair}
# Extra `onair serve` options, e.g. RELAY_BENCH_SERVE_ARGS="--audio-merge-ms 0" to measure without merged audio.
SERVE_ARGS=${RELAY_BENCH_SERVE_ARGS:-}
PLAYERS=${RELAY_BENCH_PLAYERS:-100}
WARMUP=${RELAY_BENCH_WARMUP:-6}
WINDOW=${RELAY_BENCH_WINDOW:-20}
[ -x "$ONAIR" ] || { echo "relay bench: $ONAIR missing; run make release" >&2; exit 1; }
for tool in ffmpeg nginx python3; do
  command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || { echo "relay bench: $tool is not installed" >&2; exit 1; }
done

WORK=$(mktemp -d /tmp/onair-relay-bench.XXXXXX)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  sleep 0.5
  for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

# Where the servers listen and the players connect: loopback, or (the link section below) the server's end of a
# veth pair whose other end is in a network namespace of the players' own (PLAYERS_NS).
HOST=127.0.0.1
PLAYERS_NS=""
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 1 200); do (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null && return 0; sleep 0.05; done; echo "relay bench: nothing on port $1" >&2; return 1; }
# Runs the players' script where the players are, in place of the calling shell, so that `players … &` leaves
# the script's own process in `$!` (its CPU is read from /proc): call it in the background or a subshell.
players() { if [ -n "$PLAYERS_NS" ]; then exec ip netns exec "$PLAYERS_NS" env BENCH_HOST="$HOST" python3 "$WORK/players.py" "$@"; else exec python3 "$WORK/players.py" "$@"; fi; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# The server's sockets on PORT (its players and publisher), summed from the kernel's per-socket counters
# (`ss -ti`): "data_segments_out segments_in retransmitted_segments". Per socket, so other loopback traffic
# on the machine does not count; deltas over the window say how the kernel's work was split (issue 31).
tcp_totals() {
  ss -tin state established "( sport = :$1 )" | awk '
    { for (i = 1; i <= NF; i++) { split($i, kv, ":")
        if (kv[1] == "data_segs_out") d += kv[2]; else if (kv[1] == "segs_in") n += kv[2]
        else if (kv[1] == "retrans") { split(kv[2], r, "/"); x += r[2] } } }
    END { printf "%d %d %d\n", d, n, x }'
}
TICKS=$(getconf CLK_TCK)

cat > "$WORK/players.py" <<'PY'
import asyncio, os, struct, sys, time, statistics
HOST = os.environ.get("BENCH_HOST", "127.0.0.1")

def s(x): b = x.encode(); return b"\x02" + struct.pack(">H", len(b)) + b
def n(x): return b"\x00" + struct.pack(">d", x)
NULL = b"\x05"
def obj(fields):
    out = b"\x03"
    for k, v in fields.items():
        kb = k.encode(); out += struct.pack(">H", len(kb)) + kb + v
    return out + b"\x00\x00\x09"

def chunks(csid, ts, typ, msid, payload, size):
    out = bytearray([csid]) + ts.to_bytes(3, "big") + len(payload).to_bytes(3, "big") + bytes([typ]) + struct.pack("<I", msid)
    for i in range(0, max(len(payload), 1), size):
        if i: out.append(0xC0 | csid)
        out += payload[i:i + size]
    return bytes(out)

async def session(port, name):
    r, w = await asyncio.open_connection(HOST, port)
    w.write(b"\x03" + bytes(1536)); await w.drain()
    hello = await r.readexactly(1 + 2 * 1536)
    w.write(hello[1:1537])
    w.write(chunks(3, 0, 20, 0, s("connect") + n(1) + obj({"app": s("live"), "tcUrl": s(f"rtmp://{HOST}:{port}/live"),
            "flashVer": s("LNX 9,0,124,2"), "capabilities": n(15)}), 128))
    w.write(chunks(3, 0, 20, 0, s("createStream") + n(2) + NULL, 128))
    return r, w

async def play(port, name, on_bytes):
    r, w = await session(port, name)
    w.write(chunks(8, 0, 20, 1, s("play") + n(0) + NULL + s(name) + n(-2), 128)); await w.drain()
    total = acked = 0
    while True:
        data = await r.read(1 << 16)
        if not data: return total
        total += len(data)
        on_bytes(data)
        if total - acked >= 2_000_000:
            acked = total
            w.write(chunks(2, 0, 3, 0, struct.pack(">I", total & 0xFFFFFFFF), 128))

async def fanout(port, name, players, seconds):
    counts = [0] * players
    def counter(i):
        def add(data): counts[i] += len(data)
        return add
    tasks = [asyncio.create_task(play(port, name, counter(i))) for i in range(players)]
    await asyncio.sleep(seconds)
    for t in tasks: t.cancel()
    print(sum(counts), min(counts))

SPS = bytes.fromhex("6742c01e95a0a0fd0080")
PPS = bytes.fromhex("68ce3c80")

async def latency(port, name, frames):
    samples, tail = [], bytearray()
    def on_bytes(data):
        now = time.monotonic_ns()
        buf = bytes(tail) + data
        i = buf.find(b"LAT:")
        while i >= 0 and i + 12 <= len(buf):
            samples.append((now - struct.unpack(">Q", buf[i + 4:i + 12])[0]) / 1e6)
            i = buf.find(b"LAT:", i + 12)
        keep = buf[i:] if i >= 0 else buf[-3:]
        tail[:] = keep
    player = asyncio.create_task(play(port, name, on_bytes))
    await asyncio.sleep(0.5)
    r, w = await session(port, name)
    w.write(chunks(2, 0, 1, 0, struct.pack(">I", 4096), 128))
    w.write(chunks(8, 0, 20, 1, s("publish") + n(0) + NULL + s(name) + s("live"), 4096)); await w.drain()
    seen = b""
    while b"NetStream.Publish.Start" not in seen: seen += await r.read(4096)
    avcc = bytes([1, 0x42, 0xC0, 0x1E, 0xFF, 0xE1]) + struct.pack(">H", len(SPS)) + SPS + b"\x01" + struct.pack(">H", len(PPS)) + PPS
    w.write(chunks(6, 0, 9, 1, b"\x17\x00\x00\x00\x00" + avcc, 4096)); await w.drain()
    start = time.monotonic()
    for k in range(frames):
        await asyncio.sleep(max(0, start + k / 30 - time.monotonic()))
        body = b"\x17\x01\x00\x00\x00" + b"LAT:" + struct.pack(">Q", time.monotonic_ns()) + bytes(300)
        w.write(chunks(6, int(k * 1000 / 30), 9, 1, body, 4096)); await w.drain()
    await asyncio.sleep(0.5)
    player.cancel(); w.close()
    kept = samples[30:]
    if not kept: print("nan nan 0"); return
    kept.sort()
    print(f"{statistics.median(kept):.3f} {kept[int(len(kept) * 0.9)]:.3f} {len(kept)}")

mode, port, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if mode == "fanout": asyncio.run(fanout(port, name, int(sys.argv[4]), float(sys.argv[5])))
else: asyncio.run(latency(port, name, int(sys.argv[4])))
PY

start_onair() {
  local port=$1
  # Off loopback `onair serve` takes publishers with a key only, and the 100 players share one address.
  local remote=()
  [ "$HOST" = 127.0.0.1 ] || remote=(--publish-key bench --max-connections-per-address 1000)
  "$ONAIR" serve --listen "$HOST:$port" "${remote[@]}" --idle-timeout 0 --record-dir "$WORK/rec" --headless $SERVE_ARGS $MERGE_ARGS > "$WORK/onair-$port.log" 2>&1 &
  PIDS+=($!); SERVER_PID=$!
  wait_port "$port"
}

start_nginx() {
  local port=$1 prefix="$WORK/nginx-$1"
  mkdir -p "$prefix"
  cat > "$prefix/nginx.conf" <<CONF
load_module /usr/lib/nginx/modules/ngx_rtmp_module.so;
user root;
worker_processes 1;
pid $prefix/nginx.pid;
error_log $prefix/error.log warn;
events { worker_connections 1024; }
rtmp { server { listen $HOST:$port; chunk_size 4096;
  application live { live on; record off; publish_notify on; } } }
CONF
  nginx -p "$prefix" -c "$prefix/nginx.conf" -e "$prefix/error.log" -g 'daemon off;' &
  PIDS+=($!)
  wait_port "$port"
  SERVER_PID=$(pgrep -P "$!" | head -1)     # the worker does the RTMP work
}

# onair serve stops on SIGINT, nginx gracefully on SIGQUIT.
stop_server() {
  if [ "$1" = onair ]; then kill -INT "$2" 2>/dev/null || true; else kill -QUIT "$2" 2>/dev/null || true; fi
  wait "$2" 2>/dev/null || true
}

# fanout SERVER [LABEL] → $WORK/fanout-result-LABEL: "cores delivered_bytes slowest_player_bytes";
# with PROFILE_OUT set, the window is sampled by perf instead of measured (no result file).
fanout() {
  local server_kind=$1 label=${2:-$1} port; port=$(free_port)
  "start_$server_kind" "$port"
  local server=$SERVER_PID top=$!
  local seconds=$((WARMUP + WINDOW + 2))
  ffmpeg -nostdin -loglevel error -re -f lavfi -i testsrc=size=1280x720:rate=30 -f lavfi -i sine \
    -c:v libx264 -preset ultrafast -tune zerolatency -b:v 2500k -maxrate 2500k -bufsize 5000k -g 60 \
    -c:a aac -b:a 128k -t $((seconds + 2)) -f flv "rtmp://$HOST:$port/live/bench$([ "$HOST" = 127.0.0.1 ] || echo '?key=bench')" > "$WORK/ffmpeg-$label.log" 2>&1 &
  PIDS+=($!)
  sleep 1
  players fanout "$port" bench "$PLAYERS" "$seconds" > "$WORK/fanout-$label.txt" &
  local players=$!
  PIDS+=("$players")
  sleep "$WARMUP"
  if [ -n "${PROFILE_OUT:-}" ]; then
    BENCH_PERF_KEEP="$PROFILE_OUT.samples" bench_perf_top "$server" "$WINDOW" "$PROFILE_OUT" 14
    if [ -s "$PROFILE_OUT.samples" ]; then
      perf script -i "$PROFILE_OUT.samples" -F comm,ip,sym,dso 2> /dev/null | awk -f scripts/bench.d/relay-split.awk > "$PROFILE_OUT.split"
      rm -f "$PROFILE_OUT.samples"
    fi
    wait "$players"
    stop_server "$server_kind" "$top"
    return 0
  fi
  local t0 p0 s0; t0=$(cpu_ticks "$server"); p0=$(cpu_ticks "$players"); s0=$(tcp_totals "$port")
  sleep "$WINDOW"
  local t1 p1 s1; t1=$(cpu_ticks "$server"); p1=$(cpu_ticks "$players"); s1=$(tcp_totals "$port")
  wait "$players"
  stop_server "$server_kind" "$top"
  read -r bytes minimum < "$WORK/fanout-$label.txt"
  local cores="awk -v hz=$TICKS -v w=$WINDOW"
  echo "$($cores -v a="$t0" -v b="$t1" 'BEGIN{printf "%.4f", (b-a)/hz/w}') $bytes $minimum" \
    "$($cores -v a="$p0" -v b="$p1" 'BEGIN{printf "%.4f", (b-a)/hz/w}')" \
    "$(awk -v a="$s0" -v b="$s1" 'BEGIN{split(a, x, " "); split(b, y, " "); printf "%d %d %d", y[1]-x[1], y[2]-x[2], y[3]-x[3]}')" \
    > "$WORK/fanout-result-$label"
}

# The server's CPU in nanoseconds, exact (the scheduler's run time of each of its threads; ticks are 10 ms).
cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{s += $1} END {printf "%d", s}'; }

# latency SERVER [LABEL] → $WORK/latency-result-LABEL: "median_ms p90_ms frames cpu_us_per_message"; the CPU is
# the server's over the whole probe (both sessions, 330 messages), per message.
latency() {
  local server_kind=$1 label=${2:-$1} port; port=$(free_port)
  "start_$server_kind" "$port"
  local top=$! server=$SERVER_PID before after result
  before=$(cpu_ns "$server")
  result=$(python3 "$WORK/players.py" latency "$port" probe 330)
  after=$(cpu_ns "$server")
  echo "$result $(awk -v a="$before" -v b="$after" 'BEGIN{printf "%.1f", (b - a) / 1000 / 330}')" > "$WORK/latency-result-$label"
  stop_server "$server_kind" "$top"
}

# hop_path SERVER → $WORK/hop-path-SERVER: one more hop probe with the server's system calls traced (perf's
# raw_syscalls tracepoints), read by hop-syscalls.awk into the three gaps of each relayed message: where the
# hop's time goes inside each server (tracing adds its own cost to every gap, on both servers alike).
hop_path() {
  local server_kind=$1 port; port=$(free_port)
  "start_$server_kind" "$port"
  local top=$! server=$SERVER_PID data="$WORK/hop-path-$1.data"
  perf record -q -e raw_syscalls:sys_enter,raw_syscalls:sys_exit -p "$server" -o "$data" -- sleep 14 > /dev/null 2>&1 &
  local recorder=$!
  python3 "$WORK/players.py" latency "$port" probe 330 > /dev/null
  if wait "$recorder" && [ -s "$data" ]; then
    perf script -i "$data" -F tid,time,event,trace 2> /dev/null | awk -f scripts/bench.d/hop-syscalls.awk > "$WORK/hop-path-$1"
  fi
  rm -f "$data"
  stop_server "$server_kind" "$top"
}

LOAD=$(cut -d" " -f1-3 /proc/loadavg)
# RELAY_BENCH_ROUNDS rounds (default 3), each: onair at --audio-merge-ms 0, nginx, onair at the default merge,
# then the hop-latency probe through onair and through nginx. One window of a side moves by ±10 % between runs
# on a shared machine, so every figure below is the median of the rounds, the ratios are printed per round too
# (onair's window against the nginx window of the same round), and a verdict is read off the medians.
ROUNDS=${RELAY_BENCH_ROUNDS:-3}
for round in $(seq 1 "$ROUNDS"); do
  MERGE_ARGS="--audio-merge-ms 0" fanout onair "onair0-$round"
  fanout nginx "nginx-$round"
  MERGE_ARGS="" fanout onair "onair-$round"
  MERGE_ARGS="--audio-merge-ms 0" latency onair "onair-$round"
  latency nginx "nginx-$round"
done
MERGE_ARGS="--audio-merge-ms 0" hop_path onair
hop_path nginx
# nginx-rtmp leaves Nagle on for its players (it never sets TCP_NODELAY); onair sets it unless --no-tcp-nodelay.
# (Skipped for a binary without the option, e.g. a baseline build given as ONAIR.)
NAGLE=0; [ "$("$ONAIR" serve --help 2>/dev/null | grep -c -- --no-tcp-nodelay)" -gt 0 ] && NAGLE=1
[ "$NAGLE" = 1 ] && MERGE_ARGS="--audio-merge-ms 0 --no-tcp-nodelay" fanout onair onair0nagle
[ "$NAGLE" = 1 ] && MERGE_ARGS="--audio-merge-ms 0 --no-tcp-nodelay" latency onair onair0nagle
# Both servers sampled by perf at merge 0, for the top frames and the split of the kernel's work.
PROFILE_WINDOW=${RELAY_BENCH_PROFILE_WINDOW:-8}
MERGE_ARGS="--audio-merge-ms 0" PROFILE_OUT="$WORK/profile" WINDOW=$PROFILE_WINDOW fanout onair profile
PROFILE_OUT="$WORK/profile-nginx" WINDOW=$PROFILE_WINDOW fanout nginx profile-nginx

# The fan-out again with the players behind a 1500-byte-MTU link: a veth pair into a network namespace of their
# own (root only). Loopback's 64 KiB MTU carries a whole video frame in one segment, so it hides what each packet
# costs a sender; every real network carries 1500 bytes a packet. The publisher stays on loopback.
LINK_ROUNDS=0
if [ "${RELAY_BENCH_LINK:-1}" = 1 ] && [ "$(id -u)" = 0 ] && command -v ip > /dev/null; then
  LINK_NS="onair-bench-$$" LINK_DEV="obr$$"
  link_down() { ip netns del "$LINK_NS" 2> /dev/null || true; ip link del "${LINK_DEV}a" 2> /dev/null || true; }
  trap 'cleanup; link_down' EXIT
  if ip netns add "$LINK_NS" && ip link add "${LINK_DEV}a" type veth peer name "${LINK_DEV}b" \
    && ip link set "${LINK_DEV}b" netns "$LINK_NS" && ip addr add 10.231.0.1/30 dev "${LINK_DEV}a" && ip link set "${LINK_DEV}a" up \
    && ip -n "$LINK_NS" addr add 10.231.0.2/30 dev "${LINK_DEV}b" && ip -n "$LINK_NS" link set "${LINK_DEV}b" up \
    && ip -n "$LINK_NS" link set lo up; then
    HOST=10.231.0.1 PLAYERS_NS=$LINK_NS LINK_ROUNDS=$ROUNDS
    for round in $(seq 1 "$ROUNDS"); do
      MERGE_ARGS="--audio-merge-ms 0" fanout onair "link-onair0-$round"
      fanout nginx "link-nginx-$round"
      MERGE_ARGS="" fanout onair "link-onair-$round"
    done
    HOST=127.0.0.1 PLAYERS_NS=""
  else
    echo "relay bench: could not make a veth pair into a network namespace; the 1500-MTU section is skipped" >&2
  fi
  link_down
fi

# column N of every round's result file for LABEL, space-separated
rounds_of() { local label=$1 column=$2 round; for round in $(seq 1 "$ROUNDS"); do awk -v c="$column" '{print $c}' "$WORK/$label-$round"; done | xargs; }
median_of() { bench_median $(rounds_of "$1" "$2"); }
# per-round ratios A/B of column 1 of two labels, "r1/r2/r3"
round_ratios() {
  local round out=""
  for round in $(seq 1 "$ROUNDS"); do
    out="$out${out:+/}$(awk -v a="$(awk '{print $1}' "$WORK/$1-$round")" -v b="$(awk '{print $1}' "$WORK/$2-$round")" 'BEGIN{ if (b > 0) printf "%.2f", a/b; else print "n/a" }')"
  done
  echo "$out"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b > 0) printf "%.2f", a/b; else print "n/a" }'; }
at_most() { awk -v a="$1" -v b="$2" 'BEGIN{ print (a <= b) ? 1 : 0 }'; }
below() { awk -v a="$1" -v b="$2" 'BEGIN{ print (a < b) ? 1 : 0 }'; }

onair0_cpu=$(median_of fanout-result-onair0 1); onair_cpu=$(median_of fanout-result-onair 1); nginx_cpu=$(median_of fanout-result-nginx 1)
onair0_pcpu=$(median_of fanout-result-onair0 4); onair_pcpu=$(median_of fanout-result-onair 4); nginx_pcpu=$(median_of fanout-result-nginx 4)
onair0_bytes=$(median_of fanout-result-onair0 2); onair_bytes=$(median_of fanout-result-onair 2); nginx_bytes=$(median_of fanout-result-nginx 2)
onair0_min=$(median_of fanout-result-onair0 3); onair_min=$(median_of fanout-result-onair 3); nginx_min=$(median_of fanout-result-nginx 3)
onair0_median=$(median_of latency-result-onair 1); onair0_p90=$(median_of latency-result-onair 2)
nginx_median=$(median_of latency-result-nginx 1); nginx_p90=$(median_of latency-result-nginx 2)
ratio0=$(ratio "$onair0_cpu" "$nginx_cpu"); ratio_default=$(ratio "$onair_cpu" "$nginx_cpu")
nagle_cpu=n/a nagle_median=n/a nagle_p90=n/a
if [ "$NAGLE" = 1 ]; then
  read -r nagle_cpu _ < "$WORK/fanout-result-onair0nagle"
  read -r nagle_median nagle_p90 _ < "$WORK/latency-result-onair0nagle"
fi
segments() { echo "$(median_of "fanout-result-$1" 5) / $(median_of "fanout-result-$1" 6) / $(median_of "fanout-result-$1" 7)"; }

mkdir -p bench-results
{
  echo "relay fan-out, $PLAYERS players, 1280x720 30 fps 2.5 Mbit/s (ffmpeg -re), ${WINDOW} s windows, medians of $ROUNDS interleaved rounds; load average $LOAD:"
  echo "  --audio-merge-ms 0 (nginx's latency): onair serve $onair0_cpu core vs nginx-rtmp worker $nginx_cpu core   ratio $ratio0 (rounds $(round_ratios fanout-result-onair0 fanout-result-nginx))" \
    " target <= 1.0: $(bench_verdict "$(at_most "$ratio0" 1.0)") ($(bench_rounds_met "<=" 1.0 "$(round_ratios fanout-result-onair0 fanout-result-nginx)") met it), aim 0.8"
  echo "  default merge window:                 onair serve $onair_cpu core vs nginx-rtmp worker $nginx_cpu core   ratio $ratio_default (rounds $(round_ratios fanout-result-onair fanout-result-nginx))" \
    " target < 0.80: $(bench_verdict "$(below "$ratio_default" 0.80)") ($(bench_rounds_met "<" 0.80 "$(round_ratios fanout-result-onair fanout-result-nginx)") met it)"
  [ "$NAGLE" = 1 ] && echo "  --audio-merge-ms 0 --no-tcp-nodelay:  onair serve $nagle_cpu core (one window)   ratio $(ratio "$nagle_cpu" "$nginx_cpu") (Nagle on, as nginx-rtmp)"
  echo "  delivered at merge 0: onair $((${onair0_bytes%.*} / 1000000)) MB (slowest player $((${onair0_min%.*} / 1000)) kB)"
  echo "  delivered: onair $((${onair_bytes%.*} / 1000000)) MB (slowest player $((${onair_min%.*} / 1000)) kB), nginx $((${nginx_bytes%.*} / 1000000)) MB (slowest player $((${nginx_min%.*} / 1000)) kB)"
  # The two servers do not deliver exactly the same bytes in the window (a lagging nginx player gets less),
  # so the cost per byte delivered is shown too; the target is judged on the plain ratio above.
  echo "  CPU per delivered byte onair/nginx: $(awk -v a="$onair_cpu" -v ab="$onair_bytes" -v b="$nginx_cpu" -v bb="$nginx_bytes" 'BEGIN{ if (b > 0 && ab > 0 && bb > 0) printf "%.2f", (a/ab)/(b/bb); else print "n/a" }') (reported)"
  # Loopback TCP does the receiver's work in the sender's process when the sender transmits, and in the
  # player's when a player's ACK releases data the sender's Nagle held back (nginx-rtmp writes each chunk
  # with Nagle on): the players' CPU and the segment counts show where the kernel's work went.
  echo "  players' CPU (their process, same window): onair merge 0 $onair0_pcpu, default $onair_pcpu, nginx $nginx_pcpu core;" \
    "server + players at merge 0: onair $(awk -v a="$onair0_cpu" -v b="$onair0_pcpu" 'BEGIN{printf "%.4f", a+b}') vs nginx $(awk -v a="$nginx_cpu" -v b="$nginx_pcpu" 'BEGIN{printf "%.4f", a+b}')" \
    "(ratio $(ratio "$(awk -v a="$onair0_cpu" -v b="$onair0_pcpu" 'BEGIN{print a+b}')" "$(awk -v a="$nginx_cpu" -v b="$nginx_pcpu" 'BEGIN{print a+b}')"))"
  echo "  TCP over the window (server's sockets): data segments out / segments in / retransmitted:" \
    "onair merge 0 $(segments onair0), default $(segments onair), nginx $(segments nginx)"
  if [ -s "$WORK/profile.split" ] && [ -s "$WORK/profile-nginx.split" ]; then
    read -r o_total o_send o_peers o_acks o_user o_other < "$WORK/profile.split"
    read -r n_total n_send n_peers n_acks n_user n_other < "$WORK/profile-nginx.split"
    share() { awk -v a="$1" -v t="$2" 'BEGIN{ if (t > 0) printf "%.1f %%", 100*a/t; else print "n/a" }'; }
    # Samples at the same rate over the same window: counts compare as CPU time.
    echo "  where each server's CPU goes at merge 0 (perf samples, ${PROFILE_WINDOW} s each, onair / nginx; relay-split.awk):"
    echo "    send path (sendto .. device queue)       $o_send / $n_send   ($(share "$o_send" "$o_total") / $(share "$n_send" "$n_total"))"
    echo "    peers' receive, loopback softirq         $o_peers / $n_peers   ($(share "$o_peers" "$o_total") / $(share "$n_peers" "$n_total"))"
    echo "    peers' ACKs held behind a send           $o_acks / $n_acks   ($(share "$o_acks" "$o_total") / $(share "$n_acks" "$n_total"))"
    echo "    user space                               $o_user / $n_user   ($(share "$o_user" "$o_total") / $(share "$n_user" "$n_total"))"
    echo "    rest of the kernel (epoll, read, timers) $o_other / $n_other   ($(share "$o_other" "$o_total") / $(share "$n_other" "$n_total"))"
    echo "    all samples $o_total / $n_total (ratio $(ratio "$o_total" "$n_total"));" \
      "without the peers' receive work, which a real network does on the players' machines: $((o_total - o_peers)) / $((n_total - n_peers))" \
      "(ratio $(ratio "$((o_total - o_peers))" "$((n_total - n_peers))"); nginx's Nagle-held chunks still leave from the players' processes)"
  fi
  # A window in which a player got nothing measured an idle server, not a fan-out (seen once in session 21: every
  # window behind the link, with nothing on the players' side to say why): no figure and no verdict from it.
  starved=0
  for result in "$WORK"/fanout-result-link-*; do
    [ -e "$result" ] && [ "$(awk '{print ($3 > 0) ? 1 : 0}' "$result")" = 0 ] && starved=$((starved + 1))
  done
  if [ "$LINK_ROUNDS" -gt 0 ] && [ "$starved" -gt 0 ]; then
    echo "relay fan-out with the players behind a 1500-byte-MTU link: in $starved of $((3 * LINK_ROUNDS)) windows a player" \
      "received nothing (the link or the players failed): no figure, no verdict"
  elif [ "$LINK_ROUNDS" -gt 0 ]; then
    link0=$(median_of fanout-result-link-onair0 1); link=$(median_of fanout-result-link-onair 1); link_nginx=$(median_of fanout-result-link-nginx 1)
    echo "relay fan-out with the players behind a 1500-byte-MTU link (veth into a network namespace; publisher on loopback), $LINK_ROUNDS rounds:"
    echo "  --audio-merge-ms 0: onair serve $link0 core vs nginx-rtmp worker $link_nginx core   ratio $(ratio "$link0" "$link_nginx")" \
      "(rounds $(round_ratios fanout-result-link-onair0 fanout-result-link-nginx))  target <= 1.0: $(bench_verdict "$(at_most "$(ratio "$link0" "$link_nginx")" 1.0)"), aim 0.8"
    echo "  default merge window: onair serve $link core   ratio $(ratio "$link" "$link_nginx") (rounds $(round_ratios fanout-result-link-onair fanout-result-link-nginx))" \
      " target < 0.80: $(bench_verdict "$(below "$(ratio "$link" "$link_nginx")" 0.80)")"
    echo "  players' CPU: onair merge 0 $(median_of fanout-result-link-onair0 4), nginx $(median_of fanout-result-link-nginx 4) core;" \
      "TCP (server's sockets) data segments out / segments in / retransmitted: onair merge 0 $(segments link-onair0), nginx $(segments link-nginx)"
  fi
  echo "relay hop latency (publish -> player, loopback, 300 frames a round, medians of $ROUNDS rounds):"
  echo "  onair serve (--audio-merge-ms 0): median $onair0_median ms (rounds $(rounds_of latency-result-onair 1 | tr ' ' /)), p90 $onair0_p90 ms" \
    "  nginx-rtmp: median $nginx_median ms (rounds $(rounds_of latency-result-nginx 1 | tr ' ' /)), p90 $nginx_p90 ms" \
    "  target median <= nginx's: $(bench_verdict "$(at_most "$onair0_median" "$nginx_median")") ($(bench_rounds_met "<=" 1 "$(round_ratios latency-result-onair latency-result-nginx)") met it)"
  echo "  the server's CPU per relayed message during the probe (scheduler run time / 330): onair $(median_of latency-result-onair 4) us" \
    "(rounds $(rounds_of latency-result-onair 4 | tr ' ' /)), nginx $(median_of latency-result-nginx 4) us (rounds $(rounds_of latency-result-nginx 4 | tr ' ' /))"
  if [ -s "$WORK/hop-path-onair" ] && [ -s "$WORK/hop-path-nginx" ]; then
    read -r o_er o_rs o_se o_n < "$WORK/hop-path-onair"; read -r n_er n_rs n_se n_n < "$WORK/hop-path-nginx"
    echo "  inside the server, per message (system-call tracepoints, one probe each, medians in us, tracing's cost included):"
    echo "    epoll_wait -> read: onair $o_er, nginx $n_er   read -> send: onair $o_rs, nginx $n_rs   send -> epoll_wait: onair $o_se, nginx $n_se" \
      "($o_n / $n_n messages)"
  else
    echo "  inside the server: skipped (perf could not trace raw_syscalls here)"
  fi
  [ "$NAGLE" = 1 ] && echo "  onair serve (--audio-merge-ms 0 --no-tcp-nodelay, one round): median $nagle_median ms, p90 $nagle_p90 ms"
  if [ -s "$WORK/profile" ]; then
    echo "onair serve profile at --audio-merge-ms 0 (perf, cpu-clock, self time, top frames):"
    cat "$WORK/profile"
  fi
} | tee bench-results/relay.txt
