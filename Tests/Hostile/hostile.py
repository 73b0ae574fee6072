#!/usr/bin/env python3
"""Hostile-client runs against a real `onair serve` (GitHub issue 14, items 1-5 and 8).

usage: hostile.py ATTACK --onair BINARY [--seconds N]

Starts the relay on a free loopback port, a healthy publisher (synthetic 30 fps video, ~480 kbit/s), a
healthy player on stream "healthy" and a second publisher on "target" (what the play attacks play), measures the player's rate for a baseline window, runs ATTACK from raw
sockets while sampling the relay's RSS and CPU from /proc, measures the player's rate during the attack, then
checks that the relay still accepts a new client. Prints one JSON object:

  {"attack", "alive", "rssPeakMB", "cpuPercent", "baselineKbps", "attackKbps", "ratio", "checks": {...}, "notes"}

`checks` holds the attack's own findings (e.g. "noRawEscape": true). The Swift test
(Tests/OnAirNetTests/Relay/RelayHostileClientTests.swift) asserts on them; run by hand to measure a binary:
  python3 Tests/Hostile/hostile.py multi-play --onair /work/main/.build/debug/onair
"""
import argparse
import json
import os
import resource
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rtmp  # noqa: E402

HEALTHY = "healthy"
# The stream the attacks that play something aim at: published like "healthy", played by nobody healthy.
TARGET = "target"
FPS = 30
FRAME = 2000


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Relay:
    def __init__(self, binary, workdir, record_dir, extra=(), headless=True, nofile=None):
        self.port = free_port()
        self.out_path = os.path.join(workdir, "relay.out")
        self.err_path = os.path.join(workdir, "relay.err")
        args = [binary, "serve", "--listen", f"127.0.0.1:{self.port}", "--record-dir", record_dir, *extra]
        if headless:
            args.append("--headless")

        def limit():
            if nofile:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
        self.proc = subprocess.Popen(args, stdout=open(self.out_path, "wb"), stderr=open(self.err_path, "wb"),
                                     preexec_fn=limit, cwd=workdir)
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError("relay exited at start: " + open(self.err_path, errors="replace").read())
                time.sleep(0.1)
        raise RuntimeError("relay did not listen")

    def alive(self):
        return self.proc.poll() is None

    def output(self):
        with open(self.out_path, "rb") as f:
            out = f.read()
        with open(self.err_path, "rb") as f:
            return out, f.read()

    def events(self):
        out, _ = self.output()
        result = []
        for line in out.splitlines():
            try:
                result.append(json.loads(line))
            except ValueError:
                pass
        return result

    def stop(self):
        if self.alive():
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Monitor(threading.Thread):
    """Samples the relay's RSS (VmRSS) and CPU time (utime + stime) every 100 ms."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid = pid
        self.samples = []          # (time, rss_kb, cpu_ticks)
        self.stopped = False
        self.killed = False

    KILL_KB = 1536 << 10

    def run(self):
        hz = os.sysconf("SC_CLK_TCK")
        self.hz = hz
        while not self.stopped:
            try:
                with open(f"/proc/{self.pid}/status") as f:
                    rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
                with open(f"/proc/{self.pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                cpu = int(fields[11]) + int(fields[12])
                self.samples.append((time.time(), rss, cpu))
                if rss > self.KILL_KB and not self.killed:
                    self.killed = True       # a broken relay must not take the shared machine down with it
                    os.kill(self.pid, 9)
            except (OSError, StopIteration, IndexError):
                pass
            time.sleep(0.1)

    def window(self, start, end):
        inside = [s for s in self.samples if start <= s[0] <= end]
        if len(inside) < 2:
            return (max((s[1] for s in inside), default=0) / 1024, 0.0)
        peak = max(s[1] for s in inside) / 1024
        cpu = (inside[-1][2] - inside[0][2]) / self.hz / (inside[-1][0] - inside[0][0]) * 100
        return peak, cpu

    def peak(self):
        return max((s[1] for s in self.samples), default=0) / 1024


class HealthyPublisher(threading.Thread):
    def __init__(self, port, name=HEALTHY, key=None):
        super().__init__(daemon=True)
        self.conn = rtmp.Connection(port)
        self.conn.create_stream()
        self.conn.publish(name + (f"?key={key}" if key else ""))
        self.stopped = False
        threading.Thread(target=self.drain, daemon=True).start()

    def drain(self):
        try:
            while self.conn.sock.recv(65536):
                pass
        except OSError:
            pass

    def run(self):
        start = time.time()
        index = 0
        try:
            while not self.stopped:
                due = start + index / FPS
                delay = due - time.time()
                if delay > 0:
                    time.sleep(delay)
                self.conn.video(index * 1000 // FPS, rtmp.video_payload(index, FRAME, index % FPS == 0))
                index += 1
        except OSError:
            pass


class HealthyPlayer(threading.Thread):
    def __init__(self, port, name=HEALTHY):
        super().__init__(daemon=True)
        self.conn = rtmp.Connection(port)
        self.conn.create_stream()
        self.conn.play(name)
        self.received = []          # (time, cumulative bytes)
        self.total = 0

    def run(self):
        self.conn.sock.settimeout(1)
        while True:
            try:
                data = self.conn.sock.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                return
            if not data:
                return
            self.total += len(data)
            self.received.append((time.time(), self.total))

    def kbps(self, start, end):
        before = max((b for t, b in self.received if t <= start), default=0)
        upto = max((b for t, b in self.received if t <= end), default=0)
        return (upto - before) * 8 / 1000 / (end - start)


# MARK: attacks ------------------------------------------------------------------------------------------

def attack_append_overflow(relay, stop, checks, notes):
    """Item 1: record at 0 and 0x7FFFFFFF, append at 0 and 2147482149, then append again."""
    sessions = [("record", [0, 0x7FFFFFFF]), ("append", [0, 2147482149]), ("append", [0, 33]), ("append", [0])]
    for kind, stamps in sessions:
        try:
            conn = rtmp.Connection(relay.port)
            conn.create_stream()
            conn.publish("poison", kind)
            for i, ts in enumerate(stamps):
                conn.video(ts, rtmp.video_payload(i, 200, True))
            time.sleep(0.5)
            conn.unpublish("poison")
            time.sleep(0.5)
            conn.close()
        except OSError as error:
            notes.append(f"{kind}: {error}")
        time.sleep(0.5)
    failed = [e for e in relay.events() if e.get("kind") == "recordingFailed"]
    checks["appendRefusedWithReason"] = any("32-bit limit" in e["details"].get("reason", "") for e in failed)


def attack_multi_play(relay, stop, checks, notes):
    """Item 2: one connection plays the live stream on 5000 message stream IDs and reads nothing."""
    conn = rtmp.Connection(relay.port)
    block = b"".join(conn.message(20, rtmp.command("play", 0, rtmp.amf_string(TARGET)), msid=i, csid=8)
                     for i in range(1, 5001))
    notes.append(f"{len(block)} bytes of play commands")
    try:
        conn.sock.settimeout(5)
        conn.send(block)
    except OSError as error:
        notes.append(f"send: {error}")
    stop.wait()
    rejections = [e for e in relay.events() if e.get("kind") == "rejected" and e["details"].get("code") == "too-many-plays"]
    checks["rejectedTooManyPlaysOnce"] = len(rejections) == 1
    notes.append(f"{len(rejections)} too-many-plays events")
    conn.close()


def attack_ping_flood(relay, stop, checks, notes):
    """Item 3: a ping flood from a client that reads nothing."""
    conn = rtmp.Connection(relay.port)
    ping = rtmp.chunks(2, 4, 0, 0, struct.pack(">HI", 6, 0), 128)
    block = ping * (65536 // len(ping))
    sent = 0
    conn.sock.settimeout(2)
    stalls = 0
    while not stop.is_set():
        try:
            conn.send(block)
            sent += len(block)
        except socket.timeout:
            stalls += 1             # the relay stopped reading for a while: keep pushing
        except OSError as error:
            notes.append(f"closed by the relay after {sent >> 20} MB of pings: {error}")
            break
    notes.append(f"{stalls} 2-second send stalls")
    notes.append(f"sent {sent >> 20} MB of pings")
    checks["rejectedFlood"] = any(e.get("kind") == "rejected" and e["details"].get("code") in ("control-queue-full", "request-flood")
                                         for e in relay.events())
    conn.close()


def attack_idle_sockets(relay, stop, checks, notes):
    """Item 4: idle connected sockets, 600 from 127.0.0.1 then 300 from ten other loopback addresses, against
    a relay with RLIMIT_NOFILE 512; then a new client from 127.0.0.2 once the idle ones could have expired."""
    socks = []
    failed = 0
    sources = ["127.0.0.1"] * 600 + [f"127.0.0.{3 + i % 10}" for i in range(300)]
    started = time.time()
    for source in sources:
        if stop.is_set():
            break
        try:
            socks.append(rtmp.Connection(relay.port, timeout=1, source=source))
        except OSError:
            failed += 1
    notes.append(f"{len(socks)} idle connections opened, {failed} failed, in {time.time() - started:.1f} s")
    stop.wait(max(0, 18 - (time.time() - started)))
    checks["newClientAfterIdleTimeout"] = still_accepts(relay.port, source="127.0.0.2")
    stop.wait()
    for conn in socks:
        conn.close()
    events = relay.events()
    paused = sum(1 for e in events if e.get("kind") == "acceptPaused")
    notes.append(f"{paused} acceptPaused events")
    checks["idleClosed"] = any(e.get("kind") == "rejected" and e["details"].get("code") == "idle-after-connect" for e in events)


def attack_partial_messages(relay, stop, checks, notes):
    """Item 4: unfinished 8 MB messages on 60 chunk streams, never completed, nothing read."""
    conn = rtmp.Connection(relay.port)
    conn.sock.settimeout(2)
    length = (8 << 20) - 16
    piece = bytes(60000)
    sent = 0
    try:
        for csid in range(3, 63):
            conn.send(bytes([csid]) + (0).to_bytes(3, "big") + length.to_bytes(3, "big") + b"\x09" + struct.pack("<I", 1) + piece)
            sent += len(piece)
        for _ in range(int(length * 0.95) // len(piece)):
            if stop.is_set():
                break
            for csid in range(3, 63):
                conn.send(bytes([0xC0 | csid]) + piece)
                sent += len(piece)
    except OSError as error:
        notes.append(f"closed by the relay after {sent >> 20} MB: {error}")
    notes.append(f"sent {sent >> 20} MB of unfinished messages")
    # A message that never completes: 1 MB announced, a few bytes a second.
    trickle = rtmp.Connection(relay.port)
    try:
        trickle.send(bytes([4]) + (0).to_bytes(3, "big") + (1 << 20).to_bytes(3, "big") + b"\x09" + struct.pack("<I", 1) + bytes(100))
        while not stop.wait(0.5):
            trickle.send(bytes(10))
    except OSError as error:
        notes.append(f"trickle closed by the relay: {error}")
    trickle.close()
    codes = [e["details"].get("code") for e in relay.events() if e.get("kind") == "rejected"]
    checks["rejectedPartial"] = "partial-messages-too-large" in codes
    checks["rejectedIncomplete"] = "incomplete-message" in codes
    conn.close()


def attack_names(relay, stop, checks, notes):
    """Item 5: names with terminal escapes and keys in the query; the relay logs in text mode."""
    names = ["\x1b]0;PWNED\x07x?key=SECRETKEY123", "\x1b[2J\x1b[Hclear", "ok?key=SECRETKEY123", "\u009b31mred",
             "live/../../etc?key=SECRETKEY123"]
    for name in names:
        try:
            conn = rtmp.Connection(relay.port)
            conn.create_stream()
            conn.publish(name)
            conn.play(name, msid=2)
            time.sleep(0.3)
            conn.close()
        except OSError as error:
            notes.append(f"{error}")
    time.sleep(0.5)
    out, err = relay.output()
    log = out + err
    checks["noRawEscape"] = b"\x1b" not in log and b"\x07" not in log and b"\xc2\x9b" not in log
    checks["noKeyInLog"] = b"SECRETKEY123" not in log
    checks["refusalsLogged"] = log.count(b"may not publish") >= 3
    stop.wait()


def whole_tags(path):
    """Whether an FLV file ends exactly at the end of a tag (header, tags, previous-tag sizes)."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 13 or data[:3] != b"FLV":
        return len(data) == 0, 0
    pos, tags = 13, 0
    while pos + 11 <= len(data):
        size = int.from_bytes(data[pos + 1:pos + 4], "big")
        end = pos + 11 + size + 4
        if end > len(data):
            return False, tags
        if int.from_bytes(data[end - 4:end], "big") != 11 + size:
            return False, tags
        pos, tags = end, tags + 1
    return pos == len(data), tags


