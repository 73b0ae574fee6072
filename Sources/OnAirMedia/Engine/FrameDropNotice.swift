/// One event-log line saying why the dashboard's `dropped` figure rose, by cause.
///
/// Why: "dropped 6" appeared at the start of a broadcast on an idle link in some runs with nothing saying
/// why. Those were `sourceLate` ticks: the first frames' encode (x264 starting its threads) or a busy
/// machine made the paced source's reader late, and the pacer skipped the missed ticks (`RealTimePacer`)
/// rather than burst. Honest drops stay counted; this says what they were. The first drops get a line at
/// once; later ones are gathered into at most one line every `quietMilliseconds`, so a link that stays
/// congested does not flood the log. The line is short enough to stay whole on an 80-column event log.
public struct FrameDropNotice: Sendable, Equatable {
    /// At most one line this often while drops keep coming.
    public static let quietMilliseconds: Int64 = 5_000

    private var reported = MediaStats.Drops()
    private var lastLineAt: Int64?

    public init() {}

    /// The line for the drops since the last one, or nil (none new, or a line went out less than
    /// `quietMilliseconds` ago — those drops wait for the next line).
    public mutating func line(for drops: MediaStats.Drops, atMilliseconds now: Int64) -> String? {
        guard drops.total > reported.total else { return nil }
        if let lastLineAt, now - lastLineAt < Self.quietMilliseconds { return nil }
        let late = drops.sourceLate - reported.sourceLate
        let busy = drops.encoderBusy - reported.encoderBusy
        let congestion = drops.congestionVideoPackets + drops.congestionAudioPackets
            - reported.congestionVideoPackets - reported.congestionAudioPackets
        reported = drops
        lastLineAt = now
        return Self.text(late: late, busy: busy, congestion: congestion)
    }

    public static func text(late: Int, busy: Int, congestion: Int) -> String {
        let causes = [late, busy, congestion].filter { $0 > 0 }.count
        func frames(_ n: Int) -> String { n == 1 ? "1 frame" : "\(n) frames" }
        func packets(_ n: Int) -> String { n == 1 ? "1 packet" : "\(n) packets" }
        if causes == 1 {
            if late > 0 { return "dropped \(frames(late)): encoding ran late (busy CPU or start-up)" }
            if busy > 0 { return "dropped \(frames(busy)): the encoder was busy (newest kept)" }
            return "dropped \(packets(congestion)): the link was slower than the encoder"
        }
        var parts: [String] = []
        if late > 0 { parts.append("\(late) late") }
        if busy > 0 { parts.append("\(busy) encoder busy") }
        if congestion > 0 { parts.append("\(congestion) slow link") }
        return "dropped \(late + busy + congestion): " + parts.joined(separator: ", ")
    }
}
