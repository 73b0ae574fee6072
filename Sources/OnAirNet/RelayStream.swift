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

    struct Player {
        var handler: RelayConnectionHandler
        var streamID: UInt32
        var bytesOut: UInt64 = 0
    }

    let name: RelayStreamName
    var publisher: (handler: RelayConnectionHandler, streamID: UInt32)?
    var publishType: PublishType = .live
    var players: [PlayerKey: Player] = [:]
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
}
