/// What the publisher's connection reported to its owner.
public enum PublisherNetworkEvent: Sendable, Equatable {
    /// `NetStream.Publish.Start`: the server accepted the publish.
    case publishStarted
    /// The publish was refused or the connection could not be made; `reason` is the server's code or the
    /// socket error (e.g. `NetStream.Publish.BadName`).
    case publishFailed(reason: String)
    /// The connection closed without being asked to (reset, timeout, server gone).
    case connectionLost(reason: String)
    /// The server asked to reconnect (`NetConnection.Connect.ReconnectRequest`), to `target`: the
    /// broadcast goes on while a new connection publishes there.
    case moveRequested(target: String)
    /// The new connection publishes at `target`; the old one is left after `milliseconds` from the request.
    case moved(target: String, milliseconds: Int64)
    /// The link stage changed (a key, a stdin command, a scenario press): logged, nothing else.
    case linkChanged(String)
}

extension PublisherNetworkEvent: CustomStringConvertible {
    public var description: String {
        switch self {
        case .publishStarted: "NetStream.Publish.Start"
        case .publishFailed(let reason): "publish failed: \(reason)"
        case .connectionLost(let reason): "connection lost: \(reason)"
        case .moveRequested(let target): "the server asked to reconnect (NetConnection.Connect.ReconnectRequest): publishing at \(target) next"
        case .moved(let target, let milliseconds): "moved: publishing at \(target) \(milliseconds) ms after the request; the old connection is left"
        case .linkChanged(let text): text
        }
    }
}
