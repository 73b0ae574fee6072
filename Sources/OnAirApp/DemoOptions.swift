import OnAirCore

/// What `onair demo` was asked to do.
public struct DemoOptions: Sendable {
    /// An external server to use instead of the embedded relay.
    public var server: String?
    public var stream: String
    public var recordDirectory: String
    public var publisher: PublishOptions
    public var reconnectDelay: Double
    public var stallTimeout: Double

    public init(
        server: String? = nil,
        stream: String = "stream1",
        recordDirectory: String = "recordings",
        publisher: PublishOptions,
        reconnectDelay: Double = 2,
        stallTimeout: Double = 3
    ) {
        self.server = server
        self.stream = stream
        self.recordDirectory = recordDirectory
        self.publisher = publisher
        self.reconnectDelay = reconnectDelay
        self.stallTimeout = stallTimeout
    }
}
