import Foundation
import Synchronization

/// Writes `HeadlessEvent`s as JSON Lines: one compact object per line, flushed per line so a pipe
/// reader (a test, `jq`, a CI log) sees each event as it happens.
public final class JSONLinesWriter: Sendable {
    private let handle: FileHandle
    private let encoder: Mutex<JSONEncoder>

    public init(handle: FileHandle = .standardOutput) {
        self.handle = handle
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.encoder = Mutex(encoder)
    }

    public func write(_ event: HeadlessEvent) {
        let line: Data? = encoder.withLock { encoder in
            guard var data = try? encoder.encode(event) else { return nil }
            data.append(0x0A)
            return data
        }
        guard let line else { return }
        // A closed stdout (reader gone) must not kill a broadcast; the event is simply not seen.
        try? handle.write(contentsOf: line)
    }
}
