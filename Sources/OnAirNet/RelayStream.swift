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

        init(handler: RelayConnectionHandler, streamID: UInt32) {
            self.key = PlayerKey(connection: handler.id, streamID: streamID)
            self.handler = handler
            self.streamID = streamID
        }
    }

    let name: RelayStreamName
    var publisher: (handler: RelayConnectionHandler, streamID: UInt32)?
    var publishType: PublishType = .live
    private(set) var players: [PlayerKey: Player] = [:]
    /// The same players as an array: the per-message fan-out loop iterates this.
    private(set) var fanout: [Player] = []
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

    func add(_ player: Player) {
        players[player.key] = player
        fanout = Array(players.values)
    }

    func remove(_ key: PlayerKey) {
        players[key] = nil
        fanout = Array(players.values)
    }
}
