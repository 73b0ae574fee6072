import Foundation
import NIOCore
@testable import OnAirNet
@testable import OnAirRelay
import OnAirRTMP
import OnAirTestSupport
import Testing

/// `onair serve --no-tcp-nodelay` (issue 31): nginx-rtmp leaves Nagle on for its players, OnAir sets
/// TCP_NODELAY unless told not to. Read back from the kernel on the relay's accepted socket.
@Suite("Relay TCP_NODELAY", .serialized)
struct RelayNoDelayTests {
    @Test("accepted sockets carry TCP_NODELAY as configured", arguments: [true, false])
    func acceptedSocketsFollowTheSetting(_ noDelay: Bool) async throws {
        let harness = try await RelayTestHarness { $0.tcpNoDelay = noDelay }
        let url = try harness.streamURL("nodelay")
        let connection = try await RTMPClientConnection.open(url: url, configuration: .init(), onIncoming: { _ in }, onClose: { _ in })
        _ = try await connection.createStream()     // an answer: the relay has accepted and set the socket up
        let values = try await harness.relay.connectionNoDelay()
        #expect(values == [noDelay])
        await connection.close()
        await harness.stop()
    }
}
