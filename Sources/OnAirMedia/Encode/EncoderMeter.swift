import DequeModule

/// Rolling counters behind `MediaStats`: one event per encoded packet, kept for ten seconds.
///
/// Windows are computed on read from the events themselves rather than from running averages, so
/// "bitrate over 1 s" means exactly that, and a stall shows up as a falling number, not a frozen one.
/// Before a window's length has passed, the first packet opens it and is not counted in it: one frame 16 ms
/// after the start is no rate at all, not 63 frames a second (the wire meter counts from its first sample too).
struct EncoderMeter: Sendable {
    private struct Event: Sendable {
        var time: UInt64
        var bytes: Int
        var kind: Kind
        var encodeNanoseconds: UInt64
    }

    enum Kind: Sendable { case video, audio }

    private var events = Deque<Event>()
    private var start: UInt64?

    mutating func record(_ kind: Kind, bytes: Int, encodeNanoseconds: UInt64 = 0, at time: UInt64 = MonotonicClock.now()) {
        if start == nil { start = time }
        events.append(Event(time: time, bytes: bytes, kind: kind, encodeNanoseconds: encodeNanoseconds))
        while let first = events.first, time > first.time + 10_000_000_000 { events.removeFirst() }
    }

    /// Fills the rate fields of `stats` as of `now`.
    func fill(_ stats: inout MediaStats, now: UInt64 = MonotonicClock.now()) {
        guard let start else { return }
        let elapsed = Double(now - min(start, now)) / 1e9
        let oneSecondAgo = now > 1_000_000_000 ? now - 1_000_000_000 : 0
        // A rate counts what came after its window opened: the start while the window is younger than its length.
        let opened1 = max(start, oneSecondAgo), opened10 = max(start, now > 10_000_000_000 ? now - 10_000_000_000 : 0)
        var videoFrames = 0, videoFramesTimed = 0
        var videoBytes1 = 0, videoBytes10 = 0, audioBytes1 = 0, audioBytes10 = 0
        var encodeTotal: UInt64 = 0, encodeMax: UInt64 = 0
        for event in events {
            let in1 = event.time > opened1 || (event.time == opened1 && opened1 > start)
            let in10 = event.time > opened10 || (event.time == opened10 && opened10 > start)
            switch event.kind {
            case .video:
                if in10 { videoBytes10 += event.bytes }
                if in1 {
                    videoBytes1 += event.bytes
                    videoFrames += 1
                }
                // Encode time is per frame, not a rate: every frame of the last second counts.
                if event.time >= oneSecondAgo {
                    videoFramesTimed += 1
                    encodeTotal += event.encodeNanoseconds
                    encodeMax = max(encodeMax, event.encodeNanoseconds)
                }
            case .audio:
                if in10 { audioBytes10 += event.bytes }
                if in1 { audioBytes1 += event.bytes }
            }
        }
        let window1 = max(min(elapsed, 1), 0.001)
        let window10 = max(min(elapsed, 10), 0.001)
        stats.encodedFramesPerSecond = Double(videoFrames) / window1
        stats.videoBitrate1s = Int(Double(videoBytes1 * 8) / window1)
        stats.videoBitrate10s = Int(Double(videoBytes10 * 8) / window10)
        stats.audioBitrate1s = Int(Double(audioBytes1 * 8) / window1)
        stats.audioBitrate10s = Int(Double(audioBytes10 * 8) / window10)
        stats.encodeMillisecondsPerFrame = videoFramesTimed > 0 ? Double(encodeTotal) / Double(videoFramesTimed) / 1e6 : 0
        stats.encodeMillisecondsPerFrameMax = Double(encodeMax) / 1e6
    }
}
