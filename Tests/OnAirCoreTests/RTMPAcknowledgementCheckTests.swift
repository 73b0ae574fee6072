import OnAirCore
import Testing

/// The server's RTMP Acknowledgements against TCP_INFO (issue 23): the sequence number unwraps past 2³²,
/// and a TCP figure agrees from the server's count up to one window and the slack above it.
@Suite("RTMP Acknowledgement cross-check")
struct RTMPAcknowledgementCheckTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let sequences: [UInt32]
        let tcpDelivered: UInt64
        let serverRead: UInt64?
        let disagrees: Bool?
        var testDescription: String { name }
    }

    /// Window 256 KiB, slack 512 KiB: TCP agrees from serverRead − 512 KiB up to serverRead + 768 KiB.
    static let rows: [Row] = [
        Row(name: "no Acknowledgement yet: no verdict", sequences: [], tcpDelivered: 1_000_000, serverRead: nil, disagrees: nil),
        Row(name: "TCP a window past the server's last count (the next Acknowledgement not due yet): agrees",
            sequences: [262_144, 524_288], tcpDelivered: 524_288 + 262_144 + 3073, serverRead: 524_288, disagrees: false),
        Row(name: "TCP equal to the server's count: agrees", sequences: [262_144], tcpDelivered: 262_144, serverRead: 262_144, disagrees: false),
        Row(name: "TCP 2 MB past what the server read (a proxy acknowledging for it, or a server that stopped reading): disagrees",
            sequences: [262_144, 524_288], tcpDelivered: 2_524_288, serverRead: 524_288, disagrees: true),
        Row(name: "the server read 1 MB more than TCP counts: TCP undercounts, disagrees",
            sequences: [2_000_000], tcpDelivered: 1_000_000, serverRead: 2_000_000, disagrees: true),
        Row(name: "the 32-bit sequence number wraps: counted on past 2³²",
            sequences: [4_294_900_000, 100_000], tcpDelivered: 4_295_067_296 + 3073, serverRead: 4_295_067_296, disagrees: false),
        Row(name: "a repeated sequence number adds nothing", sequences: [300_000, 300_000], tcpDelivered: 300_000, serverRead: 300_000, disagrees: false),
    ]

    @Test("verdicts", arguments: rows)
    func verdict(row: Row) {
        var check = RTMPAcknowledgementCheck(window: 256 << 10)
        for sequence in row.sequences { check.acknowledged(sequence: sequence) }
        #expect(check.serverRead == row.serverRead)
        let verdict = check.verdict(tcpDelivered: row.tcpDelivered)
        #expect(verdict?.disagrees == row.disagrees)
        if let verdict { #expect(verdict.gap == Int64(row.tcpDelivered) - Int64(row.serverRead ?? 0)) }
    }
}
