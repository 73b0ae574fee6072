import NIOCore
import OnAirRTMP

/// What the operator's interruptions from the server's side (issue 27, ``RelayStreamRegistry/interrupt(_:)``)
/// do to one connection: stop reading from it, or ask it to move.
extension RelayConnectionHandler {
    /// `server-stall`: reads nothing from the peer for `duration` (NIO's autoRead off), so its socket fills
    /// as behind a server stuck on its disk, then reads again.
    func stopReading(for duration: TimeAmount) {
        guard let context else { return }
        context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
        context.eventLoop.assumeIsolated().scheduleTask(in: duration) { [self] in
            guard let context = self.context else { return }
            context.channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
            context.read()
        }
    }

    /// `server-move`: Enhanced RTMP v2's `NetConnection.Connect.ReconnectRequest` on the NetConnection,
    /// naming the server to reconnect to in `tcUrl` (none: reconnect to this one).
    func sendReconnectRequest(tcUrl: String?) {
        var info: [AMF0Value.Property] = [
            .init("level", .string(RTMPStatus.Level.status.rawValue)),
            .init("code", .string(RTMPStatus.Code.reconnectRequest.rawValue)),
            .init("description", .string("the server is moving its clients")),
        ]
        if let tcUrl { info.append(.init("tcUrl", .string(tcUrl))) }
        sendCommand(RTMPCommand(name: RTMPCommand.Name.onStatus, transactionID: 0, arguments: [.object(info)]))
    }
}
