/// The newest `capacity` elements, oldest first, and how many were ever appended: the one bounded queue
/// behind the event log and the toasts.
///
/// Why the count: a front end that remembers `appendedCount` can tell exactly which elements are new since
/// it last looked, even when older ones were dropped for capacity in between.
public struct BoundedHistory<Element: Sendable>: Sendable {
    public private(set) var elements: [Element] = []
    public let capacity: Int
    public private(set) var appendedCount = 0

    public init(capacity: Int) {
        precondition(capacity > 0, "a history keeps at least one element")
        self.capacity = capacity
    }

    /// Adds `element`, dropping the oldest beyond `capacity`.
    public mutating func append(_ element: Element) {
        appendedCount += 1
        elements.append(element)
        if elements.count > capacity { elements.removeFirst(elements.count - capacity) }
    }

    /// The newest `count` elements, oldest first.
    public func last(_ count: Int) -> ArraySlice<Element> { elements.suffix(max(0, count)) }

    /// The elements appended after the history had `appendedCount` (those still kept).
    public func elements(after appendedCount: Int) -> ArraySlice<Element> {
        elements.suffix(max(0, min(elements.count, self.appendedCount - appendedCount)))
    }
}

extension BoundedHistory: Equatable where Element: Equatable {}
