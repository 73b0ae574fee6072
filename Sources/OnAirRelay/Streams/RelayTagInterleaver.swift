import OnAirRTMP

/// Puts a recording's audio and video tags in timestamp order before they are written.
///
/// A publisher sends each track in its own order (an encoder's video frame may leave after audio stamped
/// later, and the reverse), but an FLV file is read front to back and its tags' timestamps should never go
/// back (FLV spec E.4.1: relative to the first tag; ffmpeg's muxer interleaves by dts for the same reason).
/// Each track is already monotonic, so a two-way merge is enough: a tag is written once the other track has
/// caught up with it, or once it is ``window`` older than the newest tag (the other track is paused or
/// absent — `pauseVideo` sends no video at all). A tag that still arrives late is lifted to the last
/// written timestamp (and past its own track's last), which keeps the file monotonic.
struct RelayTagInterleaver {
    /// How long a track may lag before the other is written without it.
    static let window: UInt32 = 1000

    private var audio: [FLVTag] = []
    private var video: [FLVTag] = []
    private var newest: UInt32 = 0
    private var lastWritten: UInt32?
    /// Per track, so two samples of one track never share an instant however late one came.
    private var lastOfTrack: [FLVTag.TagType: UInt32] = [:]

    /// Adds a tag; returns the tags that may now be written, in order.
    mutating func add(_ tag: FLVTag) -> [FLVTag] {
        switch tag.type {
        case .audio: audio.append(tag)
        case .video: video.append(tag)
        case .scriptData: return drain() + [stamped(tag)]
        }
        newest = max(newest, tag.timestamp)
        var ready: [FLVTag] = []
        while let next = nextReady() { ready.append(next) }
        return ready
    }

    /// Every tag still held, in order (the session is ending).
    mutating func drain() -> [FLVTag] {
        var ready: [FLVTag] = []
        while !audio.isEmpty || !video.isEmpty {
            ready.append(stamped(takeEarlier()))
        }
        return ready
    }

    private mutating func nextReady() -> FLVTag? {
        if !audio.isEmpty && !video.isEmpty { return stamped(takeEarlier()) }
        let waiting = audio.first ?? video.first
        guard let waiting, newest &- waiting.timestamp >= Self.window else { return nil }
        return stamped(takeEarlier())
    }

    /// The earlier head of the two queues (video first on a tie, so a keyframe leads its audio).
    private mutating func takeEarlier() -> FLVTag {
        if let a = audio.first, video.first.map({ a.timestamp < $0.timestamp }) ?? true {
            return audio.removeFirst()
        }
        return video.removeFirst()
    }

    private mutating func stamped(_ tag: FLVTag) -> FLVTag {
        var tag = tag
        let lifted = max(tag.timestamp, lastWritten ?? 0)
        // Only a lifted tag can meet its own track's last one (the recorder keeps each track's samples
        // increasing; a sequence header may share its keyframe's instant and keeps it).
        if lifted != tag.timestamp, tag.type != .scriptData, let previous = lastOfTrack[tag.type], lifted <= previous {
            tag.timestamp = previous == .max ? previous : previous + 1     // saturating: never wraps to 0
        } else {
            tag.timestamp = lifted
        }
        if tag.type != .scriptData { lastOfTrack[tag.type] = tag.timestamp }
        lastWritten = tag.timestamp
        return tag
    }
}
