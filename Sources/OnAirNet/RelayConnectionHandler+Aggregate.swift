import NIOCore
import OnAirRTMP

/// Aggregate messages from a publisher (RTMP spec §7.1.6), and the one warning per message type the relay
/// does not handle.
extension RelayConnectionHandler {
    /// Splits an aggregate into its sub-messages (timestamps renormalised, ``RTMPAggregateMessage``) and
    /// handles each as if it had come alone, so players, the GOP cache and the recorder only ever see plain
    /// audio, video and data messages. One that does not split is dropped with one warning.
    func relayAggregate(_ raw: RTMPRawMessage) {
        let messages: [RTMPRawMessage]
        do {
            messages = try RTMPAggregateMessage(raw).messages
        } catch {
            warn(type: raw.typeID, "\(error); ignoring it")
            return
        }
        for sub in messages {
            switch sub.type {
            case .audio, .video, .dataAMF0, .dataAMF3:
                do { try handle(sub) } catch { warn(type: sub.typeID, "\(error)") }
            default:
                // Commands and control have no place inside an aggregate (§7.1.6 carries media and data).
                warn(type: sub.typeID, "a message of type \(sub.typeID) inside an aggregate message (RTMP spec §7.1.6) is not relayed")
            }
        }
    }

    /// A message type the relay does not use (shared objects, a type the RTMP spec does not define): one
    /// `peerWarning` per type and connection, never silence.
    func warnUnhandled(_ typeID: UInt8) {
        let what = RTMPMessageType(rawValue: typeID).map { "RTMP \($0) messages (type \(typeID))" }
            ?? "RTMP message type \(typeID) (not defined by the RTMP spec, §5.4, §7.1)"
        warn(type: typeID, "\(what): not handled by the relay; ignoring them")
    }

    private func warn(type: UInt8, _ reason: String) {
        guard warnedTypes.insert(type).inserted else { return }
        registry.report(.peerWarning(connection: id, reason: RelayLogText.escaped(reason)))
    }
}

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
}

extension RelayConnectionHandler {
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
