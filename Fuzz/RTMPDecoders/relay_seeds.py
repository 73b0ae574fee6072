"""Seed scripts for FuzzRelayConnection (its step table is in FuzzRelayConnection.swift).

Each seed is a session a real publisher and players would have with the relay — handshake, connect,
createStream, publish or play, sequence headers, media, the clock moving on — so the fuzzer starts from the
relay's deep states (fan-out, GOP cache, recording, slow players, interruptions) rather than from the
handshake. Called by seed-corpora.py.
"""
import struct

SPS = bytes.fromhex("6742c01e95a0a0fd0080")
PPS = bytes.fromhex("68ce3c80")


def step(action, argument=0):
    return bytes([(argument << 3) | action])


def open_peer(address=0):
    return step(0, address)


def quick_start(peer):
    return step(2, peer)


def template(peer, which, name=0, number=0):
    return step(4, peer) + bytes([which, name, number & 0xFF])


def publish(peer, name=0, kind=0):
    return template(peer, 2, name, kind)


def play(peer, name=0, start=-2):
    return template(peer, 3, name, start)


def clock(amount):
    return step(6) + bytes([amount])


def misc(peer, choice):
    return step(7, peer) + bytes([choice])


def pad4(body):
    return body + bytes(-len(body) % 4)


def media(peer, kind, time, body=b""):
    body = pad4(body)[:1020]
    return step(5, peer) + bytes([kind]) + struct.pack(">H", time) + bytes([len(body) // 4]) + body


def message(peer, type_id, payload, chunk_stream=3, stream=0, time=0):
    return step(3, peer) + bytes([chunk_stream, type_id, stream]) + struct.pack(">HH", time, len(payload)) + payload


def avc_header(peer, time=0):
    # kind 0 carries avcC's first six bytes; the body is the rest: SPS length and SPS, PPS count, length, PPS.
    rest = struct.pack(">H", len(SPS)) + SPS + b"\x01" + struct.pack(">H", len(PPS)) + PPS
    return media(peer, 0, time, rest)


def gop(peer, start, frames=6, size=40):
    out = media(peer, 1, start, struct.pack(">I", size) + b"\x65" + bytes(size - 1))
    for k in range(1, frames):
        out += media(peer, 2, start + k * 4, struct.pack(">I", size // 2) + b"\x41" + bytes(size // 2 - 1))
        out += media(peer, 6, start + k * 4 + 1, bytes(24))
    return out


def publisher_and_player(options, name=0, kind=0):
    script = bytes([options]) + open_peer(0) + open_peer(1) + quick_start(0) + quick_start(1)
    script += publish(0, name, kind) + play(1, name)
    script += avc_header(0) + media(0, 5, 0) + gop(0, 1) + clock(10) + gop(0, 40) + clock(80)
    return script


def relay_scripts():
    seeds = {}
    for options in (0x00, 0x10, 0x20, 0x30):
        seeds[f"play-{options:02x}"] = publisher_and_player(options)
    seeds["key"] = publisher_and_player(0x01, name=2)
    for options, kind in ((0x02, 1), (0x02, 2), (0x06, 0), (0x0A, 1)):
        script = publisher_and_player(options, kind=kind)
        # unpublish, publish again (append resumes the recording), a late player gets the GOP cache
        script += template(0, 4, 0, 1) + clock(20) + quick_start(2) + open_peer(2) + quick_start(2)
        script += publish(2, 0, kind) + avc_header(2, 300) + gop(2, 310) + open_peer(3) + quick_start(3) + play(3)
        script += clock(255) + gop(2, 900)
        seeds[f"record-{options:02x}-{kind}"] = script
    slow = publisher_and_player(0x50) + misc(1, 1)
    for k in range(12):
        slow += gop(0, 100 + 30 * k, size=1000) + clock(3)
    seeds["slow-player"] = slow + misc(1, 2) + gop(0, 600) + clock(100)
    # closed while its socket holds bytes: by the player (EOF, then with no event first), by a restart
    seeds["slow-player-closes"] = slow + misc(1, 0) + gop(0, 600) + clock(100)
    seeds["slow-player-drops"] = slow + misc(1, 8) + gop(0, 600) + clock(100)
    seeds["slow-player-restart"] = slow + misc(0, 3 + 8 * 10) + clock(100)
    # the socket drains with no event (under the water mark), then the connection closes: counted only if the
    # relay asks NIO before the close (its own close, or the read-complete NIO fires before closing on an EOF)
    held = publisher_and_player(0x50) + misc(1, 1) + gop(0, 100, size=1000)
    seeds["drained-then-eof"] = held + misc(1, 2) + misc(1, 0) + clock(100)
    # the publisher leaves first (its close writes the player a status), so the restart closes the player alone
    seeds["drained-then-restart"] = held + misc(0, 0) + misc(1, 2) + misc(0, 3 + 8 * 10) + clock(100)
    for choice in (3 + 8 * 10, 4 + 8 * 10, 5 + 8 * 10, 6):
        script = publisher_and_player(0x10) + misc(0, choice) + gop(0, 200) + clock(30)
        script += open_peer(2) + quick_start(2) + publish(2) + gop(2, 260) + clock(255)
        seeds[f"interrupt-{choice}"] = script
    controls = publisher_and_player(0x10)
    controls += message(0, 1, struct.pack(">I", 60), chunk_stream=2) + gop(0, 300)       # Set Chunk Size 60
    controls += message(0, 2, struct.pack(">I", 6), chunk_stream=2)                      # Abort
    controls += message(0, 3, struct.pack(">I", 5000), chunk_stream=2)                   # Acknowledgement
    controls += message(0, 4, struct.pack(">HI", 6, 1234), chunk_stream=2)               # Ping request
    controls += message(0, 5, struct.pack(">I", 1000), chunk_stream=2)                   # Window size
    controls += message(1, 6, struct.pack(">IB", 1000, 2), chunk_stream=2)               # Peer bandwidth
    controls += message(0, 18, b"\x02\x00\x0d@setDataFrame\x02\x00\x0aonMetaData\x08\x00\x00\x00\x00\x00\x00\x09")
    seeds["controls"] = controls
    tag = bytes([9]) + (25).to_bytes(3, "big") + (500).to_bytes(3, "big") + b"\x00\x00\x00\x00" + b"\x27\x01" + bytes(23)
    aggregate = tag + struct.pack(">I", len(tag))
    seeds["aggregate"] = publisher_and_player(0x10) + message(0, 22, aggregate * 3, chunk_stream=6, stream=0)
    names = bytes([0x10]) + open_peer(0) + open_peer(1) + quick_start(0) + quick_start(1)
    for name in (4, 5, 6, 7, 3):
        names += publish(0, name) + play(1, name) + template(0, 6, name) + template(0, 8, name, 3)
    seeds["names"] = names + template(1, 11, 6, 9) + template(1, 9, 0, -1) + template(1, 7)
    twice = publisher_and_player(0x10) + open_peer(2) + quick_start(2) + publish(2) + gop(2, 50)
    seeds["taken-name"] = twice + misc(0, 0) + publish(2) + gop(2, 90) + clock(100)
    crowd = bytes([0x10]) + open_peer(0) + quick_start(0) + publish(0)
    for peer in range(1, 8):
        crowd += open_peer(peer % 4) + quick_start(peer) + play(peer)
    seeds["crowd"] = crowd + avc_header(0) + gop(0, 1) + misc(3, 0) + gop(0, 30) + clock(255) + clock(255)
    return sorted(seeds.items())
