"""Seeds for FuzzPacketDecoder (imported by seed-corpora.py): real, decodable streams made by ffmpeg (libx264,
the AAC and MP3 encoders, PCM and G.711), in the input format FuzzPacketDecoder.swift's header describes.

libavcodec is not instrumented, so the fuzzer only sees Swift coverage: it cannot grow a decodable H.264 stream
from noise. Each seed is therefore a stream the decoders really decode: H.264 at tiny and cropped sizes in every
chroma layout and depth the subscriber may meet (4:2:0, full-range 4:2:0, 4:2:2, 4:4:4, grey, 10-bit), B-frames
(reordering, composition offsets, drains), a picture size that changes mid-stream (a new avcC record, and an
in-band SPS), pictures carrying the test pattern's frame marker (one whose band is the whole picture), and AAC,
MP3, PCM and G.711 audio at odd rates in one and two channels, with pauses, drains and reconfigurations between.
The video is muxed to FLV by ffmpeg and read back tag by tag, so NAL lengths, keyframe flags and composition
offsets are what a server sends. Without ffmpeg there are no seeds (the other targets' seeds do not need it).
"""
import struct
import subprocess

VIDEO_KEY = 0x80
CODECS = {"aac": 0, "mp3": 1, "pcm8": 2, "pcm16": 3, "alaw": 4, "mulaw": 5, "none": 6}
MAX_STEPS = 64


def ffmpeg(*args, stdin=None):
    return subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", *args, "-"], input=stdin,
                          capture_output=True, check=True).stdout


def flv_tags(data):
    """(type, timestamp, body) of each tag of an FLV file."""
    pos = 9 + 4
    while pos + 11 <= len(data):
        kind, size = data[pos], int.from_bytes(data[pos + 1:pos + 4], "big")
        ts = int.from_bytes(data[pos + 4:pos + 7], "big") | data[pos + 7] << 24
        yield kind, ts, data[pos + 11:pos + 11 + size]
        pos += 11 + size + 4


def video_block(record):
    return struct.pack("<H", len(record)) + record


def audio_spec(codec, rate=0, channels=0, config=b""):
    return bytes([CODECS[codec]]) + struct.pack("<I", rate)[:3] + bytes([channels, len(config)]) + config


class Script:
    """One input: the header's flags, preview size and tracks, then steps (each already in the wire format)."""

    def __init__(self, full=False, preview=None):
        self.flags = (1 if full else 0) | (2 if preview else 0)
        self.preview = preview or (0, 0)
        self.video, self.audio, self.steps, self.last = None, None, [], 0

    def delta(self, ts):
        step = max(0, min(0xFFFF, ts - self.last))
        self.last = max(self.last, ts)
        return step

    def flv(self, data, audio=None, rebase=0):
        """The tags of an FLV stream as steps: sequence headers become tracks (the header's, or a new track
        after it), media tags packets. `audio` describes a non-AAC track (its FLV format byte says little)."""
        for kind, ts, body in flv_tags(data):
            ts += rebase
            if kind == 9 and len(body) > 5 and body[0] & 0x0F == 7:
                if body[1] == 0:
                    if self.video is None:
                        self.video = body[5:]
                    else:
                        self.steps.append(b"\x04" + video_block(body[5:]))
                elif body[1] == 1:
                    cts = int.from_bytes(body[2:5], "big", signed=True)
                    self.video_packet(ts, body[5:], key=body[0] >> 4 == 1, cts=cts)
            elif kind == 8 and body:
                if body[0] >> 4 == 10:
                    if body[1:2] == b"\x00":
                        self.set_audio(audio_spec("aac", config=body[2:]))
                    elif body[1:2] == b"\x01":
                        self.audio_packet(ts, body[2:])
                else:
                    if self.audio is None and audio:
                        self.set_audio(audio)
                    self.audio_packet(ts, body[1:])

    def set_audio(self, spec):
        if self.audio is None:
            self.audio = spec
        else:
            self.steps.append(b"\x05" + spec)

    def video_packet(self, ts, payload, key, cts=0):
        self.steps.append(bytes([VIDEO_KEY if key else 0]) + struct.pack("<HhH", self.delta(ts), cts, len(payload)) + payload)

    def audio_packet(self, ts, payload):
        self.steps.append(b"\x03" + struct.pack("<HH", self.delta(ts), len(payload)) + payload)

    def bytes(self):
        head = bytes([self.flags, *self.preview]) + video_block(self.video or b"") + (self.audio or audio_spec("none"))
        return head + b"".join(self.steps[:MAX_STEPS])


def h264(size, pix_fmt="yuv420p", frames=6, extra=(), source=None, rate=10):
    """An FLV of libx264 video: testsrc2, or raw yuv420p frames (`source`) at `size`."""
    if source is None:
        inputs = ["-f", "lavfi", "-i", f"testsrc2=size={size}:rate={rate}"]
    else:
        inputs = ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", size, "-r", str(rate), "-i", "-"]
    return ffmpeg(*inputs, "-frames:v", str(frames), "-pix_fmt", pix_fmt, "-c:v", "libx264", "-preset", "ultrafast",
                  "-x264-params", "keyint=3", *extra, "-f", "flv", stdin=source)


def audio(codec_args, rate, channels, seconds=0.3, fmt="flv", tone_gap=False):
    expression = "0.25*sin(2*PI*440*t)" + ("*gt(abs(t-0.2)\\,0.005)" if tone_gap else "")
    return ffmpeg("-f", "lavfi", "-i", f"aevalsrc={expression}:s={rate}:d={seconds}", "-ac", str(channels), *codec_args, "-f", fmt)


