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
    /// Entries in the focused pane's event log, and how many of the newest are scrolled out of view.
    public var logLines: Int
    public var logScroll: Int

    public init(
        mode: ConsoleMode = .normal, focus: ConsolePane, paneCount: Int, lifecycle: LifecycleState, publisherStatus: PublisherStatus?,
        logLines: Int = 0, logScroll: Int = 0
    ) {
        self.mode = mode
        self.focus = focus
        self.paneCount = paneCount
        self.lifecycle = lifecycle
        self.publisherStatus = publisherStatus
        self.logLines = logLines
        self.logScroll = logScroll
    }
}
