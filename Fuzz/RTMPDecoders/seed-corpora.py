#!/usr/bin/env python3
"""Seeds the RTMP decoder fuzzers from the captured sessions in Tests/OnAirRTMPTests/Fixtures/.

usage: seed-corpora.py FIXTURES_DIR CORPUS_DIR

Writes CORPUS_DIR/chunk/ (each capture after its 3073-byte handshake, whole and in 4 KiB slices),
CORPUS_DIR/aggregate/ (every aggregate message body of the aggregate-*.chunks fixtures),
CORPUS_DIR/amf0/ (every AMF0 command / data message body), CORPUS_DIR/flv/ (one FLV file per capture
holding its audio, video and script-data messages, plus a short prefix of each) and CORPUS_DIR/resume/ (the
same FLV files for the recorder's append scan, plus recordings whose timestamps run to the 32-bit limit, as
the three-session `append` of GitHub issue 14 left them, and one with a torn last tag) and CORPUS_DIR/sps/ (the avcC
record of every AVC sequence header, and each SPS in it on its own) and CORPUS_DIR/wav/ (WAV files of every sample layout the
reader takes and a few it refuses) and CORPUS_DIR/y4m/ (Y4M clips of every colour space the reader takes and a
few it refuses) and CORPUS_DIR/decode/ (streams ffmpeg encodes, for FuzzPacketDecoder: decoder_seeds.py) and
CORPUS_DIR/relay/ (FuzzRelayConnection's scripts of whole sessions with the relay: relay_seeds.py) and
CORPUS_DIR/client/ (FuzzClientConnection's scripts of a server's side: client_seeds.py) and
CORPUS_DIR/demux/ (each capture's
data, media, command and aggregate messages in FuzzPlayerDemuxer's framing: a kind byte, a UInt16 length, the
body, cut to 64 KiB; plus hostile aggregates: wrapping and backward timestamps, zero-length tags, sizes past the
end, a wrong back pointer, a nested aggregate, 4096 and 4097 sub-messages). A deliberately small chunk
decoder: the captures are well-formed, it only has to follow Set Chunk Size and header compression.
"""
import os
import struct
import subprocess
import sys

sys.dont_write_bytecode = True     # no __pycache__ in the tree
from decoder_seeds import packet_decoder_inputs  # noqa: E402
from relay_seeds import relay_scripts  # noqa: E402
from client_seeds import client_scripts  # noqa: E402

HANDSHAKE = 1 + 1536 + 1536


def messages(data):
    pos, chunk_size, streams, out = 0, 128, {}, []
    while pos < len(data):
        first = data[pos]; pos += 1
        fmt, csid = first >> 6, first & 0x3F
        if csid == 0:
            csid = 64 + data[pos]; pos += 1
        elif csid == 1:
            csid = 64 + data[pos] + (data[pos + 1] << 8); pos += 2
        s = streams.setdefault(csid, {"ts": 0, "len": 0, "type": 0, "sid": 0, "ext": False, "body": b""})
        if fmt <= 2:
            ts = int.from_bytes(data[pos:pos + 3], "big"); pos += 3
            if fmt <= 1:
                s["len"] = int.from_bytes(data[pos:pos + 3], "big"); s["type"] = data[pos + 3]; pos += 4
            if fmt == 0:
                s["sid"] = struct.unpack("<I", data[pos:pos + 4])[0]; pos += 4
            s["ext"] = ts == 0xFFFFFF
            if s["ext"]:
                ts = int.from_bytes(data[pos:pos + 4], "big"); pos += 4
            s["ts"] = ts if fmt == 0 else s["ts"] + ts
        elif s["ext"]:
            pos += 4
        take = min(chunk_size, s["len"] - len(s["body"]))
        if pos + take > len(data):
            break
        s["body"] += data[pos:pos + take]; pos += take
        if len(s["body"]) == s["len"]:
            out.append((s["type"], s["ts"], s["body"]))
            if s["type"] == 1:
                chunk_size = int.from_bytes(s["body"][:4], "big") & 0x7FFFFFFF
            s["body"] = b""
    return out


def flv(msgs):
    out = bytearray(b"FLV\x01\x05\x00\x00\x00\x09" + b"\x00\x00\x00\x00")
    for type_id, ts, body in msgs:
        if type_id not in (8, 9, 18):
            continue
        out += bytes([type_id]) + len(body).to_bytes(3, "big") + (ts & 0xFFFFFF).to_bytes(3, "big")
        out += bytes([(ts >> 24) & 0xFF]) + b"\x00\x00\x00" + body + (11 + len(body)).to_bytes(4, "big")
    return bytes(out)


