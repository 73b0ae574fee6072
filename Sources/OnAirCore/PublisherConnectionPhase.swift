/// Where the publisher's connection is. `PublisherSession` is the only place that changes it, and only
/// while applying actions or network events, so it is never assigned from many places.
public enum PublisherConnectionPhase: Sendable, Equatable {
    /// No connection: idle or preview.
    case none
    /// `publish` was sent on a new connection; waiting for `NetStream.Publish.Start`.
    case connecting
    /// The server accepted the publish.
    case live
    /// The connection was lost; reconnect attempt `attempt` waits for its timer.
    case waitingToReconnect(attempt: Int)
    /// Closed on purpose to show a suspended app dropping off (background-audio).
    case dropped
    /// Gave up; the message is what the operator sees.
    case failed(String)

    /// A broadcast is under way or being restored: the seeds' "publishStream != nil / mode == publish".
    public var isBroadcasting: Bool {
        switch self {
        case .connecting, .live, .waitingToReconnect: true
        case .none, .dropped, .failed: false
        }
    }
}

/// What a policy may look at when it decides: read-only facts kept by `PublisherSession`.
public struct PolicyContext: Sendable, Equatable {
    public var streamName: String
    /// The application state after the notification being handled.
    public var lifecycle: LifecycleState
    public var connection: PublisherConnectionPhase
    /// The publish type of the current (or last) broadcast.
    public var publishType: PublishType
    public var previewOn: Bool

    public init(
        streamName: String,
        lifecycle: LifecycleState,
        connection: PublisherConnectionPhase,
        publishType: PublishType,
        previewOn: Bool
    ) {
        self.streamName = streamName
        self.lifecycle = lifecycle
        self.connection = connection
        self.publishType = publishType
        self.previewOn = previewOn
    }

    public var isBroadcasting: Bool { connection.isBroadcasting }

    /// The parameter the seeds send with every notice: `"streamName=\(streamName)"`.
    public var streamParameter: String { "streamName=\(streamName)" }

    /// The type to publish again with: `append` keeps a recording going, `live` otherwise
    /// (red5pro-blog-ios-interruptions.txt, `resume:`).
    public var republishType: PublishType {
        publishType == .live ? .live : .append
    }
}
