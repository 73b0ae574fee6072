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
    /// The last loop play count seen, to add each new play once (a loop restarts its count at 0).
    private var loopPlaysSeen = 0
    /// The embedded relay's record directory (demo), listed on exit: only files this run wrote, so what
    /// was there before it began (a previous scenario's recording, closed a moment before) is noted now.
    var recordDirectory: String? {
        didSet { filesBefore = recordDirectory.map(Self.files(in:)) ?? [:] }
    }
    private var filesBefore: [String: FileStamp] = [:]

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
        if let subscriber {
            // Every play of every loop counts: a loop that ends (even on replayed frames) and starts again
            // counts from 0 again.
            let plays = subscriber.reconnectAttempts
            if plays > loopPlaysSeen { subscriberReconnects += plays - loopPlaysSeen }
            loopPlaysSeen = plays
        }
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

    /// `.flv` files this run wrote: new, or changed since the directory was noted.
    private func recordings(in directory: String) -> [(name: String, size: Int)] {
        Self.files(in: directory).sorted { $0.key < $1.key }.compactMap { name, stamp in
            filesBefore[name] == stamp ? nil : (name, stamp.size)
        }
    }

    /// A file's size and modification time: what tells a recording this run wrote from an older one.
    struct FileStamp: Equatable {
        var size: Int
        var modified: Date?
    }

    static func files(in directory: String) -> [String: FileStamp] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var stamps: [String: FileStamp] = [:]
        for name in names where name.hasSuffix(".flv") {
            let attributes = try? FileManager.default.attributesOfItem(atPath: directory + "/" + name)
            stamps[name] = FileStamp(
                size: (attributes?[.size] as? NSNumber)?.intValue ?? 0, modified: attributes?[.modificationDate] as? Date)
        }
        return stamps
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
