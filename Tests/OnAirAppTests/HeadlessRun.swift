import Foundation
import OnAirTestSupport

/// A headless `onair` run started by a test: its JSON Lines output parsed into events.
struct HeadlessRun {
    struct Event {
        var time: Int64
        var side: String
        var kind: String
        var details: [String: Any]

        var text: String { details["text"] as? String ?? "" }
    }

    let peer: PeerProcess

    init(_ arguments: [String], in directory: TemporaryDirectory, standardInput: FileHandle? = nil) throws {
        peer = try PeerProcess(OnAirBinary.url.path, arguments, in: directory.url, standardInput: standardInput)
    }

    /// `onair` started by `launcher` (`ip netns exec NS`, which execs it: the peer is onair itself).
    init(_ arguments: [String], in directory: TemporaryDirectory, launcher: [String]) throws {
        let command = launcher + [OnAirBinary.url.path] + arguments
        peer = try PeerProcess(command[0], Array(command.dropFirst()), in: directory.url)
    }

    /// Every line of stdout parsed; a line that is not a JSON object with the four schema fields is
    /// returned in `malformed`.
    var events: (events: [Event], malformed: [String]) {
        var events: [Event] = []
        var malformed: [String] = []
        for line in peer.standardOutput.split(separator: "\n") {
            guard
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let time = object["time"] as? Int64 ?? (object["time"] as? Int).map(Int64.init),
                let side = object["side"] as? String,
                let kind = object["kind"] as? String,
                let details = object["details"] as? [String: Any],
                object.count == 4
            else {
                malformed.append(String(line))
                continue
            }
            events.append(Event(time: time, side: side, kind: kind, details: details))
        }
        return (events, malformed)
    }

    /// Waits until an event matching `predicate` has been printed, or `timeout` passes (a safety net: was 20 s,
    /// now 60 s for a loaded machine, issue 24).
    func waitFor(_ timeout: Duration = .seconds(60), _ predicate: (Event) -> Bool) -> Event? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let match = events.events.first(where: predicate) { return match }
            if !peer.isRunning { return events.events.first(where: predicate) }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return nil
    }

    /// ``waitFor(_:_:)`` for async tests: polls without holding a pool thread.
    func waitFor(_ timeout: Duration = .seconds(60), _ predicate: (Event) -> Bool) async -> Event? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let match = events.events.first(where: predicate) { return match }
            if !peer.isRunning { return events.events.first(where: predicate) }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }
}
