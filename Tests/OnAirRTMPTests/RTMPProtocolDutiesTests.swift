import OnAirRTMP
import Testing

/// The protocol duties both ends share: when an Acknowledgement is owed (RTMP spec §5.4.3) and what a ping
/// gets back (§7.1.7).
@Suite struct RTMPProtocolDutiesTests {
    struct AckCase: Sendable, CustomStringConvertible {
        let window: UInt32?
        let reads: [Int]
        /// The sequence number owed after each read, `nil` when none is.
        let acks: [UInt32?]
        var description: String { "window \(window.map(String.init) ?? "none"), reads \(reads)" }
    }

    static let ackCases: [AckCase] = [
        .init(window: nil, reads: [10_000_000], acks: [nil]),
        .init(window: 0, reads: [10_000_000], acks: [nil]),
        .init(window: 1000, reads: [999, 1], acks: [nil, 1000]),
        .init(window: 1000, reads: [600, 600, 600, 600], acks: [nil, 1200, nil, 2400]),
        .init(window: 1000, reads: [5000, 1], acks: [5000, nil]),
        .init(window: 2_500_000, reads: [2_499_999, 0, 1], acks: [nil, nil, 2_500_000]),
        .init(window: 1, reads: [-5, 0], acks: [nil, nil]),
    ]

    @Test(arguments: ackCases)
    func acknowledgementIsOwedOncePerFullWindow(_ test: AckCase) {
        var duties = RTMPProtocolDuties()
        if let window = test.window { #expect(duties.handle(.windowAcknowledgementSize(window)) == nil) }
        var owed: [UInt32?] = []
        for read in test.reads {
            duties.received(byteCount: read)
            guard let message = duties.acknowledgementDue() else { owed.append(nil); continue }
            guard case .acknowledgement(let sequence) = message else { Issue.record("not an ack: \(message)"); return }
            owed.append(sequence)
        }
        #expect(owed == test.acks)
    }

    @Test func sequenceNumberWrapsAt32BitsAndTheCountSaturates() {
        var duties = RTMPProtocolDuties()
        _ = duties.handle(.windowAcknowledgementSize(1))
        duties.received(byteCount: Int(UInt32.max) + 6)
        #expect(duties.acknowledgementDue() == .acknowledgement(sequenceNumber: 5))
        for _ in 0..<3 { duties.received(byteCount: .max) }
        #expect(duties.bytesReceived == .max)
    }

    @Test func aNewWindowAppliesFromTheLastAcknowledgement() {
        var duties = RTMPProtocolDuties()
        _ = duties.handle(.windowAcknowledgementSize(100))
        duties.received(byteCount: 150)
        #expect(duties.acknowledgementDue() == .acknowledgement(sequenceNumber: 150))
        _ = duties.handle(.windowAcknowledgementSize(1000))
        duties.received(byteCount: 500)
        #expect(duties.acknowledgementDue() == nil)
        #expect(duties.peerWindow == 1000)
    }

    @Test(arguments: [UInt32(0), 42, .max])
    func pingRequestIsAnsweredWithItsTimestamp(_ timestamp: UInt32) {
        var duties = RTMPProtocolDuties()
        #expect(duties.handle(.userControl(.pingRequest(timestamp: timestamp))) == .userControl(.pingResponse(timestamp: timestamp)))
    }

    @Test(arguments: [
        RTMPMessage.userControl(.pingResponse(timestamp: 1)), .userControl(.streamBegin(streamID: 1)),
        .setChunkSize(4096), .acknowledgement(sequenceNumber: 9), .setPeerBandwidth(windowSize: 5, limit: .dynamic),
    ])
    func otherMessagesOweNothing(_ message: RTMPMessage) {
        var duties = RTMPProtocolDuties()
        #expect(duties.handle(message) == nil)
        #expect(duties == RTMPProtocolDuties())
    }
}
