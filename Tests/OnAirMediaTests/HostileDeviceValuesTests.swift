import Testing
@testable import OnAirMedia

/// A camera's driver writes the sequence number and timestamp of every buffer it hands over; a broken one
/// (or a loopback device another process feeds) may write anything. Before: a sequence of `UInt32.max`
/// trapped in `last + 1`, a step back after it in `sequence - last - 1`, and a negative `tv_sec` in `UInt64(_:)`.
@Suite("hostile V4L2 buffer fields")
struct HostileDeviceValuesTests {
    struct Step: Sendable, CustomTestStringConvertible {
        let last: UInt32
        let sequence: UInt32
        let skipped: Int
        var testDescription: String { "\(last) → \(sequence)" }
    }

    static let steps = [
        Step(last: .max, sequence: 0, skipped: 0), Step(last: .max, sequence: 2, skipped: 2),
        Step(last: .max - 1, sequence: .max, skipped: 0), Step(last: 0, sequence: .max, skipped: 0),
        Step(last: 10, sequence: 5, skipped: 0), Step(last: 10, sequence: 11, skipped: 0), Step(last: 10, sequence: 14, skipped: 3),
    ]

    @Test("dropped frames between two driver sequence numbers, across the 32-bit wrap", arguments: steps)
    func skipped(step: Step) {
        #expect(V4L2Camera.skipped(after: step.last, at: step.sequence) == step.skipped)
    }

    @Test("a driver timestamp no UInt64 of nanoseconds holds is not used",
          arguments: [(-1, 0), (Int.min, 0), (Int.max, 0), (0, -1), (0, 1_000_000), (Int(UInt64.max / 1_000_000_000), 0)])
    func hostileTimestamp(seconds: Int, microseconds: Int) {
        #expect(V4L2Camera.nanoseconds(seconds: seconds, microseconds: microseconds) == nil)
    }

    @Test("a sane driver timestamp is used as it is")
    func saneTimestamp() {
        #expect(V4L2Camera.nanoseconds(seconds: 5, microseconds: 250) == 5_000_250_000)
    }
}
