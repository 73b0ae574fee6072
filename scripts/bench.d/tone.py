#!/usr/bin/env python3
"""Writes OnAir's test tone as 16 s of 16-bit stereo WAV, for ffmpeg to loop in the engine bench.

The samples `onair publish --audio test` encodes, computed the way Sources/OnAirMedia/Synthetic/ToneSource.swift
computes them: 440 Hz at a peak of 0.25 of full scale, the same value on both channels, chunks of 1024 sample
frames (the engine reads one AAC frame at a time), each chunk starting from a libm sine and cosine of its
absolute phase and rotating a phasor per sample, and the first 10 ms of every second silent (the
glass-to-glass marker; live, onair aligns it to the wall clock's seconds, here to the file's: one gap a second
either way). 16 s is 750 whole chunks and 7040 whole cycles, so the loop has no seam.
Why the exact samples: libavcodec's AAC encoder's work depends on them. Counted with callgrind (session 14, 10 s
at 128k, instructions in `avcodec_send_frame`): this tone 2.53 G; lavfi's `sine` (peak 1/8, no gaps), which the
bench used to give ffmpeg, 2.44 G (4 % less work than onair's side did); and the same tone made by `aevalsrc`,
its samples off by one in the last bit here and there, 2.77 G.

usage: tone.py OUT.wav
"""
import math
import struct
import sys
import wave

RATE, FREQUENCY, CHUNK, SECONDS = 48_000, 440.0, 1024, 16
PEAK = 0.25 * 32767
GAP = RATE * 10 // 1000


def rounded(value):
    """Swift's `rounded()`: to nearest, halves away from zero (Python's round() takes halves to even)."""
    return int(math.floor(abs(value) + 0.5)) * (1 if value >= 0 else -1)


cycles_per_sample = FREQUENCY / RATE
step = 2 * math.pi * cycles_per_sample
step_sine, step_cosine = math.sin(step), math.cos(step)
frames = bytearray()
for first in range(0, RATE * SECONDS, CHUNK):
    first_cycles = first * cycles_per_sample
    phase = 2 * math.pi * (first_cycles - math.floor(first_cycles))
    sine, cosine = math.sin(phase), math.cos(phase)
    for n in range(first, first + CHUNK):
        value = 0 if n % RATE < GAP else rounded(PEAK * sine)
        frames += struct.pack("<hh", value, value)
        sine, cosine = sine * step_cosine + cosine * step_sine, cosine * step_cosine - sine * step_sine

with wave.open(sys.argv[1], "wb") as out:
    out.setnchannels(2)
    out.setsampwidth(2)
    out.setframerate(RATE)
    out.writeframes(bytes(frames))
