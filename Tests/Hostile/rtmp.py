"""A deliberately small raw-socket RTMP client for the hostile-client suite (GitHub issue 14).

Only what the attacks and the healthy publisher/player need: the simple handshake (RTMP spec §5.2),
format-0/3 chunking (§5.3), AMF0 commands (§7.2) and FLV-style video payloads. No validation of what the
server sends back beyond what a step waits for: an attacker does not care, and the healthy player only counts.
"""
import os
import socket
import struct
import time


def amf_number(value):
    return b"\x00" + struct.pack(">d", float(value))


def amf_string(text):
    data = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text
    return b"\x02" + struct.pack(">H", len(data)) + data


def amf_null():
    return b"\x05"


def amf_object(fields):
    out = b"\x03"
    for key, value in fields.items():
        k = key.encode()
        out += struct.pack(">H", len(k)) + k + value
    return out + b"\x00\x00\x09"


def command(name, transaction, *args, obj=None):
    return amf_string(name) + amf_number(transaction) + (obj if obj is not None else amf_null()) + b"".join(args)


def chunks(csid, type_id, msid, timestamp, payload, chunk_size):
    """Format 0 then format 3 chunks; extended timestamp repeated on every chunk (§5.3.1.3)."""
    extended = timestamp >= 0xFFFFFF
    field = 0xFFFFFF if extended else timestamp
    ext = struct.pack(">I", timestamp & 0xFFFFFFFF) if extended else b""
    out = bytearray()
    out += bytes([csid & 0x3F]) + field.to_bytes(3, "big") + len(payload).to_bytes(3, "big") + bytes([type_id])
    out += struct.pack("<I", msid) + ext
    offset = 0
    while True:
        out += payload[offset:offset + chunk_size]
        offset += chunk_size
        if offset >= len(payload):
            break
        out += bytes([0xC0 | (csid & 0x3F)]) + ext
    return bytes(out)


def video_payload(index, size, keyframe):
    head = bytes([0x17 if keyframe else 0x27, 1, 0, 0, 0]) + struct.pack(">I", index)
    return head + bytes([index & 0xFF]) * max(0, size - len(head))


class Connection:
    """One RTMP connection: handshake and connect done in the constructor unless told otherwise."""

    CHUNK = 60000

    def __init__(self, port, app="live", connect=True, timeout=10, source="127.0.0.1", receive_buffer=None):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if receive_buffer:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)   # before connect: sets the window
        self.sock.settimeout(timeout)
        self.sock.bind((source, 0))
        self.sock.connect(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.port = port
        self.app = app
        self.handshake()
        if connect:
            self.connect()

    def recv_exact(self, count):
        data = b""
        while len(data) < count:
            part = self.sock.recv(count - len(data))
            if not part:
                raise ConnectionError("closed during handshake")
            data += part
        return data

    def handshake(self):
        c1 = struct.pack(">II", int(time.time()) & 0xFFFFFFFF, 0) + os.urandom(1528)
        self.sock.sendall(b"\x03" + c1)
        s0s1 = self.recv_exact(1 + 1536)
        self.sock.sendall(s0s1[1:])          # C2 echoes S1
        self.recv_exact(1536)                 # S2

    def send(self, data):
        self.sock.sendall(data)

    def message(self, type_id, payload, msid=0, timestamp=0, csid=3):
        return chunks(csid, type_id, msid, timestamp, payload, self.CHUNK)

    def connect(self):
        set_chunk = chunks(2, 1, 0, 0, struct.pack(">I", self.CHUNK), 128)
        obj = amf_object({"app": amf_string(self.app), "tcUrl": amf_string(f"rtmp://127.0.0.1:{self.port}/{self.app}"),
                          "type": amf_string("nonprivate"), "flashVer": amf_string("FMLE/3.0")})
        self.send(set_chunk + self.message(20, command("connect", 1, obj=obj)))

    def create_stream(self, transaction=2):
        self.send(self.message(20, command("createStream", transaction)))

    def publish(self, name, kind="live", msid=1):
        self.send(self.message(20, command("publish", 0, amf_string(name), amf_string(kind)), msid=msid, csid=8))

    def play(self, name, msid=1):
        self.send(self.message(20, command("play", 0, amf_string(name)), msid=msid, csid=8))

    def video(self, timestamp, payload, msid=1):
        self.send(chunks(6, 9, msid, timestamp, payload, self.CHUNK))

    def unpublish(self, name, msid=1):
        self.send(self.message(20, command("FCUnpublish", 0, amf_string(name)))
                  + self.message(20, command("deleteStream", 0, amf_number(msid))))

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass
