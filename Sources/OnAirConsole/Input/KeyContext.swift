import OnAirCore

/// The panes a console screen can hold; Tab moves the keys between them.
public enum ConsolePane: String, Sendable, Hashable, CaseIterable {
    case publisher
    case subscriber
}

/// What the console is showing on top of the dashboards: it decides which keys mean anything.
public enum ConsoleMode: Sendable, Hashable {
    case normal
    case help
    case confirmingQuit
}

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
