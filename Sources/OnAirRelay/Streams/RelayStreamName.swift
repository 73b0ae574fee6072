import Foundation

/// A stream name the relay accepts, checked before it is used for anything: a registry key, a log line,
/// and — for `record`/`append` — a file name inside the record directory (docs/design.md §3).
///
/// The rule is an allow-list, not a deny-list: ASCII letters, digits, `-`, `_` and `.`, 1…128 characters,
/// and not `.` or `..`. So `../x`, `/etc/passwd`, `a/b`, empty names, spaces and control characters can
/// never become a path. RTMP clients put a query after the name (`stream?key=…`, RTMP spec §7.2.2.6 leaves
/// the name opaque); ``parse(_:)`` splits it off first and only the part before `?` is checked.
///
/// The application (`connect`'s `app`, the `live` of `rtmp://host/live/x`) is part of a stream's identity,
/// as in nginx-rtmp: `app1/x` and `app2/x` are two streams (GitHub issue 18 item 8). It follows the same
/// rule; events and logs show `app/name` for any application but the default `live`.
public struct RelayStreamName: Sendable, Hashable, CustomStringConvertible {
    /// Why a name is refused; the relay answers `NetStream.Publish.BadName` with this text.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case empty
        case tooLong(Int)
        case dotName
        case forbiddenCharacter(Unicode.Scalar)

        public var description: String {
            switch self {
            case .empty: "the stream name is empty"
            case .tooLong(let count): "the stream name has \(count) characters, more than \(RelayStreamName.maxLength)"
            case .dotName: "the stream name may not be \".\" or \"..\""
            case .forbiddenCharacter(let scalar):
                "the stream name contains \(Self.show(scalar)); only letters, digits, '-', '_' and '.' are allowed"
            }
        }

        private static func show(_ scalar: Unicode.Scalar) -> String {
            scalar.value < 0x20 || scalar.value == 0x7F
                ? "a control character (U+\(String(scalar.value, radix: 16, uppercase: true)))"
                : "'\(Character(scalar))'"
        }
    }

    /// Longest name accepted (nginx-rtmp has no limit; 128 keeps file names and log lines sane).
    public static let maxLength = 128

    /// The application every stock tool uses by default; its streams show (and record) without a prefix.
    public static let defaultApplication = "live"

    public let value: String
    /// The application this stream belongs to.
    public let application: String

    /// Checks `value` (already without a query), in the default application.
    public init(_ value: String) throws(Error) {
        try self.init(value, application: Self.defaultApplication)
    }

    /// Checks `value` and `application` (both already without a query).
    public init(_ value: String, application: String) throws(Error) {
        try Self.check(value)
        // An application may have several parts (`live/sub`, which some servers' URLs carry); each is a name.
        for part in application.split(separator: "/", omittingEmptySubsequences: false) { try Self.check(String(part)) }
        self.value = value
        self.application = application
    }

    /// The same stream name in `application`.
    public func inApplication(_ application: String) throws(Error) -> RelayStreamName {
        try RelayStreamName(value, application: application)
    }

    /// The application named by `connect`'s `app` field: its query (`live?key=…`) and surrounding slashes
    /// removed, the default when empty.
    public static func application(fromConnect app: String) -> String {
        let withoutQuery = app.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let trimmed = withoutQuery.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        return trimmed.isEmpty ? defaultApplication : trimmed
    }

    /// `name` in the default application, `app/name` in any other: what events, logs and statuses show.
    public var qualified: String { application == Self.defaultApplication ? value : application + "/" + value }

    /// `<directory>/<name>.flv` in the default application, `<directory>/<app>/<name>.flv` in any other.
    public func recordingURL(in directory: URL) -> URL {
        let base = application == Self.defaultApplication ? directory : directory.appendingPathComponent(application)
        return base.appendingPathComponent(value + ".flv")
    }

    private static func check(_ value: String) throws(Error) {
        let scalars = value.unicodeScalars
        guard !scalars.isEmpty else { throw .empty }
        guard scalars.count <= Self.maxLength else { throw .tooLong(scalars.count) }
        guard value != ".", value != ".." else { throw .dotName }
        for scalar in scalars where !Self.isAllowed(scalar) {
            throw .forbiddenCharacter(scalar)
        }
    }

    /// Splits `raw` at the first `?` into the checked name and its `key=value&…` query.
    public static func parse(_ raw: String) throws(Error) -> (name: RelayStreamName, query: [String: String]) {
        let parts = raw.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let name = try RelayStreamName(String(parts.first ?? ""))
        return (name, parts.count > 1 ? query(String(parts[1])) : [:])
    }

    /// `a=1&b=2` as a dictionary; later keys win, keys without `=` map to "".
    public static func query(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            result[String(kv[0])] = kv.count > 1 ? String(kv[1]) : ""
        }
        return result
    }

    public var description: String { qualified }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": true
        default: false
        }
    }
}
