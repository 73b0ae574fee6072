import OnAirCore

/// What the subscriber knows from its media packets, computed once per packet wherever the packet goes:
/// on the player's task (``SubscriberMediaPath``) in the steady state, on the loop around a move.
struct SubscriberMediaFacts: Sendable {
    /// What one packet changed that the session or the events must hear (on the loop).
    struct News: Sendable {
        /// The flow's new verdict, when this packet changed it.
        var verdict: FrameFreshness.Verdict?
        /// A frame rate measured from timestamps (a track announced without one).
        var measuredTrack: VideoTrackDescription?
        var isEmpty: Bool { verdict == nil && measuredTrack == nil }
    }

    var meter = RateMeter()
    /// Time without video, for the report and `expect subscriber gap below …`.
    var videoGaps = VideoGapMeter()
    /// Judges video frames by timestamp (audio alone when the stream has no video): docs/demo-truth.md.
    var videoFreshness = FrameFreshness()
    var audioFreshness = FrameFreshness()
    var streamHasVideo = false
    var lastMedia: SessionTime?
    /// What the media of the current play says it is, once it flows: live, or old frames replayed. The
    /// session hears each change (`mediaResumed` / `mediaReplayed`); nil while nothing flows.
    var flowing: FrameFreshness.Verdict?
    /// A video track announced without a frame rate (no `onMetaData`), waiting for frames to measure it.
    var frameRateProbe: FrameRateProbe?
    /// Why no picture will come, when the stream says so: shown where the picture would be, instead of
    /// "no frame yet" (which promises one). A decodable video packet, a new publish and a new play clear it.
    var pictureAbsence: StreamTelemetry.PictureAbsence?

    /// One media packet: replayed frames are decoded (the GOP that follows needs them) but move no figure —
    /// no bitrate, fps or closed gap.
    mutating func packet(_ packet: EncodedPacket, at now: SessionTime) -> News {
        var news = News()
        let isVideo = packet.kind == .video
        if isVideo {
            streamHasVideo = true
            pictureAbsence = nil
        }
        let verdict = isVideo
            ? videoFreshness.judge(timestamp: packet.decodeTimestamp)
            : audioFreshness.judge(timestamp: packet.decodeTimestamp)
        if verdict == .live {
            meter.add(bytes: packet.payload.count, videoFrame: isVideo)
            if isVideo {
                videoGaps.frameArrived(at: now)
                if var probe = frameRateProbe {
                    let measured = probe.add(packet.decodeTimestamp)
                    frameRateProbe = measured == nil ? probe : nil
                    news.measuredTrack = measured
                }
            }
        }
        lastMedia = now
        // Video decides when there is video (audio interleaved with a replayed GOP is as old).
        if isVideo || !streamHasVideo, flowing != verdict {
            flowing = verdict
            news.verdict = verdict
        }
        return news
    }

    /// A media tag of a codec OnAir does not decode: its bytes and frames were received, so the bitrate and
    /// fps count them (live ones only, as `packet`); nothing else moves — no picture, no gap closed, no verdict.
    mutating func undecodable(kind: EncodedPacket.Kind, bytes: Int, timestamp: Int64) {
        let isVideo = kind == .video
        if isVideo { pictureAbsence = .videoNotDecoded }
        let verdict = isVideo ? videoFreshness.judge(timestamp: timestamp) : audioFreshness.judge(timestamp: timestamp)
        if verdict == .live { meter.add(bytes: bytes, videoFrame: isVideo) }
    }

    /// A publish began or ended: the next one's timestamps start afresh.
    /// `onMetaData` without a video field (`videocodecid`, `width`): an audio-only stream, as ffmpeg and
    /// GStreamer announce one; with one, a video track is coming.
    mutating func metadata(announcesVideo: Bool) {
        if !announcesVideo, pictureAbsence == nil { pictureAbsence = .audioOnly }
        if announcesVideo, pictureAbsence == .audioOnly { pictureAbsence = nil }
    }

    mutating func newPublishSession() {
        pictureAbsence = nil
        videoFreshness.newPublishSession()
        audioFreshness.newPublishSession()
    }
}
