/// The toasts of one pane, newest last; several may be visible at once (they stack).
public struct ToastQueue: Sendable, Equatable {
    private var history: BoundedHistory<Toast>

    public init(capacity: Int = 4) {
        history = BoundedHistory(capacity: capacity)
    }

    public var toasts: [Toast] { history.elements }
    /// The most toasts kept; older ones are dropped first.
    public var capacity: Int { history.capacity }
    /// Toasts posted since the queue was made: a front end that remembers it can tell which are new.
    public var postedCount: Int { history.appendedCount }

    public mutating func post(_ toast: Toast) {
        history.append(toast)
    }

    /// The toasts still on screen at `now`, oldest first.
    public func visible(at now: SessionTime) -> [Toast] { toasts.filter { $0.isVisible(at: now) } }

    /// The toasts posted after the queue had `postedCount` (those still kept).
    public func toasts(after postedCount: Int) -> ArraySlice<Toast> { history.elements(after: postedCount) }
}
