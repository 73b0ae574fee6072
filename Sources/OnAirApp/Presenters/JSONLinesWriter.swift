import Foundation
import OnAirControl
import Synchronization

/// Writes events as JSON Lines: one compact object per line, flushed per line so a pipe reader (a test,
/// `jq`, a CI log) sees each event as it happens. The JSON is `OnAirEvent.headless`'s; nothing else in
/// the process makes or reads it.
public final class JSONLinesWriter: Sendable {
    private let handle: FileHandle
    private let encoder: Mutex<JSONEncoder>
    /// Sees every event written, in order (a scenario run's timeline).
    private let observer: (@Sendable (OnAirEvent) -> Void)?

    public init(handle: FileHandle = .standardOutput, observer: (@Sendable (OnAirEvent) -> Void)? = nil) {
        self.handle = handle
        self.observer = observer
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.encoder = Mutex(encoder)
    }

    public func write(_ event: OnAirEvent) {
        // One lock around encoding, observing and writing keeps the observer's order the printed order.
        encoder.withLock { encoder in
            observer?(event)
            guard let headless = event.headless, let encoded = try? encoder.encode(headless) else { return }
            var line = Self.escapingC1(encoded)
            line.append(0x0A)
            // A closed stdout (reader gone) must not kill a broadcast; the event is simply not seen.
            try? handle.write(contentsOf: line)
        }
    }

    /// `json` with DEL and the C1 controls (U+007F–U+009F, U+009B the 8-bit CSI among them) written as
    /// `\u00XX` escapes. JSONEncoder escapes only C0; a terminal that shows a `--log` or the headless
    /// output (`tail -f`, a CI log) would act on a raw CSI from a publisher's metadata or a scenario's
    /// title (issue 29 item 6). The escape is JSON's own, so a reader decodes the very same text. Outside
    /// strings JSON is ASCII, so every such byte sequence is inside one.
    static func escapingC1(_ json: Data) -> Data {
        guard json.contains(where: { $0 == 0x7F || $0 == 0xC2 }) else { return json }
        var out = Data(capacity: json.count + 16)
        var index = json.startIndex
        while index < json.endIndex {
            let byte = json[index]
            let next = json.index(after: index)
            if byte == 0x7F {
                out.append(contentsOf: Array("\\u007f".utf8))
            } else if byte == 0xC2, next < json.endIndex, (0x80...0x9F).contains(json[next]) {
                out.append(contentsOf: Array(String(format: "\\u%04x", Int(json[next])).utf8))
                index = json.index(after: next)
                continue
            } else {
                out.append(byte)
            }
            index = next
        }
        return out
    }
}
