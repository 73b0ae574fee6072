#!/usr/bin/env bash
# Installs the Debian packages OnAir needs, and only the missing ones (idempotent).
#
#   scripts/install-deps.sh run     what `make demo` needs: C libraries the console links against
#   scripts/install-deps.sh test    that, plus the stock peers the tests start (nginx-rtmp, ffmpeg, ...)
#   scripts/install-deps.sh bench   that, plus the measuring tools of `make bench`
#
# As root it calls apt-get directly, otherwise sudo. It says what it installs and why.
set -euo pipefail

profile="${1:-run}"

# package|why — one line each, so the message can say why a package is needed.
run_packages=(
  "libncurses-dev|the console's terminal UI (ncursesw)"
  "libavcodec-dev|H.264 + AAC encoding and decoding (libx264 inside libavcodec)"
  "libavutil-dev|libavcodec's frames, options and errors"
  "libswscale-dev|video size and pixel-format conversion"
  "libasound2-dev|microphone capture through ALSA"
  "libv4l-dev|camera capture through V4L2 (headers)"
)
test_packages=(
  "nginx|a stock RTMP server the tests publish to"
  "libnginx-mod-rtmp|nginx's RTMP module"
  "libnginx-mod-stream|nginx's stream module: the TLS proxy in front of nginx-rtmp that the rtmps:// tests use"
  "openssl|makes the throwaway CA and server certificates of the rtmps:// tests"
  "ffmpeg|ffmpeg/ffprobe: stock publisher and reader that check what OnAir sends"
  "rtmpdump|a stock RTMP player (librtmp)"
  "tmux|drives the real console in end-to-end tests"
  "gstreamer1.0-tools|gst-launch-1.0: a third stock RTMP player"
  "gstreamer1.0-plugins-bad|GStreamer's rtmp2src/rtmp2sink"
  "gstreamer1.0-plugins-good|GStreamer's flvdemux"
  "python3-pip|installs py3amf, the independent AMF0 implementation the tests cross-check against"
  "iproute2|ss, to find free loopback ports and watch sockets"
  "python3-jsonschema|an independent JSON Schema validator for the headless output (docs/headless-events.schema.json)"
  "python3-venv|the virtual environment that holds pyrtmp, a stock RTMP server of the peer matrix"
  "gcc|builds the tests' fault-injecting ALSA plugin and emulated V4L2 camera (Tests/Devices, docs/devices.md)"
)
bench_packages=(
  "hyperfine|times whole commands over repeated runs"
  "valgrind|instruction counts that do not depend on machine load"
  "time|GNU time: CPU seconds and peak RSS of a process"
)

wanted=("${run_packages[@]}")
case "$profile" in
  run) ;;
  test) wanted+=("${test_packages[@]}") ;;
  bench) wanted+=("${test_packages[@]}" "${bench_packages[@]}") ;;
  *) echo "install-deps: unknown profile '$profile' (use run, test or bench)" >&2; exit 2 ;;
esac

missing=()
for entry in "${wanted[@]}"; do
  name="${entry%%|*}"
  if ! dpkg-query -W -f='${Status}' "$name" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$entry")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${#missing[@]} missing Debian package(s):"
  names=()
  for entry in "${missing[@]}"; do
    echo "  - ${entry%%|*}: ${entry#*|}"
    names+=("${entry%%|*}")
  done
  if [ "$(id -u)" -eq 0 ]; then apt=(apt-get); else apt=(sudo apt-get); fi
  export DEBIAN_FRONTEND=noninteractive
  "${apt[@]}" update -qq
  "${apt[@]}" install -y -qq --no-install-recommends "${names[@]}" >/dev/null
  echo "install-deps: done"
fi

# Python packages the tests use (independent implementations to cross-check against).
if [ "$profile" != run ]; then
  if ! python3 -c 'import pyamf' 2>/dev/null; then
    echo "install-deps: installing py3amf (PyPI): an independent AMF0 implementation for cross-checks"
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore py3amf \
      || python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --break-system-packages py3amf
  fi
fi

# pyrtmp (PyPI: a pure-Python RTMP server) in a virtual environment of its own, for the peer matrix
# (Tests/OnAirAppTests/PeerMatrixTests.swift finds it at the same path, overridable with ONAIR_PEERS_VENV).
if [ "$profile" != run ]; then
  venv="${ONAIR_PEERS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/onair/peers-venv}"
  if ! "$venv/bin/python" -c 'import pyrtmp' 2>/dev/null; then
    echo "install-deps: installing pyrtmp (PyPI) into $venv: a stock RTMP server for the peer matrix"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check pyrtmp
  fi
fi
