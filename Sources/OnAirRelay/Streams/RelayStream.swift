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
        /// Bytes for this player, but for those its fan-out slot still counts (``bytesOut``).
        var countedBytes: UInt64 = 0
        /// The player's group and its index there, while it is in one: its fan-out slot
        /// (``Group/slots``). Weak: the group owns the player.
        weak var group: Group?
        var slot = 0
        /// The stream it plays, whose ``RelayStream/bytesOut`` its queued bytes count in once written. Weak: the
        /// stream owns the player.
        weak var stream: RelayStream?

        /// Everything relayed to this player.
        var bytesOut: UInt64 {
            get { countedBytes + (group.map { $0.slots[slot].bytes } ?? 0) }
            set { countedBytes = newValue - (group.map { $0.slots[slot].bytes } ?? 0) }
        }

        /// Counts `count` bytes written for this player through its connection's queue, for it and its stream.
        func credit(_ count: Int) {
            countedBytes += UInt64(count)
            stream?.bytesOut += UInt64(count)
        }

        /// Whether the fan-out sends to it without asking its handler (`RelayConnectionHandler+Fanout.swift`).
        var isArmed: Bool { group.map { $0.slots[slot].descriptor >= 0 } ?? false }

        init(handler: RelayConnectionHandler, streamID: UInt32) {
            self.key = PlayerKey(connection: handler.id, streamID: streamID)
            self.handler = handler
            self.streamID = streamID
        }
    }

    /// The players on one message stream ID: they are sent the same chunk bytes, batched per read burst.
    /// A class so the fan-out appends to its batch in place.
    final class Group {
        /// What the fan-out needs to send to a player that keeps up, kept beside the other players' in one
        /// array so that sending a batch to 100 such players reads 100 adjacent slots, not 100 objects
        /// (GitHub issue 31: those cache misses were most of the fan-out loop's own time).
        struct Slot {
            /// The connection's direct socket while the player is armed (its handler's
            /// ``RelayConnectionHandler/arm(_:)``), else -1.
            var descriptor: Int32 = -1
            /// Bytes sent to ``descriptor`` that neither the player's ``Player/countedBytes`` nor the
            /// handler's `bytesOut` count yet (moved there when the player is disarmed).
            var bytes: UInt64 = 0
        }

        let messageStreamID: UInt32
        private(set) var players: [Player] = []
        /// One per player, same index (``Player/slot``).
        var slots: [Slot] = []
        /// Changes whenever a player joins or leaves, so a fan-out loop re-entered by a closing connection
        /// notices its indices may be stale.
        private(set) var generation: UInt64 = 0
        var batch: RelayFanoutBatch

        init(messageStreamID: UInt32) {
            self.messageStreamID = messageStreamID
            self.batch = RelayFanoutBatch(messageStreamID: messageStreamID)
        }

        func append(_ player: Player) {
            player.group = self
            player.slot = players.count
            players.append(player)
            slots.append(Slot())
            generation &+= 1
        }

        /// Removes a disarmed player (its slot's bytes already moved out).
        func remove(_ player: Player) {
            guard player.group === self, players.indices.contains(player.slot), players[player.slot] === player else { return }
            let index = player.slot
            player.countedBytes += slots[index].bytes
            player.group = nil
            players.remove(at: index)
            slots.remove(at: index)
            for later in index..<players.count { players[later].slot = later }
            generation &+= 1
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
    /// When the publisher last sent anything, as of the registry's last tick: the tick sets it when
    /// ``receivedSinceTick`` says something arrived, so relaying a message reads no clock (GitHub issue 31).
    var lastInput: NIODeadline = .now()
    var receivedSinceTick = false
    /// Whether the registry lists the stream under its name. A connection keeps its published stream and
    /// checks this flag instead of looking the name up for every message.
    var isRegistered = false
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
        player.stream = self
        players[player.key] = player
        if let group = groups.first(where: { $0.messageStreamID == player.streamID }) {
            group.append(player)
        } else {
            let group = Group(messageStreamID: player.streamID)
            group.append(player)
            groups.append(group)
        }
    }

    func remove(_ key: PlayerKey) {
        guard let player = players.removeValue(forKey: key) else { return }
        player.handler.disarm(player)
        guard let index = groups.firstIndex(where: { $0.messageStreamID == player.streamID }) else { return }
        groups[index].remove(player)
        if groups[index].players.isEmpty { groups.remove(at: index) }
    }
}
