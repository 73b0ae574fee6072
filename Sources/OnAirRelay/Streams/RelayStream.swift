import NIOCore
import OnAirCore

/// One stream name's state inside ``RelayStreamRegistry``: its publisher (if any), its players, the cache
/// late joiners start from, the recording, and byte counts.
///
/// A class only so that the registry — its one owner, on the relay's event loop — can mutate it while
/// connection callbacks re-enter the registry; nothing else holds one.
final class RelayStream {
    /// A player: one `play` on one message stream of one connection.
    struct PlayerKey: Hashable {
        var connection: Int
        var streamID: UInt32
    }

    /// A class so the fan-out loop counts bytes without writing back into a dictionary per message.
    final class Player {
        let key: PlayerKey
        let handler: RelayConnectionHandler
        let streamID: UInt32
        var bytesOut: UInt64 = 0
        /// The connection's direct socket while the fan-out may send to it without asking the handler
        /// (``RelayConnectionHandler/arm(_:descriptor:)``), else -1. Kept here, beside ``bytesOut``, so a
        /// player that keeps up costs the fan-out loop one object, not the handler's scattered state
        /// (GitHub issue 31: those cache misses were most of the loop's time).
        var directDescriptor: Int32 = -1
        /// Bytes the fan-out sent to ``directDescriptor`` that the handler's `bytesOut` does not count yet
        /// (added when the player is disarmed).
        var directBytes: UInt64 = 0

        init(handler: RelayConnectionHandler, streamID: UInt32) {
            self.key = PlayerKey(connection: handler.id, streamID: streamID)
            self.handler = handler
            self.streamID = streamID
        }
    }

    /// The players on one message stream ID: they are sent the same chunk bytes, batched per read burst.
    /// A class so the fan-out appends to its batch in place.
    final class Group {
        let messageStreamID: UInt32
        var players: [Player] = []
        var batch: RelayFanoutBatch

        init(messageStreamID: UInt32) {
            self.messageStreamID = messageStreamID
            self.batch = RelayFanoutBatch(messageStreamID: messageStreamID)
        }
    }

    let name: RelayStreamName
    var publisher: (handler: RelayConnectionHandler, streamID: UInt32)?
    var publishType: PublishType = .live
    private(set) var players: [PlayerKey: Player] = [:]
    /// The same players grouped by message stream ID (almost always one group): the fan-out iterates these.
    private(set) var groups: [Group] = []
    /// Whether some group's batch holds messages not yet handed to its players.
    var hasPendingBatch = false
    /// Whether the pending batch holds anything but plain audio frames (it then goes out at the burst's end).
    var pendingBatchIsUrgent = false
    /// When an audio-only batch started waiting for the next video frame.
    var pendingHeldSince: NIODeadline?
    /// Whether the stream is in the registry's pending list (so it is listed once).
    var isListedAsPending = false
    var cache: RelayStreamCache
    var recorder: RelayRecorder?
    var lastInput: NIODeadline = .now()
    var bytesIn: UInt64 = 0
    var bytesOut: UInt64 = 0

    init(name: RelayStreamName, gopLimit: Int) {
        self.name = name
        self.cache = RelayStreamCache(gopLimit: gopLimit)
    }

    var isPublished: Bool { publisher != nil }

    /// A moved publisher's new publish, accepted while the old one still feeds the stream: it takes the stream
    /// over with its first audio or video sample (``RelayStreamRegistry/relay(_:name:from:)``), so players
    /// are not left without media between the new publish and the publisher's switch to it. Its sequence
    /// headers and metadata wait in `held` until then.
    var successor: (handler: RelayConnectionHandler, streamID: UInt32, type: PublishType, recording: PublishType?, held: [RelayMediaMessage])?

    func add(_ player: Player) {
        players[player.key] = player
        if let group = groups.first(where: { $0.messageStreamID == player.streamID }) {
            group.players.append(player)
        } else {
            let group = Group(messageStreamID: player.streamID)
            group.players.append(player)
            groups.append(group)
        }
    }

    func remove(_ key: PlayerKey) {
        guard let player = players.removeValue(forKey: key) else { return }
        player.handler.disarm(player)
        guard let index = groups.firstIndex(where: { $0.messageStreamID == player.streamID }) else { return }
        groups[index].players.removeAll { $0 === player }
        if groups[index].players.isEmpty { groups.remove(at: index) }
    }
}
