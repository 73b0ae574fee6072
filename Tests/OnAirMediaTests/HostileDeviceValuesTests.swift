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

/// What `VIDIOC_DQBUF` says of a buffer, checked before a byte of it is read (`V4L2DequeuedBuffer`). Before:
/// an index past the mapped buffers was refused but untested, and a `bytesused` past the mapping was
/// clamped without a word.
extension HostileDeviceValuesTests {
    static let device = "/dev/video9"
    /// Four mapped buffers; buffer 1 is shorter, so a check against the wrong buffer's length shows.
    static let mapped = [4096, 1000, 4096, 4096]

    static func verdict(index: UInt32 = 0, bytesUsed: UInt32 = 100, flags: UInt32 = 0) throws(MediaError) -> V4L2DequeuedBuffer.Verdict {
        try V4L2DequeuedBuffer(index: index, bytesUsed: bytesUsed, flags: flags).verdict(mappedLengths: mapped, device: device)
    }

    @Test("a buffer index at or past the mapped count is refused", arguments: [UInt32(4), 5, UInt32(Int32.max), .max])
    func indexPastMapped(index: UInt32) {
        #expect(throws: MediaError.notACaptureDevice(path: Self.device, reason: "the driver returned buffer \(index), but only 4 are mapped")) {
            try Self.verdict(index: index)
        }
    }

    @Test("bytesused past the buffer's own mapped length is refused", arguments: [(UInt32(1), UInt32(1001)), (0, 4097), (3, .max), (1, .max)])
    func bytesUsedPastMapping(index: UInt32, bytesUsed: UInt32) {
        let length = Self.mapped[Int(index)]
        #expect(throws: MediaError.notACaptureDevice(
            path: Self.device, reason: "the driver says buffer \(index) holds \(bytesUsed) bytes, more than its \(length)-byte mapping")) {
            try Self.verdict(index: index, bytesUsed: bytesUsed)
        }
    }

    @Test("a buffer filled up to its mapped length, or less, is read as it is")
    func saneBuffers() throws {
        #expect(try Self.verdict(index: 1, bytesUsed: 1000) == .frame(index: 1, byteCount: 1000))
        #expect(try Self.verdict(index: 0, bytesUsed: 1001) == .frame(index: 0, byteCount: 1001))
        #expect(try Self.verdict(index: 3, bytesUsed: 1) == .frame(index: 3, byteCount: 1))
    }

    @Test("an empty buffer is a skipped frame, not a frame of 0 bytes")
    func emptyBuffer() throws {
        #expect(try Self.verdict(index: 2, bytesUsed: 0) == .skip(.empty))
    }

    @Test("a buffer the driver flagged damaged is a skipped frame, whatever size it claims", arguments: [UInt32(0), 100, .max])
    func damagedBuffer(bytesUsed: UInt32) throws {
        #expect(try Self.verdict(bytesUsed: bytesUsed, flags: V4L2DequeuedBuffer.errorFlag) == .skip(.damaged))
    }

    @Test("flags other than the error flag do not drop a frame")
    func otherFlags() throws {
        #expect(try Self.verdict(bytesUsed: 100, flags: ~V4L2DequeuedBuffer.errorFlag) == .frame(index: 0, byteCount: 100))
    }

    @Test("a refusal is one line that says what to do", arguments: [(UInt32(9), UInt32(1)), (0, .max)])
    func refusalIsOneLine(index: UInt32, bytesUsed: UInt32) {
        do {
            _ = try Self.verdict(index: index, bytesUsed: bytesUsed)
            Issue.record("buffer \(index) with \(bytesUsed) bytes was not refused")
        } catch {
            let line = error.description
            #expect(!line.contains("\n") && line.hasPrefix("\(Self.device) ") && line.hasSuffix("pick another /dev/videoN or use --video test"))
        }
    }
}
