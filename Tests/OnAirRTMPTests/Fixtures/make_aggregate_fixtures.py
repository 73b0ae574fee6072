#!/usr/bin/env python3
"""Writes the aggregate-message fixtures (see README.md) from aggregate-source.flv.

Each output is the chunk stream a Red5/Wowza-style server sends a player after the handshake: Set Chunk
Size 4096 on chunk stream 2, then every tag of the FLV packed into aggregate messages (RTMP spec §7.1.6,
type 22) of up to 5 tags each on chunk stream 6, message stream 1, each sub-message followed by its back
pointer (11 + DataSize).

  relative: inner timestamps count from the first tag of each aggregate (an audio tag older than the
            video before it wraps below 0, modulo 2^32); the aggregate carries the first tag's time.
  absolute: inner timestamps are the stream's own (as Wowza writes them), shifted by 0x01000000 ms so
            that the inner TimestampExtended byte and the chunk header's Extended Timestamp are used.
Written independently of OnAir's Swift encoder, so the decoder is tested against bytes it did not make.
"""
import struct, sys

CHUNK = 4096
OFFSET = 0x01000000

def flv_tags(path):
    data = open(path, 'rb').read()
    pos = struct.unpack('>I', data[5:9])[0] + 4
    while pos + 11 <= len(data):
        kind = data[pos]; size = int.from_bytes(data[pos+1:pos+4], 'big')
        ts = int.from_bytes(data[pos+4:pos+7], 'big') | data[pos+7] << 24
        yield kind, ts, data[pos+11:pos+11+size]
        pos += 11 + size + 4

def chunks(csid, ts, type_id, msid, payload):
    ext = ts >= 0xFFFFFF
    out = bytes([csid]) + (0xFFFFFF if ext else ts).to_bytes(3, 'big') + len(payload).to_bytes(3, 'big') \
        + bytes([type_id]) + struct.pack('<I', msid) + (struct.pack('>I', ts) if ext else b'')
    for i in range(0, len(payload), CHUNK):
        if i: out += bytes([0xC0 | csid]) + (struct.pack('>I', ts) if ext else b'')
        out += payload[i:i+CHUNK]
    return out

def sub(kind, ts, body):
    return bytes([kind]) + len(body).to_bytes(3, 'big') + (ts & 0xFFFFFF).to_bytes(3, 'big') + bytes([ts >> 24]) \
        + b'\0\0\0' + body + struct.pack('>I', 11 + len(body))

def stream(style):
    tags = list(flv_tags('aggregate-source.flv'))
    out = chunks(2, 0, 1, 0, struct.pack('>I', CHUNK))
    for i in range(0, len(tags), 5):
        group = tags[i:i+5]
        first = group[0][1]
        if style == 'relative':
            body = b"".join(sub(k, (t - first) & 0xFFFFFFFF, b) for k, t, b in group); stamp = first
        else:
            body = b''.join(sub(k, t + OFFSET, b) for k, t, b in group); stamp = first + OFFSET
        out += chunks(6, stamp, 22, 1, body)
    return out

for style in ('relative', 'absolute'):
    open(f'aggregate-{style}-server-to-client.chunks', 'wb').write(stream(style))
