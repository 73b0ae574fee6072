import OnAirRTMP

/// Maps one publish session's timestamps into its recording: rebased so the session's first message lands
/// at ``base`` (0 for `record`, just after the file's last tag for `append`), and never backwards within
/// a track. A value, fuzzed together with ``RelayResumeScanner`` (`FuzzRecorderResume`).
///
/// Samples of one track get strictly increasing timestamps: a sample that would not move its track on
/// (one sent before the session's first message, clamped to the session's start, or a repeat across a
/// reconnect) is placed 1 ms after the last, because readers refuse two samples at one instant
/// (ffmpeg: "non monotonically increasing dts"). Sequence headers and metadata describe the samples
/// after them and keep their time without moving the track on. Timestamps come from the wire and the base
/// from a file, so everything saturates at `UInt32.max` (FLV's limit) instead of wrapping or trapping.
struct RelayRecordingClock: Sendable {
    let base: UInt32
    private var sessionStart: UInt32?
    private var lastWritten: [FLVTag.TagType: UInt32] = [:]

    init(base: UInt32) {
        self.base = base
    }

    mutating func fileTimestamp(_ timestamp: UInt32, track: FLVTag.TagType, isSample: Bool) -> UInt32 {
        let start = sessionStart ?? timestamp
        sessionStart = start
        let offset = Int64(Int32(bitPattern: timestamp &- start))   // wrap-aware (RTMP spec §5.3.1.2)
        let mapped = UInt32(clamping: max(Int64(base), Int64(base) + offset))
        let afterLast = lastWritten[track].map { $0 == .max ? $0 : $0 + 1 }
        guard isSample else { return max(afterLast ?? 0, mapped) }
        let written = max(afterLast ?? mapped, mapped)
        lastWritten[track] = written
        return written
    }
}
