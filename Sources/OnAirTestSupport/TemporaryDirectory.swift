import Foundation

/// A directory for one test's files (peer configs, logs, recordings), removed when it goes away
/// unless `ONAIR_KEEP_TEST_FILES` is set (then its path is worth printing from a failing test).
public final class TemporaryDirectory: Sendable {
    public let url: URL

    public init(prefix: String = "onair-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(12))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        if ProcessInfo.processInfo.environment["ONAIR_KEEP_TEST_FILES"] == nil {
            try? FileManager.default.removeItem(at: url)
        }
    }

    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}
