/// The toasts of one pane, newest last (4 unless another capacity is given); several may be visible at
/// once (they stack), and older ones are dropped first.
public typealias ToastQueue = BoundedHistory<Toast>

extension BoundedHistory where Element == Toast {
    public init() {
        self.init(capacity: 4)
    }

    public var toasts: [Toast] { elements }
    /// Toasts posted since the queue was made: a front end that remembers it can tell which are new.
    public var postedCount: Int { appendedCount }

    public mutating func post(_ toast: Toast) {
        append(toast)
    }

    /// The toasts still on screen at `now`, oldest first.
    public func visible(at now: SessionTime) -> [Toast] { elements.filter { $0.isVisible(at: now) } }

    /// The toasts posted after the queue had `postedCount` (those still kept).
    public func toasts(after postedCount: Int) -> ArraySlice<Toast> { elements(after: postedCount) }
}
