/// The network a phone sees, as the impairment stage applies it: up or down, a cap, an added delay, and
/// which path (Wi-Fi, then cellular after a handoff) carries the connections.
///
/// A pure value: the stage in OnAirNet holds one and reads it for every byte it moves; the dashboard and the
/// `link` field of the stats show it. `path` counts handoffs: a connection opened on an older path is reset.
public struct LinkImpairmentState: Sendable, Equatable, CustomStringConvertible {
    /// False in the elevator: nothing passes either way, the sockets stay open.
    public var isUp: Bool
    /// bit/s each way; nil = as fast as the real path allows.
    public var capBitsPerSecond: Int?
    /// Added to each direction (so a round trip grows by twice this).
    public var delay: Duration
    /// 0 at start, +1 per handoff.
    public var path: Int

    public init(isUp: Bool = true, capBitsPerSecond: Int? = nil, delay: Duration = .zero, path: Int = 0) {
        self.isUp = isUp
        self.capBitsPerSecond = capBitsPerSecond
        self.delay = delay
        self.path = path
    }

    /// Applies one operator command; returns true when something changed.
    @discardableResult
    public mutating func apply(_ command: LinkCommand) -> Bool {
        let before = self
        switch command {
        case .down: isUp = false
        case .up: isUp = true
        case let .cap(bitsPerSecond): capBitsPerSecond = bitsPerSecond
        case .uncap: capBitsPerSecond = nil
        case let .delay(delay): self.delay = delay
        case let .handoff(cap, delay):
            path += 1
            isUp = true
            if let cap { capBitsPerSecond = cap }
            if let delay { self.delay = delay }
        }
        return self != before
    }

    /// `up`, `down`, then the cap and delay when set, e.g. `up cap 800k delay 120ms path 1`.
    public var description: String {
        var words = [isUp ? "up" : "down"]
        if let capBitsPerSecond { words.append("cap \(LinkCommand.rateText(capBitsPerSecond))") }
        if delay > .zero { words.append("delay \(delay.wholeMilliseconds)ms") }
        if path > 0 { words.append("path \(path)") }
        return words.joined(separator: " ")
    }
}