def attack_full_disk(relay, stop, checks, notes):
    """Item 8: a recording on a 200 KB tmpfs fills it; then a recording whose directory is deleted."""
    conn = rtmp.Connection(relay.port)
    conn.create_stream()
    conn.publish("filler", "record")
    for i in range(200):
        conn.video(i * 33, rtmp.video_payload(i, 3000 + (i * 7919) % 1000, i % 30 == 0))
        time.sleep(0.005)
    time.sleep(1.5)
    conn.unpublish("filler")
    conn.close()
    time.sleep(1)
    path = os.path.join(relay.record_dir, "filler.flv")
    whole, tags = whole_tags(path) if os.path.exists(path) else (False, 0)
    notes.append(f"full disk: {os.path.getsize(path) if os.path.exists(path) else -1} bytes, {tags} whole tags")
    checks["fullDiskWholeTags"] = whole and tags > 0
    events = relay.events()
    checks["fullDiskReported"] = any(e.get("kind") == "recordingFailed" and "stopped" in e["details"].get("reason", "")
                                     for e in events)
    if os.path.exists(path):
        os.unlink(path)             # room on the tmpfs for the next recording

    conn = rtmp.Connection(relay.port)
    conn.create_stream()
    conn.publish("vanishing", "record")
    for i in range(30):
        conn.video(i * 33, rtmp.video_payload(i, 500, i % 30 == 0))
    time.sleep(1)
    gone = os.path.join(relay.record_dir, "vanishing.flv")
    os.unlink(gone)
    for i in range(30, 60):
        conn.video(i * 33, rtmp.video_payload(i, 500, i % 30 == 0))
        time.sleep(0.03)
    time.sleep(1.5)
    conn.unpublish("vanishing")
    conn.close()
    time.sleep(1)
    failed = [e for e in relay.events() if e.get("kind") == "recordingFailed" and e["details"].get("stream") == "vanishing"]
    notes.append(f"vanished: {[e['details'].get('reason') for e in failed]}")
    checks["vanishedReported"] = any("deleted" in e["details"].get("reason", "") for e in failed)
    stop.wait()


