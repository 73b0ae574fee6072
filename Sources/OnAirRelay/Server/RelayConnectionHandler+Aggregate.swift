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
