# Shared helpers of scripts/bench.d/publish.sh and engine.sh (sourced, not run: bench.sh runs only *.sh
# files, and this one does nothing on its own). Loopback only.
#
#   bench_init NAME            temp dir in $BENCH_WORK, EXIT trap that stops every peer started here
#   bench_spawn CMD…           starts CMD in the background, remembered for the trap; its pid in $BENCH_PID
#   bench_start_nginx          nginx-rtmp on a free loopback port: $NGINX_PORT, $NGINX_PREFIX, $NGINX_PID
#                              ($NGINX_RECORD: the record directives of application live, default `record off;`)
#   bench_nginx_conf LISTEN [D] its configuration file in $NGINX_PREFIX (abr.sh starts it in a namespace)
#   bench_stop_nginx           graceful stop (SIGQUIT), so the access log has every session
#   bench_published_bytes NAME bytes nginx received from the publisher of live/NAME (its access log)
#   bench_cpu_seconds F / bench_rss_mib F / bench_wall_seconds F   from a `/usr/bin/time -v -o F` report
#   bench_median A B C …       the median of numbers
#   bench_verdict OK           MET when OK is 1, else MISSED
#   bench_rounds_met OP T A/B/C [UNIT]  how many of the rounds' figures meet `figure OP T` (OP <= or <): "2 of 3 rounds"

# scripts/bench.sh runs every *.sh here; run on its own, this file has nothing to measure.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then exit 0; fi

bench_init() {
  BENCH_NAME=$1
  BENCH_WORK=$(mktemp -d "/tmp/onair-$1-bench.XXXXXX")
  BENCH_PIDS=()
  trap bench_cleanup EXIT
  trap 'exit 130' INT TERM
}

bench_cleanup() {
  local pid
  for pid in "${BENCH_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${BENCH_PIDS[@]}"; do
    for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  rm -rf "$BENCH_WORK"
}

bench_fail() { echo "$BENCH_NAME bench: $*" >&2; exit 1; }

# Builds the release binary the benches measure, unless ONAIR_BENCH_BINARY names one to use as is.
bench_release_binary() {
  [ -n "${ONAIR_BENCH_BINARY:-}" ] && return 0
  swift build -c release --product onair > "$BENCH_WORK/build.log" 2>&1 \
    || { tail -30 "$BENCH_WORK/build.log"; bench_fail "the release binary did not build"; }
}

bench_require() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || bench_fail "$tool is not installed (make deps-bench)"
  done
  [ -x /usr/bin/time ] || bench_fail "GNU time (/usr/bin/time) is not installed (make deps-bench)"
}

bench_spawn() {
  "$@" &
  BENCH_PID=$!
  BENCH_PIDS+=("$BENCH_PID")
}

bench_free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

bench_wait_port() {
  for _ in $(seq 1 200); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.05
  done
  return 1
}

# nginx-rtmp as in /work/shared/interop/nginx-rtmp.conf, plus an access log (one line per session, written
# when it ends) so the scripts can check how many bytes each publisher really delivered, and max_message
# raised so high-bitrate keyframes are not refused.
bench_start_nginx() {
  NGINX_PORT=$(bench_free_port)
  NGINX_PREFIX="$BENCH_WORK/nginx"
  bench_nginx_conf "127.0.0.1:$NGINX_PORT" "drop_idle_publisher 5s;"
  bench_spawn nginx -p "$NGINX_PREFIX" -c "$NGINX_PREFIX/nginx.conf" -e "$NGINX_PREFIX/error.log" -g 'daemon off;'
  NGINX_PID=$BENCH_PID
  bench_wait_port "$NGINX_PORT" || bench_fail "nginx-rtmp did not start: $(cat "$NGINX_PREFIX/error.log" 2>/dev/null)"
}

# bench_nginx_conf LISTEN [DIRECTIVES]: writes $NGINX_PREFIX/nginx.conf, listening on LISTEN, with DIRECTIVES
# added to application live (bench_start_nginx: `drop_idle_publisher 5s;`).
bench_nginx_conf() {
  mkdir -p "$NGINX_PREFIX"
  cat > "$NGINX_PREFIX/nginx.conf" <<CONF
load_module /usr/lib/nginx/modules/ngx_rtmp_module.so;
user root;
worker_processes 1;
pid $NGINX_PREFIX/nginx.pid;
error_log $NGINX_PREFIX/error.log info;
events { worker_connections 256; }
rtmp {
    log_format bench '\$command \$name \$bytes_received \$session_time';
    access_log $NGINX_PREFIX/access.log bench;
    server {
        listen $1;
        chunk_size 4096;
        max_message 16M;
        application live {
            live on;
            ${NGINX_RECORD:-record off;}
            publish_notify on;
            ${2:-}
        }
    }
}
CONF
}

bench_stop_nginx() {
  kill -QUIT "$NGINX_PID" 2>/dev/null || true
  wait "$NGINX_PID" 2>/dev/null || true
}

# The access log line of a session is written when it closes; wait up to 2 s for it.
bench_published_bytes() {
  local name=$1 bytes=""
  for _ in $(seq 1 40); do
    bytes=$(awk -v n="$name" '$1 ~ /PUBLISH/ && $2 == n {print $3}' "$NGINX_PREFIX/access.log" 2>/dev/null | tail -1)
    [ -n "$bytes" ] && break
    sleep 0.05
  done
  echo "${bytes:-0}"
}

