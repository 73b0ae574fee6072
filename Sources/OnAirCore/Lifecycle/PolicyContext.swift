/// What a policy may look at when it decides: read-only facts kept by `PublisherSession`.
public struct PolicyContext: Sendable, Equatable {
    public var streamName: String
    /// The application state after the notification being handled.
    public var lifecycle: LifecycleState
    public var connection: PublisherConnectionPhase
    /// The publish type of the current (or last) broadcast.
    public var publishType: PublishType

    public init(
        streamName: String,
        lifecycle: LifecycleState,
        connection: PublisherConnectionPhase,
        publishType: PublishType
    ) {
        self.streamName = streamName
        self.lifecycle = lifecycle
        self.connection = connection
        self.publishType = publishType
    }

    public var isBroadcasting: Bool { connection.isBroadcasting }

    /// The local preview shows: kept by the idle phase.
    public var previewOn: Bool { connection.previewOn }

    /// The parameter the seeds send with every notice: `"streamName=\(streamName)"`.
    public var streamParameter: String { "streamName=\(streamName)" }

    /// The type to publish again with: `append` keeps a recording going, `live` otherwise
    /// (red5pro-blog-ios-interruptions.txt, `resume:`).
    public var republishType: PublishType {
        publishType == .live ? .live : .append
    }
}
