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
    /// How many of the newest entries of the focused pane's event log are scrolled out of view, and at
    /// most how many can be (the entries that do not fit on screen).
    public var logScroll: Int
    public var logScrollLimit: Int

    public init(
        mode: ConsoleMode = .normal, focus: ConsolePane, paneCount: Int, lifecycle: LifecycleState, publisherStatus: PublisherStatus?,
        logScroll: Int = 0, logScrollLimit: Int = 0
    ) {
        self.mode = mode
        self.focus = focus
        self.paneCount = paneCount
        self.lifecycle = lifecycle
        self.publisherStatus = publisherStatus
        self.logScroll = logScroll
        self.logScrollLimit = logScrollLimit
    }
}