bench_cpu_seconds() { awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {printf "%.2f", u + s}' "$1"; }
bench_rss_mib() { awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2 / 1024}' "$1"; }
bench_wall_seconds() {
  awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; printf "%.2f", s}' "$1"
}

bench_median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

bench_verdict() { if [ "$1" = 1 ]; then echo MET; else echo MISSED; fi; }

# A verdict is read off the median; beside it, how many single rounds would have given the same answer, so a
# target that one window meets and the next misses reads as what it is (one window moves by ±10 % here).
bench_rounds_met() {
  echo "$3" | tr / '\n' | awk -v op="$1" -v t="$2" -v unit="${4:-rounds}" '
    /^[0-9.]+$/ { n++; if ((op == "<=" && $1 + 0 <= t + 0) || (op == "<" && $1 + 0 < t + 0)) met++ }
    END { printf "%d of %d %s", met, n, unit }'
}


# bench_perf_top PID SECONDS OUT [N]: samples PID's CPU (perf record -g -e cpu-clock, every thread) for
# SECONDS and writes to OUT the share of samples outside the codecs — a sample is the codecs' when any frame
# of its stack is in libx264 or libavcodec, or its leaf is in libm (the AAC encoder's maths; libm frames keep
# no frame pointer) — and the top N (default 12) leaf functions of the others by self time, with their thread,
# Swift names demangled. libswscale counts as OnAir's (conversion). Writes a note instead when perf is
# missing or not permitted; ONAIR_BENCH_PROFILE=0 skips it. A libc leaf with no caller (memcpy/memmove keep
# no frame pointer) is counted apart, in neither share: unwound with DWARF (perf record --call-graph dwarf)
# the ones in this bench are x264 copying its input (x264_encoder_encode), not OnAir.
# ONAIR_BENCH_PROFILE_HZ: the sampling rate (default 999 a second).
bench_perf_top() {
  local pid=$1 seconds=$2 out=$3 count=${4:-12} data hz=${ONAIR_BENCH_PROFILE_HZ:-999}
  : > "$out"
  [ "${ONAIR_BENCH_PROFILE:-1}" = 0 ] && return 0
  command -v perf > /dev/null || { echo "  (profile skipped: perf not installed; apt-get install linux-perf)" > "$out"; return 0; }
  data="$out.data"
  perf record -q -g -e cpu-clock -F "$hz" -p "$pid" -o "$data" -- sleep "$seconds" > /dev/null 2>&1 \
    || { echo "  (profile skipped: perf record -e cpu-clock failed here)" > "$out"; return 0; }
  local demangle=cat
  command -v swift > /dev/null && demangle="swift demangle --simplified --compact"
  perf script -i "$data" -F comm,ip,sym,dso 2> /dev/null \
    | awk -v top="$count" '
        function finish() {
          if (!inside) return
          total++
          if (codec) codecs++
          else if (depth == 1 && leafdso ~ /^libc[.-]/) lost++
          else { own++; seen[thread "  " leaf]++; byThread[thread]++ }
          inside = 0
        }
        /^[^ \t]/ { finish(); thread = $1; inside = 1; codec = 0; leaf = ""; depth = 0; next }
        /^[ \t]*$/ { finish(); next }
        {
          line = $0; sub(/^[ \t]*[0-9a-f]+ /, "", line)
          dso = line; sub(/.*\(/, "", dso); sub(/\)$/, "", dso); n = split(dso, parts, "/"); dso = parts[n]
          sym = line; sub(/ \([^()]*\)$/, "", sym); sub(/\+0x[0-9a-f]+$/, "", sym)
          depth++
          if (leaf == "") { leaf = (sym == "[unknown]" ? dso : sym) " (" dso ")"; leafdso = dso; if (dso ~ /^libm[.-]/) codec = 1 }
          if (dso ~ /libx264|libavcodec/) codec = 1
        }
        END {
          finish()
          if (total == 0) { print "  (profile: no samples)"; exit }
          printf "  %d samples; outside the codecs: %.1f %% of the process (codecs %.1f %%; libc leaves with no caller %.1f %%)\n", total, 100 * own / total, 100 * codecs / total, 100 * lost / total
          line = "  outside the codecs by thread:"
          for (t in byThread) line = line sprintf(" %s %.1f %%", t, 100 * byThread[t] / total)
          print line
          for (key in seen) printf "%d\t%s\n", seen[key], key | "sort -rn > /dev/stderr"
        }' 2> "$out.top" > "$out"
  head -n "$count" "$out.top" | awk -F'\t' -v total="$(awk '{print $1; exit}' "$out" | tr -dc 0-9)" \
    '{ printf "  %6.2f%%  %s\n", 100 * $1 / (total > 0 ? total : 1), substr($2, 1, 150) }' | $demangle >> "$out"
  rm -f "$out.top"
  # BENCH_PERF_KEEP=FILE keeps the samples for a second reading (the relay's split of the kernel's work).
  if [ -n "${BENCH_PERF_KEEP:-}" ]; then mv "$data" "$BENCH_PERF_KEEP"; else rm -f "$data"; fi
}