def video_tag(ts, key=True, size=16):
    body = bytes([(0x10 if key else 0x20) | 7, 1, 0, 0, 0]) + bytes(size)
    return bytes([9]) + len(body).to_bytes(3, "big") + (ts & 0xFFFFFF).to_bytes(3, "big") + bytes([(ts >> 24) & 0xFF]) \
        + b"\x00\x00\x00" + body + (11 + len(body)).to_bytes(4, "big")


def sps_units(record):
    """The SPS NAL units of an avcC record (ISO/IEC 14496-15 §5.2.4.1); what a truncated one holds."""
    out, pos = [], 6
    for _ in range(record[5] & 0x1F if len(record) > 5 else 0):
        if pos + 2 > len(record):
            break
        length = int.from_bytes(record[pos:pos + 2], "big")
        out.append(record[pos + 2:pos + 2 + length])
        pos += 2 + length
    return out


def demux(msgs, limit=65536):
    """Messages as FuzzPlayerDemuxer reads them: kind (0 data, 1 video, 2 audio, 3 command, 4 aggregate), UInt16
    length, body."""
    kinds = {18: 0, 9: 1, 8: 2, 20: 3, 22: 4}
    out = bytearray()
    for type_id, _, body in msgs:
        if type_id not in kinds:
            continue
        body = body[:0xFFFF]
        if len(out) + 3 + len(body) > limit:
            break
        out += bytes([kinds[type_id]]) + len(body).to_bytes(2, "big") + body
    return bytes(out)


def sub_message(type_id, ts, body=b"", back=None):
    """One sub-message of an aggregate (RTMP spec §7.1.6): an FLV tag header, the body, the back pointer."""
    return bytes([type_id]) + len(body).to_bytes(3, "big") + (ts & 0xFFFFFF).to_bytes(3, "big") + bytes([(ts >> 24) & 0xFF]) \
        + b"\x00\x00\x00" + body + (11 + len(body) if back is None else back).to_bytes(4, "big")


def hostile_aggregates():
    """Aggregate bodies a hostile server might send a player, in FuzzPlayerDemuxer's framing (kind 254 is an
    aggregate at 0xFE000000 + position, so the renormalised times wrap past 2^32)."""
    def frame(body, kind=254):
        return bytes([kind]) + len(body).to_bytes(2, "big") + body
    avc_header = bytes([0x17, 0, 0, 0, 0, 1, 0x42, 0, 0x1E, 0xFF, 0xE0, 0])
    keyframe = bytes([0x17, 1, 0, 0, 0, 0, 0, 0, 2, 0x65, 0x88])
    yield "agg-wrap", frame(sub_message(9, 0xFFFFFFF0, avc_header) + sub_message(9, 0x10, keyframe) + sub_message(8, 0xFFFFFFFF, b"\xaf\x01\x21"))
    yield "agg-backwards", frame(sub_message(9, 1000, keyframe) + sub_message(9, 0, keyframe))
    yield "agg-zero-length", frame(b"".join(sub_message(t, 0) for t in (8, 9, 18, 20, 1, 4, 0)))
    yield "agg-past-end", frame(sub_message(9, 0, keyframe)[:11] + b"\x00\x00")
    yield "agg-size-lie", frame(bytes([9]) + (0xFFFFFF).to_bytes(3, "big") + bytes(7) + keyframe + (22).to_bytes(4, "big"))
    yield "agg-back-pointer", frame(sub_message(9, 0, keyframe, back=11) + sub_message(8, 0, b"\xaf\x01"))
    yield "agg-nested", frame(sub_message(22, 0, sub_message(9, 0, keyframe)))
    yield "agg-count-limit", frame(sub_message(8, 0) * 4096, kind=4)
    yield "agg-count-over", frame(sub_message(8, 0) * 4097, kind=4)


def hostile_recordings():
    header = b"FLV\x01\x01\x00\x00\x00\x09" + b"\x00\x00\x00\x00"
    poisoned = [0, 0x7FFFFFFF, 0x7FFFFFFF + 1000, 0x7FFFFFFF + 1000 + 2147482149]
    yield "poisoned", header + b"".join(video_tag(t) for t in poisoned)
    yield "at-limit", header + video_tag(0) + video_tag(0xFFFFFFF0) + video_tag(0xFFFFFFFF)
    yield "backwards", header + video_tag(0xFFFFFFFF) + video_tag(0) + video_tag(0x80000000)
    yield "torn", header + video_tag(0) + video_tag(33)[:-7]


