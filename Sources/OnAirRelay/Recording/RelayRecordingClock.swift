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
///
/// A server move (``continueAfterTakeOver()``) keeps the clock: the moved publisher's new connection carries
/// the same broadcast's timeline on, so its samples keep their real times. Where a session's clock cannot
/// continue the file's — an `append` (after a reconnect or a relay restart, the file is all there is) or a
/// takeover whose clock is its own — its first video frame moves forward onto the grid of the earlier frames
/// (``RelayVideoCadence``), and every track with it, by less than one frame: off that grid, ffmpeg rounds
/// frames to ticks of the frame rate and reads two at one tick (CI saw it after a restart and a stall).
struct RelayRecordingClock: Sendable {
    /// The largest step a continued timeline may take from its track's last sample and still be taken as
    /// the same timeline; beyond it, or backwards, the new connection's clock is not the old one's.
    static let continuationLimit: Int64 = 1_000
    let base: UInt32
    private var sessionStart: UInt32?
    /// Added to every mapping once a takeover's first sample had to be re-anchored.
    private var correction: Int64 = 0
    private var lastWritten: [FLVTag.TagType: UInt32] = [:]
    private var lastStep: [FLVTag.TagType: UInt32] = [:]
    /// The file's video frames (an append's, from the resume scan) and this session's after them.
    private var videoCadence: RelayVideoCadence
    private var anchorPending = false
    /// The next video sample moves onto ``videoCadence``'s grid: set by an append and a re-anchored takeover.
    private var gridPending: Bool

    init(base: UInt32, videoCadence: RelayVideoCadence = RelayVideoCadence()) {
        self.base = base
        self.videoCadence = videoCadence
        gridPending = videoCadence.last != nil
    }

    /// The stream's publisher moved to a new connection (``RelayStreamRegistry/takeOver(_:)``): its first
    /// sample is checked against the timeline so far. Within ``continuationLimit`` after its track's last
    /// sample it continues the mapping as is; backwards (a resend of what was recorded) or far ahead (a
    /// clock of its own), the mapping moves so that sample lands one of its track's usual steps after the last.
    mutating func continueAfterTakeOver() {
        anchorPending = true
    }

    mutating func fileTimestamp(_ timestamp: UInt32, track: FLVTag.TagType, isSample: Bool) -> UInt32 {
        let start = sessionStart ?? timestamp
        sessionStart = start
        let offset = Int64(Int32(bitPattern: timestamp &- start))   // wrap-aware (RTMP spec §5.3.1.2)
        var unclamped = Int64(base) + offset + correction
        let afterLast = lastWritten[track].map { $0 == .max ? $0 : $0 + 1 }
        guard isSample else { return max(afterLast ?? 0, UInt32(clamping: max(Int64(base), unclamped))) }
        if anchorPending, let last = lastWritten[track] {
            anchorPending = false
            let step = Int64(lastStep[track] ?? 1)
            if unclamped <= Int64(last) || unclamped > Int64(last) + Self.continuationLimit {
                correction += Int64(last) + step - unclamped
                unclamped = Int64(last) + step
                gridPending = true
            }
        }
        if gridPending, track == .video {
            gridPending = false
            if let point = videoCadence.gridPoint(atOrAfter: unclamped) {
                correction += point - unclamped
                unclamped = point
            }
        }
        let mapped = UInt32(clamping: max(Int64(base), unclamped))
        let written = max(afterLast ?? mapped, mapped)
        if let last = lastWritten[track] { lastStep[track] = max(1, min(written - last, UInt32(Self.continuationLimit))) }
        lastWritten[track] = written
        if track == .video { videoCadence.add(written) }
        return written
    }
}
