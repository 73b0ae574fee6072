/// A stream name the relay accepts, checked before it is used for anything: a registry key, a log line,
/// and — for `record`/`append` — a file name inside the record directory (DESIGN.md §3).
///
/// The rule is an allow-list, not a deny-list: ASCII letters, digits, `-`, `_` and `.`, 1…128 characters,
/// and not `.` or `..`. So `../x`, `/etc/passwd`, `a/b`, empty names, spaces and control characters can
/// never become a path. RTMP clients put a query after the name (`stream?key=…`, RTMP spec §7.2.2.6 leaves
/// the name opaque); ``parse(_:)`` splits it off first and only the part before `?` is checked.
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

    public let value: String

    /// Checks `value` (already without a query).
    public init(_ value: String) throws(Error) {
        let scalars = value.unicodeScalars
        guard !scalars.isEmpty else { throw .empty }
        guard scalars.count <= Self.maxLength else { throw .tooLong(scalars.count) }
        guard value != ".", value != ".." else { throw .dotName }
        for scalar in scalars where !Self.isAllowed(scalar) {
            throw .forbiddenCharacter(scalar)
        }
        self.value = value
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

    public var description: String { value }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": true
        default: false
        }
    }
}
