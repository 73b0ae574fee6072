import OnAirCore

/// What the subscriber learns from the frame markers of the pictures it decodes: glass-to-glass latency,
/// frozen time, frame numbers never seen.
///
/// Why from the picture: every other latency OnAir measures stops at a socket; this one starts when the
/// frame was captured (the instant the publisher wrote into it) and ends when this side decoded it, so it
/// includes the encoder, the relay and the decoder. It needs the two sides to share a clock (one machine, or
/// NTP/PTP-synchronised machines); a file-made pattern needs `streamEpochMicroseconds` (when frame 0 was due).
public struct GlassToGlassMeter: Sendable, Equatable {
    /// The figures, as `stats` events and the dashboard show them.
    public struct Reading: Sendable, Equatable {
        public var p50Milliseconds: Double?
        public var p99Milliseconds: Double?
        /// Time spent showing a picture older than expected (see ``GlassToGlassMeter/frozenAllowance``).
        public var frozenMilliseconds: Int64
        /// Frame numbers that never arrived between two that did.
        public var skippedFrames: Int
        public var lastFrameNumber: Int?
        /// The capture instant (wall µs) of the newest picture decoded.
        public var lastCaptureWallMicroseconds: UInt64?
        /// Pictures whose marker says they were captured before the newest one already shown (a relay's
        /// cache answering a re-play): counted here only — no frame number, latency or frozen time moves back.
        public var replayedFrames: Int = 0
        /// Pictures decoded that carried a readable marker, and those that did not.
        public var markersRead: Int
        public var markersUnreadable: Int
        /// Audio's stream timestamp minus video's for the same capture instant (positive: audio plays late),
        /// from the tone's once-a-second gap and the newest picture's marker; nil until both were seen.
        public var avOffsetMilliseconds: Double?
        /// The newest picture with a marker was the publisher's camera-loss slate (docs/devices.md).
        public var showsSlate = false

        public init(
            p50Milliseconds: Double?, p99Milliseconds: Double?, frozenMilliseconds: Int64, skippedFrames: Int,
            lastFrameNumber: Int?, lastCaptureWallMicroseconds: UInt64?, markersRead: Int, markersUnreadable: Int,
            avOffsetMilliseconds: Double?, replayed: Int = 0, showsSlate: Bool = false
        ) {
            self.p50Milliseconds = p50Milliseconds
            self.p99Milliseconds = p99Milliseconds
            self.frozenMilliseconds = frozenMilliseconds
            self.skippedFrames = skippedFrames
            self.lastFrameNumber = lastFrameNumber
            self.lastCaptureWallMicroseconds = lastCaptureWallMicroseconds
            self.markersRead = markersRead
            self.markersUnreadable = markersUnreadable
            self.avOffsetMilliseconds = avOffsetMilliseconds
            self.replayedFrames = replayed
            self.showsSlate = showsSlate
        }
    }

    /// A picture counts as frozen once it is this much older than the median latency: three frames at 30 fps.
    public static let frozenAllowance: UInt64 = 100_000
    private var latency = LatencyWindow()
    private var streamEpochMicroseconds: UInt64?
    private var lastFrameNumber: UInt32?
    /// The picture on show: its capture instant, and how far its time on show has been counted.
    private var shown: ShownPicture?
    private var frozen: UInt64 = 0
    private var skipped = 0
    private var read = 0
    /// The newest picture with a wall-clock marker: its stream timestamp (ms) and capture instant (wall µs).
    private var lastVideo: VideoInstant?
    private var avOffset: Double?
    private var unreadable = 0
    private var freshness = FrameFreshness()
    private var replayed = 0
    /// Pictures found replayed so far, and whether the newest decoded picture was one.
    public var replayedCount: Int { replayed }
    public private(set) var lastPictureWasReplayed = false
    private var slate = false

    public init(streamEpochMicroseconds: UInt64? = nil) {
        self.streamEpochMicroseconds = streamEpochMicroseconds
    }

