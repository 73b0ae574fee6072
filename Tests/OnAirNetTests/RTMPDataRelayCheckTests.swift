import OnAirCore
import OnAirNet
import OnAirRTMP
import Testing

@Suite("Data relay self-test")
struct RTMPDataRelayCheckTests {
    static func packet(_ timestamp: Int64) -> RTMPPlayer.Event {
        .packet(EncodedPacket(kind: .video, decodeTimestamp: timestamp, isKeyframe: false, payload: [0, 0, 0, 1, 0x41]))
    }

    @Test("the probe arriving means relayed, even after some later media")
    func relayed() {
        var check = RTMPDataRelayCheck(nonce: "n1", sentAtTimestamp: 5000)
        #expect(check.observe(Self.packet(5100)) == nil)
        #expect(check.observe(Self.packet(7000)) == nil)
        #expect(check.observe(.message(handler: RTMPDataRelayCheck.handler, arguments: [.string("n1")])) == .relayed)
        #expect(check.observe(Self.packet(9000)) == .relayed)
    }

    @Test("media well past the probe without it means dropped; a wrong nonce or other data does not count")
    func dropped() {
        var check = RTMPDataRelayCheck(nonce: "n1", sentAtTimestamp: 5000)
        #expect(check.observe(.message(handler: RTMPDataRelayCheck.handler, arguments: [.string("other")])) == nil)
        #expect(check.observe(.message(handler: "publisherBackground", arguments: [])) == nil)
        for timestamp in stride(from: 5000, through: 6000, by: 33) { #expect(check.observe(Self.packet(Int64(timestamp))) == nil) }
        for index in 1..<RTMPDataRelayCheck.packetsPastMargin {
            #expect(check.observe(Self.packet(Int64(6000 + index))) == nil)
        }
        #expect(check.observe(Self.packet(6100)) == .dropped)
        #expect(check.verdict == .dropped)
    }

    @Test("random checks get distinct nonces")
    func nonces() {
        #expect(RTMPDataRelayCheck.random(sentAtTimestamp: 0).nonce != RTMPDataRelayCheck.random(sentAtTimestamp: 0).nonce)
    }
}