def wav_files():
    """Small WAV files of every sample layout FuzzWAVReader's reader takes, and a few it refuses: (name, bytes)."""
    import math

    def riff(fmt, data, extra=b""):
        body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + extra + b"data" + struct.pack("<I", len(data)) + data
        return b"RIFF" + struct.pack("<I", len(body)) + body

    def fmt(tag, channels, rate, bits, align, extensible_tag=None):
        plain = struct.pack("<HHIIHH", tag, channels, rate, rate * align, align, bits)
        if extensible_tag is None:
            return plain
        guid = struct.pack("<H", extensible_tag) + bytes([0, 0, 0, 0, 0x10, 0, 0x80, 0, 0, 0xAA, 0, 0x38, 0x9B, 0x71])
        return plain + struct.pack("<HHI", 22, bits, 3 if channels == 2 else 4) + guid

    wave = [math.sin(i / 7.0) * (1.2 if i % 50 == 0 else 0.8) for i in range(96)]
    def ints(width, unsigned=False):
        out = b""
        for v in wave:
            scaled = max(-1.0, min(1.0, v))
            value = int(scaled * (2 ** (width * 8 - 1) - 1))
            out += (value + 128).to_bytes(1, "little") if unsigned else value.to_bytes(width, "little", signed=True)
        return out
    floats32 = b"".join(struct.pack("<f", v) for v in wave)
    floats64 = b"".join(struct.pack("<d", v) for v in wave)
    listing = b"LIST" + struct.pack("<I", 4) + b"INFO"
    yield "u8-mono", riff(fmt(1, 1, 8000, 8, 1), ints(1, unsigned=True))
    yield "s16-stereo-list", riff(fmt(1, 2, 44100, 16, 4), ints(2), listing)
    yield "s24-stereo-ext", riff(fmt(0xFFFE, 2, 48000, 24, 6, extensible_tag=1), ints(3))
    yield "s32-mono", riff(fmt(1, 1, 96000, 32, 4), ints(4))
    yield "f32-stereo", riff(fmt(3, 2, 48000, 32, 8), floats32)
    yield "f64-mono-ext", riff(fmt(0xFFFE, 1, 22050, 64, 8, extensible_tag=3), floats64)
    yield "odd-data-length", riff(fmt(1, 2, 48000, 16, 4), ints(2) + b"\x01")
    yield "six-channels", riff(fmt(1, 6, 48000, 16, 12), ints(2) * 3)
    yield "zero-align", riff(fmt(1, 2, 48000, 16, 0), ints(2))


def y4m_files():
    """Small Y4M clips of every colour space FuzzY4MReader's reader takes, and a few it refuses: (name, bytes)."""
    layouts = {  # tag: (bytes per sample, chroma shift x, chroma shift y, planes)
        "420jpeg": (1, 1, 1, 3), "420paldv": (1, 1, 1, 3), "422": (1, 1, 0, 3), "444": (1, 0, 0, 3),
        "444alpha": (1, 0, 0, 4), "mono": (1, 0, 0, 1), "mono16": (2, 0, 0, 1), "420p10": (2, 1, 1, 3),
        "422p12": (2, 1, 0, 3), "444p10": (2, 0, 0, 3),
    }

    def frame_bytes(tag, width, height):
        size, sx, sy, planes = layouts[tag]
        cw, ch = (width + (1 << sx) - 1) >> sx, (height + (1 << sy) - 1) >> sy
        return (width * height + (2 * cw * ch if planes >= 3 else 0) + (width * height if planes == 4 else 0)) * size

    def clip(tag, width, height, frames, extra=""):
        header = f"YUV4MPEG2 W{width} H{height} F30:1 Ip A1:1 C{tag}{extra}\n".encode()
        count = frame_bytes(tag, width, height)
        return header + b"".join(b"FRAME\n" + bytes((i * 7 + n) & 0xFF for i in range(count)) for n in range(frames))

    for tag in layouts:
        yield f"{tag}-8x6", clip(tag, 8, 6, 2)
    yield "420-odd-5x3", clip("420jpeg", 5, 3, 3)
    yield "xtag", clip("420jpeg", 4, 4, 1, " XYSCSS=420JPEG")
    yield "no-colour-tag", clip("420jpeg", 4, 4, 2).replace(b" C420jpeg", b"")
    yield "interlaced", clip("420jpeg", 4, 4, 1).replace(b" Ip", b" It")
    yield "frame-params", clip("420jpeg", 4, 4, 1).replace(b"FRAME\n", b"FRAME Ixyz\n")
    yield "short-frame", clip("422", 8, 6, 1)[:-5]