ATTACKS = {
    "append-overflow": (attack_append_overflow, {}),
    "multi-play": (attack_multi_play, {}),
    "ping-flood": (attack_ping_flood, {}),
    "idle-sockets": (attack_idle_sockets, {"nofile": 512, "seconds": 22}),
    "partial-messages": (attack_partial_messages, {"seconds": 14}),
    "names": (attack_names, {"headless": False, "key": "relaykey"}),
    "full-disk": (attack_full_disk, {"tmpfs": True}),
}


def still_accepts(port, source="127.0.0.1"):
    try:
        conn = rtmp.Connection(port, timeout=5, source=source)
        conn.create_stream()
        conn.close()
        return True
    except OSError:
        return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("attack", choices=sorted(ATTACKS))
    parser.add_argument("--onair", required=True)
    parser.add_argument("--seconds", type=float)
    args = parser.parse_args()
    args.onair = os.path.abspath(args.onair)
    attack, options = ATTACKS[args.attack]
    workdir = tempfile.mkdtemp(prefix="onair-hostile-")
    record_dir = os.path.join(workdir, "recordings")
    os.makedirs(record_dir)
    mounted = False
    result = {"attack": args.attack, "checks": {}, "notes": []}
    if options.get("tmpfs"):
        if os.geteuid() != 0:
            print(json.dumps({**result, "skipped": "needs root to mount a 200 KB tmpfs for the full-disk case"}))
            return
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", record_dir], check=True)
        mounted = True
    key = options.get("key")
    extra = ["--publish-key", key] if key else []
    relay = Relay(args.onair, workdir, record_dir, extra=extra, headless=options.get("headless", True),
                  nofile=options.get("nofile"))
    relay.record_dir = record_dir
    monitor = Monitor(relay.proc.pid)
    monitor.start()
    try:
        publisher = HealthyPublisher(relay.port, key=key)
        publisher.start()
        target = HealthyPublisher(relay.port, name=TARGET, key=key)
        target.start()
        time.sleep(0.5)
        player = HealthyPlayer(relay.port)
        player.start()
        time.sleep(2)
        base_start = time.time()
        time.sleep(3)
        base_end = time.time()
        stop = threading.Event()
        worker = threading.Thread(target=attack, args=(relay, stop, result["checks"], result["notes"]), daemon=True)
        attack_start = time.time()
        worker.start()
        time.sleep(args.seconds or options.get("seconds", 8))
        stop.set()
        attack_end = time.time()
        worker.join(60)
        time.sleep(0.5)
        baseline = player.kbps(base_start, base_end)
        during = player.kbps(attack_start, attack_end)
        rss, cpu = monitor.window(attack_start, attack_end)
        result.update({
            "alive": relay.alive() and still_accepts(relay.port),
            "rssPeakMB": round(max(rss, monitor.peak()), 1),
            "cpuPercent": round(cpu, 1),
            "baselineKbps": round(baseline, 1),
            "attackKbps": round(during, 1),
            "ratio": round(during / baseline, 3) if baseline > 0 else 0,
        })
        if monitor.killed:
            result["notes"].append("relay killed by the test at 1.5 GB RSS")
        publisher.stopped = True
        target.stopped = True
    finally:
        monitor.stopped = True
        relay.stop()
        if mounted:
            subprocess.run(["umount", record_dir])
        shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
