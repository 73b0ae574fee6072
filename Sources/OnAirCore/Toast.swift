/// A transient notice centred on a pane, as the seeds' `ALToastView.toast(in:withText:)`:
/// "Tap to Re-Publish!", "Publish Background", "Publisher Foreground".
public struct Toast: Sendable, Equatable, Codable {
    public var text: String
    public var postedAt: SessionTime
    /// How long it stays on screen, in milliseconds.
    public var lifetimeMilliseconds: Int64

    public static let defaultLifetimeMilliseconds: Int64 = 3000

    public init(text: String, postedAt: SessionTime, lifetimeMilliseconds: Int64 = Toast.defaultLifetimeMilliseconds) {
        self.text = text
        self.postedAt = postedAt
        self.lifetimeMilliseconds = lifetimeMilliseconds
    }

    public func isVisible(at now: SessionTime) -> Bool {
        now.milliseconds >= postedAt.milliseconds && now.milliseconds < postedAt.milliseconds + lifetimeMilliseconds
    }
}

/// The toasts of one pane, newest last; several may be visible at once (they stack).
public struct ToastQueue: Sendable, Equatable {
    public private(set) var toasts: [Toast] = []
    /// The most toasts kept; older ones are dropped first.
    public let capacity: Int

    public init(capacity: Int = 4) {
        self.capacity = capacity
    }

    public mutating func post(_ toast: Toast) {
        toasts.append(toast)
        if toasts.count > capacity { toasts.removeFirst(toasts.count - capacity) }
    }

    /// The toasts still on screen at `now`, oldest first.
    public func visible(at now: SessionTime) -> [Toast] { toasts.filter { $0.isVisible(at: now) } }

    /// Forgets toasts that have expired by `now`.
    public mutating func expire(at now: SessionTime) {
        toasts.removeAll { now.milliseconds >= $0.postedAt.milliseconds + $0.lifetimeMilliseconds }
    }
}
