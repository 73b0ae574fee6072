/// What the publisher's connection reported to its owner.
public enum PublisherNetworkEvent: Sendable, Equatable {
    /// `NetStream.Publish.Start`: the server accepted the publish.
    case publishStarted
    /// The publish was refused or the connection could not be made; `reason` is the server's code or the
    /// socket error (e.g. `NetStream.Publish.BadName`).
    case publishFailed(reason: String)
    /// The connection closed without being asked to (reset, timeout, server gone).
    case connectionLost(reason: String)
    /// The link stage changed (a key, a stdin command, a scenario press): logged, nothing else.
    case linkChanged(String)
}

extension PublisherNetworkEvent: CustomStringConvertible {
    public var description: String {
        switch self {
        case .publishStarted: "NetStream.Publish.Start"
        case .publishFailed(let reason): "publish failed: \(reason)"
        case .connectionLost(let reason): "connection lost: \(reason)"
        case .linkChanged(let text): text
        }
    }
}