def marker_frames(width, height, count):
    """yuv420p frames with the test pattern's frame marker (FrameMarker.swift) over the top band, grey below."""
    band = max(4, height // 45) & ~1
    chroma = ((width + 1) // 2) * ((height + 1) // 2)
    out = b""
    for number in range(count):
        payload = number << 38 | 1 << 37 | number * 100_000       # a stream clock, 0.1 s a frame
        crc = 0xFFFF
        for index in reversed(range(62)):
            top = crc >> 15 & 1
            crc = crc << 1 & 0xFFFF
            if top ^ (payload >> index & 1):
                crc ^= 0x1021
        blocks = [True, False] + [payload >> (61 - i) & 1 == 1 for i in range(62)] + [crc >> (15 - i) & 1 == 1 for i in range(16)]
        row = bytes(235 if blocks[x * 80 // width] else 16 for x in range(width))
        out += row * min(band, height) + bytes([128]) * (width * max(0, height - band)) + bytes([128]) * (2 * chroma)
    return out


def packet_decoder_inputs():
    """(name, bytes) of FuzzPacketDecoder's seeds."""
    for size, pix_fmt in [("2x2", "yuv420p"), ("16x16", "yuv420p"), ("34x6", "yuv420p"), ("16x16", "yuvj420p"),
                          ("18x8", "yuv422p"), ("17x9", "yuv444p"), ("16x8", "gray"), ("16x16", "yuv420p10le"),
                          ("17x9", "yuv444p10le")]:
        for full in (False, True):
            script = Script(full=full, preview=(6, 3) if full else None)   # a 7x4 preview
            script.flv(h264(size, pix_fmt))
            yield f"{pix_fmt}-{size}{'-full' if full else ''}", script.bytes()

    script = Script(full=True)
    script.flv(h264("64x36", frames=8, extra=["-bf", "2"]))
    script.steps.insert(5, b"\x07")                          # a drain mid-GOP, with B-frames still held
    yield "bframes-drain", script.bytes()

    script = Script(preview=(12, 5))
    script.flv(h264("32x16", frames=4))
    script.flv(h264("48x32", frames=4), rebase=400)        # its avcC: a new track, drained and rebuilt
    yield "size-change-record", script.bytes()

    # The second stream's SPS and PPS in-band, in its first keyframe: libavcodec changes size without a rebuild.
    script, second = Script(full=True), Script()
    script.flv(h264("32x16", frames=4))
    second.flv(h264("40x24", frames=4), rebase=400)
    record = second.video
    sets = [record[8:8 + int.from_bytes(record[6:8], "big")]]
    pps_at = 8 + len(sets[0])
    sets.append(record[pps_at + 3:pps_at + 3 + int.from_bytes(record[pps_at + 1:pps_at + 3], "big")])
    prefix = b"".join(len(unit).to_bytes(4, "big") + unit for unit in sets)
    first = second.steps[0]
    body = prefix + first[7:]
    script.steps += [first[:5] + struct.pack("<H", len(body)) + body] + second.steps[1:]
    yield "size-change-in-band", script.bytes()

    for width, height in [(160, 4), (320, 180)]:
        script = Script(full=True)
        script.flv(h264(f"{width}x{height}", frames=4, source=marker_frames(width, height, 4), extra=["-qp", "0"]))
        yield f"marker-{width}x{height}", script.bytes()

    # Audio, alone and beside video, at odd rates in one and two channels.
    for rate, channels in [(7350, 1), (11025, 2), (48000, 2)]:
        script = Script()
        script.flv(audio(["-c:a", "aac", "-b:a", "32k"], rate, channels))
        yield f"aac-{rate}-{channels}", script.bytes()
    script = Script()
    script.flv(audio(["-c:a", "aac"], 48000, 1, seconds=0.35, tone_gap=True))
    yield "aac-tone-gap", script.bytes()
    for rate, channels in [(11025, 1), (44100, 2)]:
        script = Script()
        script.flv(audio(["-c:a", "libmp3lame", "-b:a", "32k"], rate, channels), audio=audio_spec("mp3", rate, channels))
        yield f"mp3-{rate}-{channels}", script.bytes()
    for codec, args, fmt in [("pcm8", "pcm_u8", "u8"), ("pcm16", "pcm_s16le", "s16le"), ("alaw", "pcm_alaw", "alaw"),
                             ("mulaw", "pcm_mulaw", "mulaw")]:
        for rate, channels in [(5512, 1), (8000, 2), (22050, 2)]:
            raw = audio(["-c:a", args], rate, channels, seconds=0.1, fmt=fmt)
            script = Script()
            script.audio = audio_spec(codec, rate, channels)
            chunk = 333 if channels == 1 else 334                  # an odd size: a torn sample frame too
            for at in range(0, len(raw), chunk):
                script.audio_packet(at * 1000 // max(1, rate * channels), raw[at:at + chunk])
            yield f"{codec}-{rate}-{channels}", script.bytes()

    # Video and audio interleaved, with a pause, a resume that waits for a keyframe, and the audio reconfigured.
    script = Script(full=True, preview=(40, 20))
    script.flv(ffmpeg("-f", "lavfi", "-i", "testsrc2=size=48x32:rate=10", "-f", "lavfi", "-i", "sine=f=440:r=22050", "-t", "0.9",
                      "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast", "-x264-params", "keyint=3",
                      "-c:a", "aac", "-ac", "1", "-f", "flv"))
    script.steps.insert(6, b"\x06")
    script.steps.insert(12, b"\x06")
    script.steps.insert(18, b"\x05" + audio_spec("alaw", 8000, 1))
    yield "av-pause-reconfigure", script.bytes()
