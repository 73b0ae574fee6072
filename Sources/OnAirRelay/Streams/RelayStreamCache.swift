/// What a player joining a live stream needs before the next live message: metadata, both sequence
/// headers, and the frames since the last keyframe — so it starts at once, on a keyframe, without asking
/// the publisher for anything (the "GOP cache" of nginx-rtmp's `live` module, Wowza and Red5).
///
/// A value type fed every publisher message; ``joinMessages`` is what a new player gets, in order.
struct RelayStreamCache: Sendable {
    private(set) var metadata: RelayMediaMessage?
    private(set) var videoSequenceHeader: RelayMediaMessage?
    private(set) var audioSequenceHeader: RelayMediaMessage?
    private(set) var gop: [RelayMediaMessage] = []
    private(set) var gopBytes = 0
    /// Whether video was ever seen: decides what counts as a random-access point for drops.
    private(set) var hasVideo = false
    let gopLimit: Int

    init(gopLimit: Int) {
        self.gopLimit = gopLimit
    }

    mutating func add(_ message: RelayMediaMessage) {
        switch message.kind {
        case .metadata:
            metadata = message
        case .clearMetadata:
            metadata = nil
        case .data:
            break      // notices are events, not state: a late joiner must not see old ones
        case .video:
            hasVideo = true
            if message.isSequenceHeader {
                videoSequenceHeader = message
                resetGOP()
            } else if message.isKeyframe {
                resetGOP()
                append(message)
            } else if !gop.isEmpty {
                append(message)
            }
        case .audio:
            if message.isSequenceHeader {
                audioSequenceHeader = message
            } else if !gop.isEmpty || !hasVideo {
                // Audio-only streams: keep roughly the last second so a player hears something at once.
                append(message)
                if !hasVideo, gop.count > Self.audioOnlyFrames { gopBytes -= gop.removeFirst().payload.readableBytes }
            }
        }
    }

    /// Metadata, sequence headers, then the cached GOP.
    var joinMessages: [RelayMediaMessage] {
        [metadata, videoSequenceHeader, audioSequenceHeader].compactMap { $0 } + gop
    }

    /// AAC frames kept for an audio-only stream (≈ 1 s at 44.1/48 kHz).
    static let audioOnlyFrames = 48

    private mutating func resetGOP() {
        gop.removeAll(keepingCapacity: true)
        gopBytes = 0
    }

    private mutating func append(_ message: RelayMediaMessage) {
        let size = message.payload.readableBytes
        guard gopBytes + size <= gopLimit else {
            resetGOP()          // too long a GOP: cache nothing until the next keyframe
            return
        }
        gop.append(message)
        gopBytes += size
    }
}
