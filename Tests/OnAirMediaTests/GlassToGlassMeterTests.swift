import Testing
@testable import OnAirMedia

@Suite("glass-to-glass meter: figures from the decoded pictures' markers")
struct GlassToGlassMeterTests {
    static let base: UInt64 = 1_795_000_000_000_000

    static func marker(_ number: UInt32, capturedAt wall: UInt64) -> FrameMarker {
        FrameMarker(frameNumber: number, clock: .wallMicroseconds(wall % FrameMarker.timeModulus))
    }

    @Test("latency is decode instant minus capture instant; percentiles over the recent pictures")
    func latency() {
        var meter = GlassToGlassMeter()
        for index in 0..<100 {
            let capture = Self.base + UInt64(index) * 33_333
            let latency: UInt64 = index == 99 ? 250_000 : 40_000
            meter.record(Self.marker(UInt32(index), capturedAt: capture), decodedAt: capture + latency)
        }
        let reading = meter.reading(at: Self.base + 99 * 33_333 + 250_000)
        #expect(reading.p50Milliseconds == 40)
        #expect(reading.p99Milliseconds == 40)
        #expect(reading.lastFrameNumber == 99)
        #expect(reading.skippedFrames == 0)
        #expect(reading.markersRead == 100)
    }

    @Test("frame numbers never seen are counted; a restart at 0 is a new source, not a gap")
    func skipped() {
        var meter = GlassToGlassMeter()
        for (index, number) in ([10, 11, 14, 15, 0, 1, 3] as [UInt32]).enumerated() {
            let capture = Self.base + UInt64(index) * 33_333
            meter.record(Self.marker(number, capturedAt: capture), decodedAt: capture + 30_000)
        }
        #expect(meter.reading(at: Self.base + 300_000).skippedFrames == 3)
    }

    /// Issue 28 (1): a relay's cache answering a re-play while the publisher is gone — frame 931 after 988.
    @Test("a picture captured before the newest one shown is replayed: counted, not shown, no figure goes back")
    func replayedPictures() {
        var meter = GlassToGlassMeter()
        for index in 0..<30 {
            let capture = Self.base + UInt64(index) * 33_333
            let shown = meter.record(Self.marker(UInt32(960 + index), capturedAt: capture), decodedAt: capture + 40_000)
            #expect(shown)
        }
        let before = meter.reading(at: Self.base + 30 * 33_333)
        for index in 0..<10 {
            let capture = Self.base + UInt64(index) * 33_333
            let shown = meter.record(Self.marker(UInt32(931 + index), capturedAt: capture), decodedAt: Self.base + 40 * 33_333)
            #expect(!shown)
        }
        let after = meter.reading(at: Self.base + 30 * 33_333)
        #expect(after.lastFrameNumber == 989, "the frame number never goes back")
        #expect(after.replayedFrames == 10)
        #expect(meter.lastPictureWasReplayed)
        #expect(after.skippedFrames == before.skippedFrames)
        #expect(after.lastCaptureWallMicroseconds == before.lastCaptureWallMicroseconds)
        let live = Self.base + 31 * 33_333
        let shown = meter.record(Self.marker(991, capturedAt: live), decodedAt: live + 40_000)
        #expect(shown)
        #expect(!meter.lastPictureWasReplayed)
    }

    @Test("a picture kept on show past the median latency plus the allowance counts as frozen")
    func frozen() {
        var meter = GlassToGlassMeter()
        for index in 0..<30 {
            let capture = Self.base + UInt64(index) * 33_333
            meter.record(Self.marker(UInt32(index), capturedAt: capture), decodedAt: capture + 50_000)
        }
        let lastDecode = Self.base + 29 * 33_333 + 50_000
        // Fresh pictures every 33 ms never freeze.
        #expect(meter.reading(at: lastDecode + 33_333).frozenMilliseconds == 0)
        // One second with no new picture: frozen from capture + 50 ms median + 100 ms allowance on.
        #expect(meter.reading(at: lastDecode + 1_000_000).frozenMilliseconds == 900)
        meter.record(Self.marker(30, capturedAt: lastDecode + 950_000 - 50_000), decodedAt: lastDecode + 1_000_000)
        #expect(meter.reading(at: lastDecode + 1_000_000).frozenMilliseconds == 900)
    }

    @Test("unreadable pictures are counted and change nothing else; stream-time markers need an epoch")
    func unreadableAndStreamTime() {
        var meter = GlassToGlassMeter()
        meter.record(nil, decodedAt: Self.base)
        meter.record(FrameMarker(frameNumber: 3, clock: .streamMicroseconds(100_000)), decodedAt: Self.base)
        var reading = meter.reading(at: Self.base)
        #expect(reading.markersUnreadable == 1 && reading.lastFrameNumber == 3 && reading.p50Milliseconds == nil)
        var anchored = GlassToGlassMeter(streamEpochMicroseconds: Self.base)
        anchored.record(FrameMarker(frameNumber: 3, clock: .streamMicroseconds(100_000)), decodedAt: Self.base + 180_000)
        reading = anchored.reading(at: Self.base + 180_000)
        #expect(reading.p50Milliseconds == 80)
    }
}

@Suite("glass-to-glass meter: A/V offset from the tone's gap")
struct AVOffsetTests {
    @Test("the gap's stream time against the video's stream time for the same wall second", arguments: [
        (0.0, 0.0), (21.3, 21.3), (-40.0, -40.0),
    ])
    func offset(audioLate: Double, expected: Double) {
        var meter = GlassToGlassMeter()
        let base = GlassToGlassMeterTests.base // a whole second
        // Frame captured 200 ms before the second, timestamped 5000 ms.
        let capture = base - 200_000
        meter.record(GlassToGlassMeterTests.marker(1, capturedAt: capture), decodedAt: capture + 30_000, streamMilliseconds: 5000)
        meter.recordToneMark(atStreamMilliseconds: 5200 + audioLate)
        let offset = meter.reading(at: capture + 30_000).avOffsetMilliseconds ?? .nan
        #expect(abs(offset - expected) < 0.001)
    }

    @Test("no offset before a picture with a wall-clock marker")
    func needsVideo() {
        var meter = GlassToGlassMeter()
        meter.recordToneMark(atStreamMilliseconds: 1000)
        #expect(meter.reading(at: GlassToGlassMeterTests.base).avOffsetMilliseconds == nil)
    }
}
