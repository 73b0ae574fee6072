import Foundation
import OnAirCore
@testable import OnAirNet
import OnAirTestSupport
import Testing

/// Issue 29 item 2: a server that floods User Control Ping Requests and never reads the answers. The
/// clients hold at most `RTMPClientChannelHandler.maxUnreadAnswerBytes` of answers, then close with an
/// error that says why — as the relay does for a client.
@Suite("Client ping flood", .timeLimit(.minutes(2)))
struct ClientPingFloodTests {
    /// The error a client's event stream closed with, or nil if it is still open when the server has sent
    /// all `floodLimit` bytes and the client had that long again to give up.
    static func closingError<Event: Sendable>(_ events: AsyncStream<Event>, closed: @escaping @Sendable (Event) -> RTMPClient.Error??) async -> RTMPClient.Error? {
        for await event in events {
            if let error = closed(event) { return error }
        }
        return nil
    }

    /// 256 MiB of pings: 256 times the answers a client may leave unread. Without the bound the client
    /// would still be open (holding ~256 MiB) when the flood ends; the wait below is only a failure bound.
    static let flood: Int64 = 256 << 20

    @Test("the publisher closes with 'protocol answers unread' instead of queueing every pong")
    func publisher() async throws {
        let server = try ScriptedRTMPServer(attack: .pingFlood, floodLimit: Self.flood)
        defer { server.stop() }
        let publisher = RTMPPublisher(url: try StreamURL("rtmp://127.0.0.1:\(server.port)/live/ping"))
        try await publisher.start(video: nil, audio: nil)
        let error = await Self.withDeadline { await Self.closingError(publisher.events) { if case .closed(let error) = $0 { error } else { nil } } }
        #expect(error?.description.contains("protocol answers unread") == true, "closed with \(String(describing: error))")
    }

    @Test("the player closes with 'protocol answers unread' instead of queueing every pong")
    func player() async throws {
        let server = try ScriptedRTMPServer(attack: .pingFlood, floodLimit: Self.flood)
        defer { server.stop() }
        let player = RTMPPlayer(url: try StreamURL("rtmp://127.0.0.1:\(server.port)/live/ping"))
        try await player.start()
        let error = await Self.withDeadline { await Self.closingError(player.events) { if case .closed(let error) = $0 { error } else { nil } } }
        #expect(error?.description.contains("protocol answers unread") == true, "closed with \(String(describing: error))")
    }

    /// `body`'s result, or nil after 60 s (ten times what a loaded machine needs): a failure bound only.
    static func withDeadline(_ body: @escaping @Sendable () async -> RTMPClient.Error?) async -> RTMPClient.Error? {
        await withTaskGroup(of: RTMPClient.Error??.self) { group in
            group.addTask { .some(await body()) }
            group.addTask {
                try? await Task.sleep(for: .seconds(60))
                return .none
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? nil
        }
    }
}
