import Foundation
import OnAirControl
import Synchronization

/// Writes `HeadlessEvent`s as JSON Lines: one compact object per line, flushed per line so a pipe
/// reader (a test, `jq`, a CI log) sees each event as it happens.
public final class JSONLinesWriter: Sendable {
    private let handle: FileHandle
    private let encoder: Mutex<JSONEncoder>
    /// Sees every event written, in order (a scenario run's timeline).
    private let observer: (@Sendable (HeadlessEvent) -> Void)?

    public init(handle: FileHandle = .standardOutput, observer: (@Sendable (HeadlessEvent) -> Void)? = nil) {
        self.handle = handle
        self.observer = observer
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.encoder = Mutex(encoder)
    }

    public func write(_ event: HeadlessEvent) {
        // One lock around encoding, observing and writing keeps the observer's order the printed order.
        encoder.withLock { encoder in
            observer?(event)
            guard var line = try? encoder.encode(event) else { return }
            line.append(0x0A)
            // A closed stdout (reader gone) must not kill a broadcast; the event is simply not seen.
            try? handle.write(contentsOf: line)
        }
    }
}
