import OnAirCore

/// Everything the key table needs to know to say whether a key does something now.
public struct KeyContext: Sendable, Equatable {
    public var mode: ConsoleMode
    /// The pane the keys go to.
    public var focus: ConsolePane
    public var paneCount: Int
    /// The focused pane's simulated app state.
    public var lifecycle: LifecycleState
    /// The publisher's status when the publisher pane has focus; nil for the subscriber.
    public var publisherStatus: PublisherStatus?

    public init(mode: ConsoleMode = .normal, focus: ConsolePane, paneCount: Int, lifecycle: LifecycleState, publisherStatus: PublisherStatus?) {
        self.mode = mode
        self.focus = focus
        self.paneCount = paneCount
        self.lifecycle = lifecycle
        self.publisherStatus = publisherStatus
    }
}
