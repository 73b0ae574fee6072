import Testing
@testable import OnAirCore

/// The sequence numbers of a server's Acknowledgements are the server's to write. One lower than the last
/// reads as the 32-bit field wrapping (almost 2³² more bytes), so a server that steps back by one each time
/// moves the unwrapped count by 2³² − 1 per 5-byte message; after 2³² of them `read + step` trapped. The
/// tests start from where such a session would have brought the count.
@Suite("hostile Acknowledgement sequence numbers")
struct HostileAcknowledgementTests {
    /// Sequences after a last of 1000: each is a wrap or a step that carries the count past 2⁶⁴.
    static let sequences: [UInt32] = [999, 0, 500, .max, 1000 + 20]

    @Test("a count near 2⁶⁴ saturates instead of trapping", arguments: sequences)
    func saturates(sequence: UInt32) {
        var check = RTMPAcknowledgementCheck(window: 256 << 10, serverRead: .max - 10, lastSequence: 1000)
        check.acknowledged(sequence: sequence)
        #expect(check.serverRead == .max)
        // The verdict still reads: the server claims more than TCP could have carried.
        let verdict = check.verdict(tcpDelivered: 1_000_000)
        #expect(verdict?.disagrees == true && verdict?.gap == 1_000_000 - Int64.max)
        check.acknowledged(sequence: sequence &- 1)
        #expect(check.serverRead == .max)
    }

    @Test("below 2⁶⁴ a step back still counts as the wrap it is")
    func wrapBelowTheTop() {
        var check = RTMPAcknowledgementCheck(window: 256 << 10, serverRead: 1 << 40, lastSequence: 1000)
        check.acknowledged(sequence: 999)
        #expect(check.serverRead == (1 << 40) + UInt64(UInt32.max))
    }
}