def camera_buffers():
    """A driver's answers for FuzzCameraConverter: (name, format byte, width, height, stride, buffer)."""
    def answer(fmt, width, height, stride, buffer):
        return bytes([fmt]) + struct.pack("<HHH", width, height, stride) + struct.pack("<I", len(buffer))[:3] + buffer

    def ramp(count):
        return bytes((i * 7 + 16) & 0xFF for i in range(count))

    cw = lambda w: (w + 1) // 2
    ch = lambda h: (h + 1) // 2
    yield "yuyv-16x8", answer(0, 16, 8, 32, ramp(32 * 8))
    yield "yuyv-18x4-padded", answer(0, 18, 4, 48, ramp(48 * 4))
    yield "yuyv-5x3", answer(0, 5, 3, 12, ramp(12 * 3))
    yield "nv12-34x6", answer(1, 34, 6, 34, ramp(34 * 6 + 34 * 3))
    yield "nv12-5x3", answer(1, 5, 3, 6, ramp(6 * 3 + 6 * 2))
    yield "yu12-16x8", answer(2, 16, 8, 16, ramp(16 * 8 + 2 * 8 * 4))
    yield "yu12-6x4-stride8", answer(2, 6, 4, 8, ramp(8 * 4 + 2 * 4 * 2))
    yield "yuyv-short-lines", answer(0, 16, 8, 16, ramp(16 * 8))
    yield "nv12-short-buffer", answer(1, 16, 8, 16, ramp(100))
    yield "yuyv-1280x720-from-16-bytes", bytes([0]) + struct.pack("<HHH", 1280 % 512, 720 % 512, 2 * (1280 % 512)) \
        + struct.pack("<I", 2 * (1280 % 512) * (720 % 512))[:3] + ramp(16)
    try:
        jpeg = subprocess.run(
            ["ffmpeg", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=16x8:rate=1",
             "-frames:v", "1", "-f", "mjpeg", "-"], capture_output=True, check=True).stdout
        yield "mjpeg-16x8", answer(3, 16, 8, 0, jpeg)
        yield "mjpeg-16x8-as-32x16", answer(3, 32, 16, 0, jpeg)
    except (OSError, subprocess.CalledProcessError):
        pass   # no ffmpeg: the fuzzer finds JPEG's markers slower, from the others


def write_seeds(corpus, sub, seeds):
    """Writes (stem, bytes) pairs as CORPUS/SUB/STEM."""
    os.makedirs(os.path.join(corpus, sub), exist_ok=True)
    for stem, data in seeds:
        with open(os.path.join(corpus, sub, stem), "wb") as f:
            f.write(data)


def main(fixtures, corpus):
    try:
        write_seeds(corpus, "decode", packet_decoder_inputs())
    except (OSError, subprocess.CalledProcessError):
        pass   # no ffmpeg (or no libx264): FuzzPacketDecoder starts from what it has, and finds little
    write_seeds(corpus, "relay", relay_scripts())
    write_seeds(corpus, "client", client_scripts())
    write_seeds(corpus, "camera", camera_buffers())
    write_seeds(corpus, "y4m", y4m_files())
    write_seeds(corpus, "wav", wav_files())
    write_seeds(corpus, "resume", hostile_recordings())
    for sub in ("chunk", "amf0", "flv", "sps", "demux"):
        os.makedirs(os.path.join(corpus, sub), exist_ok=True)
    write_seeds(corpus, "demux", hostile_aggregates())
    os.makedirs(os.path.join(corpus, "aggregate"), exist_ok=True)
    for name in sorted(os.listdir(fixtures)):
        if name.endswith(".chunks"):        # aggregate fixtures: a chunk stream without a handshake
            with open(os.path.join(fixtures, name), "rb") as f:
                stream = f.read()
            with open(os.path.join(corpus, "chunk", name[:-7] + "-all"), "wb") as f:
                f.write(stream)
            with open(os.path.join(corpus, "demux", name[:-7] + "-all"), "wb") as f:
                f.write(demux(messages(stream)))
            for i, (type_id, _, body) in enumerate(messages(stream)):
                if type_id == 22:
                    with open(os.path.join(corpus, "aggregate", f"{name[:-7]}-{i}"), "wb") as f:
                        f.write(body)
            continue
        if not name.endswith(".bin"):
            continue
        stem = name[:-4]
        with open(os.path.join(fixtures, name), "rb") as f:
            stream = f.read()[HANDSHAKE:]
        def write(sub, suffix, data):
            with open(os.path.join(corpus, sub, f"{stem}-{suffix}"), "wb") as f:
                f.write(data)
        write("chunk", "all", stream)
        for i in range(0, len(stream), 4096):
            write("chunk", f"at{i}", stream[i:i + 4096])
        msgs = messages(stream)
        for i, (type_id, _, body) in enumerate(msgs):
            if type_id in (18, 20):
                write("amf0", f"msg{i}", body)
            if type_id == 9 and len(body) > 5 and body[0] & 0x0F == 7 and body[1] == 0:
                write("sps", f"avcc{i}", body[5:])
                for j, sps in enumerate(sps_units(body[5:])):
                    write("sps", f"sps{i}-{j}", sps)
        write("demux", "all", demux(msgs))
        whole = flv(msgs)
        write("flv", "all", whole)
        write("flv", "head", whole[:8192])
        write("resume", "all", whole)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
