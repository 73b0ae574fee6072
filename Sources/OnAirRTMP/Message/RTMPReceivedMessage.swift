/// One message as a receiver acts on it: decoded, beside the raw message it came as (its timestamp, message
/// stream and type), or skipped with the reason, which the receiver tells once per type.
///
/// ``split(_:limits:)`` is the one place the client (and so the player) turns a whole message off the wire
/// into these: an Aggregate Message (RTMP spec §7.1.6) becomes its sub-messages, each decoded as if it had
/// come alone. `RTMPClientChannelHandler` acts on what it returns, and the `FuzzPlayerDemuxer` fuzzer feeds
/// the player's demuxer through it, so hostile aggregate bodies reach the splitter and the demuxer the way a
/// server's would. (The relay splits aggregates too, but forwards the raw sub-messages undecoded.)
public enum RTMPReceivedMessage: Sendable, Equatable {
    /// A message to act on, and the raw message it was decoded from (a sub-message of an aggregate carries
    /// the aggregate's message stream and its own renormalised timestamp).
    case message(RTMPMessage, RTMPRawMessage)
    /// A message the receiver cannot use: an aggregate that is not a run of whole sub-messages, or a
    /// message of an unknown or undecodable type. `reason` is one line.
    case skipped(RTMPRawMessage, reason: String)

    /// The raw message this was made from.
    public var raw: RTMPRawMessage {
        switch self {
        case .message(_, let raw), .skipped(let raw, _): raw
        }
    }

    /// What a receiver makes of `raw`, a whole message: one item, or one per sub-message of an aggregate (in
    /// order). An aggregate that does not split is one skipped item: none of its sub-messages is used. The
    /// splitter refuses an aggregate inside one, so this recurses once.
    public static func split(_ raw: RTMPRawMessage, limits: RTMPAggregateMessage.Limits = .init()) -> [RTMPReceivedMessage] {
        var received: [RTMPReceivedMessage] = []
        forEach(in: raw, limits: limits) { received.append($0) }
        return received
    }

    /// ``split(_:limits:)`` item by item, without collecting them: the client's receive path calls this for
    /// every message, and an array per message would be an allocation per media frame.
    public static func forEach(
        in raw: RTMPRawMessage, limits: RTMPAggregateMessage.Limits = .init(), _ body: (RTMPReceivedMessage) -> Void
    ) {
        if raw.type == .aggregate {
            do {
                for sub in try RTMPAggregateMessage(raw, limits: limits).messages { forEach(in: sub, limits: limits, body) }
            } catch {
                body(.skipped(raw, reason: "\(error); ignoring it"))
            }
            return
        }
        do {
            body(.message(try RTMPMessage(raw), raw))
        } catch {
            body(.skipped(raw, reason: error.description))
        }
    }
}
