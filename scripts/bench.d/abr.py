#!/usr/bin/env python3
"""The timeline and the figures of scripts/bench.d/abr.sh (run by it, never on its own).

Starts the three publishers (each in its own network namespace, behind its own veth + tbf link), the
server and one `onair subscribe --headless` per stream (in the server's namespace, on its loopback);
drives every link through the same timeline with `tc qdisc change` (uncapped -> 800 kbit/s -> lifted ->
down 10 s -> up); samples each link's tbf counters twice a second (bytes that passed the cap: what the
link carried, for every publisher alike); stamps every JSON line of the OnAir processes with the wall
clock it arrived at. Then prints the table and the MET/MISSED lines. Arguments: a JSON file written by
abr.sh with the paths, namespaces, devices and commands.
"""
import json
import subprocess
import sys
import threading
import time

config = json.load(open(sys.argv[1]))
T = config["timeline"]            # seconds from the publishers' start: cap, lift, down, up, end
CAP = config["capBitsPerSecond"]
NOMINAL = config["nominalBitsPerSecond"]
LINKS = config["links"]           # name -> {namespace, device}
TBF = config["tbf"]               # state -> tc tbf arguments (the same limit in every state)
work = config["work"]
procs = []


def tc_change(state):
    stamps = {}
    for name, link in LINKS.items():
        subprocess.run(["tc", "-n", link["namespace"], "qdisc", "change", "dev", link["device"], "root", "tbf", *TBF[state].split()],
                       check=True)
        stamps[name] = time.time()
        # tbf re-reads its rate only when a packet arrives: its timer still waits for the next packet at
        # 8 bit/s, so what the down link queued would wait for the sender's next TCP retransmission (seconds
        # of exponential backoff). One UDP datagram toward the server (port 9, discard) wakes it now, as a
        # radio coming back sends what it buffered at once.
        subprocess.Popen(["ip", "netns", "exec", link["namespace"], "bash", "-c", f"echo > /dev/udp/{link['server']}/9"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return stamps


def tbf_counters(link):
    out = subprocess.run(["tc", "-n", link["namespace"], "-s", "-j", "qdisc", "show", "dev", link["device"]],
                         capture_output=True, text=True).stdout
    for qdisc in json.loads(out or "[]"):
        if qdisc.get("kind") == "tbf":
            return qdisc["bytes"], qdisc.get("drops", 0), qdisc.get("backlog", 0)
    return None


def spawn(name, command, stdin=subprocess.DEVNULL, raw=False):
    """Starts a process; every stdout line (JSON, or text with `raw`) is kept with the wall time it arrived at."""
    raw_lines = raw
    process = subprocess.Popen(command, stdin=stdin, stdout=subprocess.PIPE, stderr=open(f"{work}/{name}.err", "w"))
    lines = []

    def read():
        with open(f"{work}/{name}.jsonl", "w") as copy:
            for raw in process.stdout:
                stamp = time.time()
                text = raw.decode(errors="replace")
                if raw_lines:
                    copy.write(f"{stamp:.3f} {text}")
                    lines.append((stamp, text.strip()))
                    continue
                copy.write(text)
                try:
                    lines.append((stamp, json.loads(text)))
                except ValueError:
                    pass

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    procs.append((name, process, reader))
    return lines


def run():
    samples = {name: [] for name in LINKS}
    outputs = {}
    start = time.time()
    for name, command in config["publishers"].items():
        outputs["pub-" + name] = spawn("pub-" + name, command)
    time.sleep(3)
    for name, command in config["subscribers"].items():
        outputs["sub-" + name] = spawn("sub-" + name, command)
    for name, command in config["probes"].items():
        outputs["probe-" + name] = spawn("probe-" + name, command, raw=True)
    marks = {"start": {name: start for name in LINKS}}
    plan = [("cap", T["cap"]), ("lift", T["lift"]), ("down", T["down"]), ("up", T["up"])]
    state_of = {"cap": "capped", "lift": "uncapped", "down": "down", "up": "uncapped"}
    while time.time() - start < T["end"]:
        now = time.time()
        if plan and now - start >= plan[0][1]:
            event, _ = plan.pop(0)
            marks[event] = tc_change(state_of[event])
            print(f"  {now - start:6.1f} s  link {event} ({TBF[state_of[event]]})", flush=True)
        for name, link in LINKS.items():
            counters = tbf_counters(link)
            if counters:
                samples[name].append((time.time(), *counters))
        time.sleep(max(0.0, 0.5 - (time.time() - now)))
    for name, process, reader in procs:
        if process.poll() is None:
            process.terminate()
    for name, process, reader in procs:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        reader.join(timeout=5)
    return start, marks, samples, outputs


def rate_at(series, t):
    """Bits per second over the 1 s before t, from the tbf byte counter (what passed the cap)."""
    before = [s for s in series if s[0] <= t - 1.0]
    upto = [s for s in series if s[0] <= t]
    if not before or not upto:
        return None
    a, b = before[-1], upto[-1]
    return (b[1] - a[1]) * 8 / (b[0] - a[0]) if b[0] > a[0] else None


def windows(series, begin, end):
    """(t, rate) for every sample in [begin + 1, end]: each 1 s window lies wholly in [begin, end]."""
    return [(s[0], rate_at(series, s[0])) for s in series if begin + 1.0 <= s[0] <= end and rate_at(series, s[0]) is not None]


def events(lines, kind, side):
    return [(stamp, line) for stamp, line in lines if line.get("kind") == kind and line.get("side") == side]


def session_origin(lines):
    """Wall time of the process's session clock zero: each line arrives after it was written."""
    return min((stamp - line["time"] / 1000 for stamp, line in lines if isinstance(line.get("time"), int)), default=None)


def at_or_before(stats, t):
    chosen = None
    for stamp, line in stats:
        if stamp <= t:
            chosen = line["details"]
    return chosen or {}


def analyse(start, marks, samples, outputs):
    rows = {}
    for name in LINKS:
        cap_at, lift_at = marks["cap"][name], marks["lift"][name]
        series = samples[name]
        capped = windows(series, cap_at, lift_at)
        # Converged: from this window on, every 1 s window until the lift is at most 90 % of the cap.
        converged = None
        for index, (t, _) in enumerate(capped):
            if all(rate <= 0.9 * CAP for _, rate in capped[index:]):
                converged = t
                break
        row = {"converge": None if converged is None else converged - cap_at}
        # Never converged: the same figures over the whole cap (from its second second), marked with `*`.
        window_start = converged if converged is not None else cap_at + 1.0
        row["capped_mean"] = (sum(r for _, r in capped) / len(capped)) if capped else None
        row["under_share"] = (sum(1 for _, r in capped if r <= 0.9 * CAP) / len(capped)) if capped else None
        link_drops = [s for s in series if window_start <= s[0] <= lift_at]
        row["link_drops"] = (link_drops[-1][2] - link_drops[0][2]) if link_drops else None
        publisher = outputs.get("pub-" + name)
        if publisher is not None:
            stats = events(publisher, "stats", "publisher")
            before, after = at_or_before(stats, window_start), at_or_before(stats, lift_at)
            drops = lambda d: d.get("droppedVideoPackets", 0) + d.get("droppedAudioPackets", 0)
            row["pub_drops"] = drops(after) - drops(before)
            row["congestion"] = after.get("congestionEvents", 0) - before.get("congestionEvents", 0)
            row["abr"] = [(stamp - start, line["details"]) for stamp, line in events(publisher, "abr", "publisher")]
            row["reconnects"] = sum(1 for _, line in publisher if line.get("kind") == "action" and "new connection" in str(line.get("details")))
        subscriber = outputs.get("sub-" + name, [])
        sub_stats = events(subscriber, "stats", "subscriber")
        row.update(freeze(sub_stats, window_start, lift_at))
        # Back to >= 90 % of the nominal rate after the lift: the first 3 s (six samples) in a row at or above it.
        lifted = windows(series, lift_at, marks["down"][name])
        row["recover"] = None
        for index in range(len(lifted)):
            run = lifted[index:index + 6]
            if len(run) == 6 and all(rate >= 0.9 * NOMINAL for _, rate in run):
                row["recover"] = run[0][0] - 1.0 - lift_at
                break
        row["lifted_peak"] = max((r for _, r in lifted), default=None)
        row["trace"] = [rate_at(series, cap_at + step) for step in range(5, int(marks["up"][name] - cap_at) + 10, 5)]
        row["elevator_any"] = elevator(subscriber, sub_stats, marks["down"][name], marks["up"][name])
        row["elevator"] = first_new_frame(outputs.get("probe-" + name, []), marks["lift"][name], marks["down"][name], marks["up"][name])
        rows[name] = row
    return rows


def freeze(stats, begin, end):
    """Frames the subscriber did not decode in [begin, end] (30 fps expected) as time, and the longest gap seen:
    from its last stats line at or before `begin` to its last one at or before `end`. A window shorter than the
    stats interval (a late convergence, 1.6 s before the lift) still holds two lines that way; counting only the
    lines inside it gave none to compare, and a MISSED verdict on no measurement."""
    before = [(stamp, line["details"]) for stamp, line in stats if stamp <= begin][-1:]
    inside = before + [(stamp, line["details"]) for stamp, line in stats if begin < stamp <= end]
    if len(inside) < 2:
        return {"missing": None, "gap": None}
    (t0, d0), (t1, d1) = inside[0], inside[-1]
    decoded = d1.get("framesDecodedTotal", 0) - d0.get("framesDecodedTotal", 0)
    missing_seconds = max(0.0, (t1 - t0) - decoded / 30)
    longest = max(d.get("videoGapMs", 0) for _, d in inside)
    if d1.get("longestVideoGapMs", 0) > d0.get("longestVideoGapMs", 0):
        longest = max(longest, d1["longestVideoGapMs"])
    return {"missing": missing_seconds, "gap": longest, "decoded_fps": decoded / (t1 - t0)}


def elevator(lines, stats, down_at, up_at):
    """First frame decoded after link-up, in seconds after it: the gap the elevator opened started at the last
    frame before it (a stats line during the down phase: its time minus its open gap) and lasted the longest
    gap the subscriber reports once a frame closes it (its `longestVideoGapMs`): millisecond precision."""
    origin = session_origin(lines)
    if origin is None:
        return None
    during = [(stamp, line) for stamp, line in stats if down_at + 1 <= stamp <= up_at]
    if not during:
        return None
    stamp, line = max(during, key=lambda item: item[1]["details"].get("videoGapMs", 0))
    last_frame = origin + (line["time"] - line["details"].get("videoGapMs", 0)) / 1000
    longest_before = line["details"].get("longestVideoGapMs", 0)
    for stamp, line in stats:
        details = line["details"]
        if stamp > up_at and details.get("videoGapMs", 0) < 1000 and details.get("longestVideoGapMs", 0) > longest_before:
            return last_frame + details["longestVideoGapMs"] / 1000 - up_at
        if stamp > up_at and details.get("videoGapMs", 0) < 1000 and details.get("longestVideoGapMs", 0) == longest_before:
            # The gap closed without becoming the longest: only the stats tick bounds it.
            return stamp - up_at
    return None


def first_new_frame(lines, lift_at, down_at, up_at):
    """Seconds from link-up to the first video packet captured after it, as the server relays it: ffprobe's
    packet timestamps (pts) stamped with their arrival. The stream's clock is anchored in the uncapped time
    before the elevator (the least arrival - pts: the epoch plus the path's smallest latency), so a packet is
    new when epoch + pts >= link-up; after a timestamp jump back (a republish) every packet is new."""
    packets = []
    for stamp, text in lines:
        fields = text.split(",")
        try:
            packets.append((stamp, float(fields[0])))
        except (ValueError, IndexError):
            continue
    steady = [stamp - pts for stamp, pts in packets if lift_at + 10 <= stamp <= down_at]
    if not steady:
        return None
    offset = min(steady)
    previous = None
    restarted = False
    for stamp, pts in packets:
        if previous is not None and pts < previous - 1.0:
            restarted = True
        previous = pts
        if stamp > up_at and (restarted or pts + offset >= up_at):
            return stamp - up_at
    return None


def show(rows, load):
    kb = lambda v: "-" if v is None else f"{v / 1000:.0f}"
    sec = lambda v, never="never": never if v is None else f"{v:.1f}"
    print(f"abr: 1280x720 30 fps testsrc2 clip, 2500k ultrafast/zerolatency + AAC 128k; each publisher behind its own veth + tbf link")
    print(f"(kernel cap, same for all), into one {config['server'] == 'relay' and '`onair serve`' or 'nginx-rtmp'}; `onair subscribe --headless` per stream; load average {load}")
    print(f"timeline: uncapped, cap {CAP // 1000}k at {T['cap']} s for {T['lift'] - T['cap']} s, lifted, link down at {T['down']} s for "
          f"{T['up'] - T['down']} s (tbf ~0, sockets open), up; rates = bytes that passed the tbf per 1 s (IP + TCP headers included)")
    header = (f"{'publisher':11} {'capped kb/s':>11} {'<=90% cap after s':>17} {'link drops':>10} {'pub drops':>9} {'congest.':>8} "
              f"{'freeze s':>8} {'gap ms':>7} {'fps':>5} {'>=90% 2500k after s':>19} {'elevator s':>10} {'any fr. s':>9}")
    print(header)
    for name, r in rows.items():
        mark = "" if r["converge"] is not None else "*"
        print(f"{name + mark:11} {kb(r['capped_mean']):>11} {sec(r['converge']):>17} {str(r['link_drops'] if r['link_drops'] is not None else '-'):>10} "
              f"{str(r.get('pub_drops', '-') if r.get('pub_drops') is not None else '-'):>9} {str(r.get('congestion', '-') if r.get('congestion') is not None else '-'):>8} "
              f"{sec(r['missing'], '-'):>8} {str(r['gap'] if r['gap'] is not None else '-'):>7} {('%.1f' % r['decoded_fps']) if r.get('decoded_fps') else '-':>5} "
              f"{sec(r['recover']):>19} {sec(r['elevator'], 'none'):>10} {sec(r['elevator_any'], '-'):>9}")
    print("columns after the convergence point until the lift: link drops (tbf), pub drops (OnAir's own dropped packets; ffmpeg never")
    print("drops, it falls behind), congestion events, freeze = frames not decoded at 30 fps as time, gap = longest video gap seen")
    print("(freeze and gap from the subscriber's last stats line at or before the convergence point, so a late one is still measured);")
    print("* never converged: those columns cover the whole cap instead (from its second second to the lift).")
    print("elevator = first video frame captured after link-up reaching the server's players (ffprobe's timestamps there);")
    print("any fr. = first frame the subscriber decoded after link-up, whenever captured (from its gap figures).")
    for name, r in rows.items():
        share = "-" if r["under_share"] is None else f"{r['under_share'] * 100:.0f} %"
        print(f"{name}: {share} of the capped 1 s windows at <= 90 % of the cap; kbit/s every 5 s from the cap on: "
              + " ".join(kb(rate) for rate in r["trace"]))
    for name, r in rows.items():
        if r.get("abr"):
            steps = ", ".join(f"{t:.0f}s {d.get('oldBitrate', 0) // 1000}->{d.get('newBitrate', 0) // 1000}k {d.get('reason')}" for t, d in r["abr"][:12])
            print(f"{name} abr events ({len(r['abr'])}): {steps}{' …' if len(r['abr']) > 12 else ''}")
        if r.get("reconnects", 0) > 1:
            print(f"{name}: {r['reconnects'] - 1} reconnect(s)")
    verdict = lambda ok: "MET" if ok else "MISSED"
    for name, r in rows.items():
        converge_ok = r["converge"] is not None
        clean = converge_ok and (r.get("pub_drops") or 0) == 0 and (r["link_drops"] or 0) == 0 and (r["missing"] is not None and r["missing"] <= 0.2)
        print(f"{name}: sent rate stays <= 90 % of the cap: {verdict(converge_ok)} ({sec(r['converge'])} s); "
              f"no drops and no freeze after it (freeze <= 0.2 s): {verdict(clean)}; "
              f"back to >= 90 % of 2500k <= 30 s: {verdict(r['recover'] is not None and r['recover'] <= 30)}; "
              f"elevator first frame <= 1.5 s: {verdict(r['elevator'] is not None and r['elevator'] <= 1.5)}")


if __name__ == "__main__":
    try:
        rows = analyse(*run())
    finally:
        for _, process, _ in procs:
            if process.poll() is None:
                process.kill()
    show(rows, config["load"])
    json.dump(rows, open(f"{work}/rows.json", "w"), default=str, indent=1)
