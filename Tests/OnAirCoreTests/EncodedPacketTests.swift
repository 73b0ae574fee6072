import OnAirCore
import Testing

@Suite("EncodedPacket")
struct EncodedPacketTests {
    @Test("presentation time is decode time plus the composition offset")
    func presentationTime() {
        let packet = EncodedPacket(kind: .video, decodeTimestamp: 1000, compositionOffset: 66, isKeyframe: true, payload: [0, 0, 0, 1, 0x65])
        #expect(packet.presentationTimestamp == 1066)
    }
}
