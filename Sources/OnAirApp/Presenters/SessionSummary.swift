import Foundation
import OnAirConsole
import OnAirCore

/// What a console session did, printed on exit as OBS shows it: time on air, media bytes sent,
/// reconnects, and the recordings with where they are. Every figure is counted from what happened
/// (ticks while live, bytes the connection accepted), not estimated.
struct SessionSummary {
    private(set) var onAir: Duration = .zero
    private(set) var bytesSent = 0
    private(set) var publisherReconnects = 0
    private(set) var subscriberReconnects = 0
    private var sawPublisher = false
    private var lastObservation: SessionTime?
    private var wasLive = false
    private var lastAttempt: Int?
    /// The embedded relay's record directory (demo), listed on exit.
    var recordDirectory: String?
    private let started = Date()

    /// Called on every tick: adds the time since the last tick to the time on air if the publisher was live.
    mutating func observe(publisher: PublisherAppState?, subscriber: SubscriberAppState?, bytesSent: Int?, at now: SessionTime) {
        if let last = lastObservation, wasLive { onAir += now.since(last) }
        lastObservation = now
        if let publisher {
            sawPublisher = true
            wasLive = publisher.status.isLive
            if case .reconnecting(let attempt, _) = publisher.status {
                if attempt != lastAttempt { publisherReconnects += 1 }
                lastAttempt = attempt
            } else {
                lastAttempt = nil
            }
        }
        if let bytesSent { self.bytesSent = bytesSent }
        if let subscriber { subscriberReconnects = max(subscriberReconnects, subscriber.reconnectAttempts) }
    }

    /// The summary, one fact per line.
    func lines(at now: SessionTime) -> [String] {
        var lines: [String] = []
        var session = "onair: session \(ConsoleFormat.clock(now.since(SessionTime(milliseconds: 0))))"
        if sawPublisher {
            session += ", on air \(ConsoleFormat.clock(onAir)), \(Self.bytes(bytesSent)) sent"
            session += ", \(publisherReconnects) publisher reconnect\(publisherReconnects == 1 ? "" : "s")"
        }
        session += subscriberReconnects > 0 ? ", subscriber played again \(subscriberReconnects) time\(subscriberReconnects == 1 ? "" : "s")" : ""
        lines.append(session)
        if let recordDirectory {
            let files = recordings(in: recordDirectory)
            if files.isEmpty {
                lines.append("onair: no recordings this session (publish type record/append writes them to \(recordDirectory))")
            } else {
                lines.append("onair: recordings in \(recordDirectory): " + files.map { "\($0.name) (\(Self.bytes($0.size)))" }.joined(separator: ", "))
            }
        }
        return lines
    }

    /// `.flv` files written since this session started.
    private func recordings(in directory: String) -> [(name: String, size: Int)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".flv") }.sorted().compactMap { name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: directory + "/" + name)
            guard let modified = attributes?[.modificationDate] as? Date, modified >= started.addingTimeInterval(-1) else { return nil }
            return (name, (attributes?[.size] as? NSNumber)?.intValue ?? 0)
        }
    }

    static func bytes(_ count: Int) -> String {
        switch count {
        case ..<1000: "\(count) B"
        case ..<1_000_000: String(format: "%.1f kB", Double(count) / 1000)
        case ..<1_000_000_000: String(format: "%.1f MB", Double(count) / 1_000_000)
        default: String(format: "%.2f GB", Double(count) / 1_000_000_000)
        }
    }
}