    /// One decoded picture, with its marker (nil: none readable) and the wall instant it was decoded. False
    /// when the marker says the picture is a replay (captured before the newest one shown): not to be shown.
    @discardableResult
    public mutating func record(_ marker: FrameMarker?, decodedAt now: UInt64, streamMilliseconds: Int64 = 0, isSlate: Bool = false) -> Bool {
        guard let marker else {
            unreadable += 1
            return true
        }
        slate = isSlate
        read += 1
        let capture = captureInstant(of: marker, near: now)
        if let capture, freshness.judge(captureMicroseconds: capture) == .replayed {
            replayed += 1
            lastPictureWasReplayed = true
            return false
        }
        lastPictureWasReplayed = false
        if let last = lastFrameNumber {
            let step = (marker.frameNumber &- last) % FrameMarker.frameNumberModulus
            // A step back or a huge jump is a new source (a republished pattern starts at 0), not a gap.
            if step > 1, step < FrameMarker.frameNumberModulus / 2 { skipped += Int(step - 1) }
        }
        lastFrameNumber = marker.frameNumber
        guard let capture else { return true }
        closeShownInterval(until: now)
        shown = ShownPicture(capture: capture, countedUntil: now)
        lastVideo = VideoInstant(streamMilliseconds: streamMilliseconds, captureWall: capture)
        latency.record(milliseconds: Double(Int64(bitPattern: now &- capture)) / 1000)
        return true
    }

    /// The tone's gap began at stream time `streamMilliseconds`; it was captured on a whole second of the wall
    /// clock — the one nearest to what the newest picture's timestamp and capture instant say.
    public mutating func recordToneMark(atStreamMilliseconds streamMilliseconds: Double) {
        guard let video = lastVideo else { return }
        let sinceVideo = streamMilliseconds - Double(video.streamMilliseconds)
        let estimatedWall = Double(video.captureWall) + sinceVideo * 1000
        let second = (estimatedWall / 1e6).rounded() * 1e6
        let videoStreamTimeOfSecond = Double(video.streamMilliseconds) + (second - Double(video.captureWall)) / 1000
        avOffset = streamMilliseconds - videoStreamTimeOfSecond
    }

    /// The figures at wall instant `now` (the picture on show since its decode counts towards frozen time).
    public func reading(at now: UInt64) -> Reading {
        var copy = self
        copy.closeShownInterval(until: now)
        return Reading(
            p50Milliseconds: latency.percentile(0.5), p99Milliseconds: latency.percentile(0.99),
            frozenMilliseconds: Int64(copy.frozen / 1000), skippedFrames: skipped,
            lastFrameNumber: lastFrameNumber.map(Int.init), lastCaptureWallMicroseconds: shown?.capture,
            markersRead: read, markersUnreadable: unreadable, avOffsetMilliseconds: avOffset, replayed: replayed, showsSlate: slate)
    }

    /// The capture instant of a marker, on the wall clock.
    private func captureInstant(of marker: FrameMarker, near now: UInt64) -> UInt64? {
        switch marker.clock {
        case let .wallMicroseconds(truncated): FrameMarker.unwrap(truncated, near: now)
        case let .streamMicroseconds(offset): streamEpochMicroseconds.map { $0 &+ offset }
        }
    }

    /// Adds the part of [decode of the shown picture, `now`] during which it was older than the allowance.
    private mutating func closeShownInterval(until now: UInt64) {
        guard let shown, let median = latency.percentile(0.5) else { return }
        let limit = shown.capture &+ UInt64(max(0, median * 1000)) &+ Self.frozenAllowance
        let from = max(shown.countedUntil, limit)
        if now > from { frozen += now - from }
        self.shown?.countedUntil = max(shown.countedUntil, now)
    }

    private struct VideoInstant: Sendable, Equatable {
        var streamMilliseconds: Int64
        var captureWall: UInt64
    }

    private struct ShownPicture: Sendable, Equatable {
        var capture: UInt64
        var countedUntil: UInt64
    }
}
