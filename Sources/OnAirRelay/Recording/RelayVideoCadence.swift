/// The grid a recording's video frames sit on: its last frame's timestamp and the frame period measured
/// over the frames before it, so a session appended (or re-anchored after a takeover) puts its frames on
/// the same grid instead of at an arbitrary phase between two earlier frames.
///
/// Why the phase matters: FLV stores milliseconds, so a 15 fps stream's frames sit at 0, 67, 133, 200 … and a
/// reader such as ffmpeg rounds each to a tick of the frame rate. Frames half a tick off that grid (33 ms at
/// 15 fps) round either way depending on their millisecond, and two neighbours can land on one tick
/// ("non monotonically increasing dts … 92 >= 92"). Measured with ffmpeg 5.1 on a 15 fps file shifted by
/// 1…70 ms after 3 s: only the shift that put the frames half a tick off failed.
///
/// A value with no I/O: the resume scan and the recording clock feed it, and `FuzzRecorderResume` with any
/// bytes. Timestamps come from files and the wire, so the arithmetic is in `Int64` and bounded.
struct RelayVideoCadence: Sendable, Equatable {
    /// Frames the period is measured over: enough to average out the millisecond rounding (±0.5 ms per
    /// frame), few enough to follow a frame-rate change within a second or two.
    static let window = 16
    /// A step outside this range (in ms) starts a new run: a gap in the timeline, or a clock of its own.
    static let stepRange: ClosedRange<Int64> = 1...1_000

    /// The run's recent frame timestamps, oldest first, at most ``window``.
    private var recent: [UInt32] = []

    /// The last frame's timestamp.
    var last: UInt32? { recent.last }

    /// The mean frame period in microseconds over the run's recent frames; nil before two frames.
    var periodMicroseconds: Int64? {
        guard let first = recent.first, let last = recent.last, recent.count >= 2 else { return nil }
        return (Int64(last) - Int64(first)) * 1_000 / Int64(recent.count - 1)
    }

    /// One period, rounded to FLV's milliseconds; nil before two frames.
    var step: UInt32? { periodMicroseconds.map { UInt32(($0 + 500) / 1_000) } }

    /// Adds a frame written (or read) at `timestamp`.
    mutating func add(_ timestamp: UInt32) {
        if let last = recent.last, !Self.stepRange.contains(Int64(timestamp) - Int64(last)) { recent.removeAll(keepingCapacity: true) }
        if recent.count == Self.window { recent.removeFirst() }
        recent.append(timestamp)
    }

    /// The first grid point after the last frame at or after `time`, in whole milliseconds; nil before two
    /// frames. The grid is the line fitted through the run's recent frames (their mean position and mean
    /// period), so its points round the way the frames before them did, not from one frame's rounding.
    func gridPoint(atOrAfter time: Int64) -> Int64? {
        guard let period = periodMicroseconds, period > 0 else { return nil }
        let count = Int64(recent.count)
        // The grid's frame 0 (the run's first frame) in µs: the frames' mean less the periods to their middle.
        let origin = recent.reduce(Int64(0)) { $0 + Int64($1) } * 1_000 / count - period * (count - 1) / 2
        func point(_ index: Int64) -> Int64 { (origin + index * period + 500) / 1_000 }
        var index = max(count, (time * 1_000 - origin) / period)
        while point(index) < time { index += 1 }        // at most twice: the division is the floor or one below
        return point(index)
    }
}
