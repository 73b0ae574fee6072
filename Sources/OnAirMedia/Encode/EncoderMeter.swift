import DequeModule

/// Rolling counters behind `MediaStats`: one event per encoded packet, kept for ten seconds.
///
/// Windows are computed on read from the events themselves rather than from running averages, so
/// "bitrate over 1 s" means exactly that, and a stall shows up as a falling number, not a frozen one.
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
        var videoFrames = 0
        var videoBytes1 = 0, videoBytes10 = 0, audioBytes1 = 0, audioBytes10 = 0
        var encodeTotal: UInt64 = 0, encodeMax: UInt64 = 0
        for event in events {
            let recent = event.time >= oneSecondAgo
            switch event.kind {
            case .video:
                videoBytes10 += event.bytes
                if recent {
                    videoBytes1 += event.bytes
                    videoFrames += 1
                    encodeTotal += event.encodeNanoseconds
                    encodeMax = max(encodeMax, event.encodeNanoseconds)
                }
            case .audio:
                audioBytes10 += event.bytes
                if recent { audioBytes1 += event.bytes }
            }
        }
        let window1 = max(min(elapsed, 1), 0.001)
        let window10 = max(min(elapsed, 10), 0.001)
        stats.encodedFramesPerSecond = Double(videoFrames) / window1
        stats.videoBitrate1s = Int(Double(videoBytes1 * 8) / window1)
        stats.videoBitrate10s = Int(Double(videoBytes10 * 8) / window10)
        stats.audioBitrate1s = Int(Double(audioBytes1 * 8) / window1)
        stats.audioBitrate10s = Int(Double(audioBytes10 * 8) / window10)
        stats.encodeMillisecondsPerFrame = videoFrames > 0 ? Double(encodeTotal) / Double(videoFrames) / 1e6 : 0
        stats.encodeMillisecondsPerFrameMax = Double(encodeMax) / 1e6
    }
}
