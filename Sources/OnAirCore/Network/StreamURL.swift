/// An RTMP publish/play address: `rtmp[s]://[user:pass@]host[:port]/app[/instance]/stream[?query]`.
///
/// RTMP splits an address in two (RTMP spec §7.2.1.1, docs/design.md §3): the *application* goes in
/// `connect`'s `tcUrl`/`app` fields, and the *stream name* goes in `publish`/`play`. The stream name is
/// the last path segment plus the query (services put their key there, e.g. `stream?key=…`), which is
/// why ``description`` is the ``redacted`` form: logs and the console must never show a key.
public struct StreamURL: Sendable, Equatable, CustomStringConvertible {
    /// `rtmp` (plain TCP, default port 1935) or `rtmps` (TLS, default port 443).
    public enum Scheme: String, Sendable, Equatable {
        case rtmp
        case rtmps

        /// The port used when the address names none (Adobe's registered RTMP port; HTTPS for RTMPS).
        public var defaultPort: Int {
            switch self {
            case .rtmp: 1935
            case .rtmps: 443
            }
        }
    }

    /// Why a string is not an RTMP address; the description says what was expected.
    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case unsupportedScheme(String)
        case missingHost(String)
        case invalidPort(String)
        case missingApplication(String)
        case missingStreamName(String)
        /// A host with a bracket or a colon outside a bracketed IPv6 literal (`[::1:1935`, `::1`).
        case invalidHost(String)

        public var description: String {
            let expected = "expected rtmp[s]://host[:port]/app/stream"
            switch self {
            case .unsupportedScheme(let got): return "\(expected), got \(got) (the scheme must be rtmp or rtmps)"
            case .missingHost(let got): return "\(expected), got \(got) (no host)"
            case .invalidPort(let got): return "\(expected), got \(got) (the port must be a number from 1 to 65535)"
            case .missingApplication(let got): return "\(expected), got \(got) (no application name)"
            case .missingStreamName(let got): return "\(expected), got \(got) (no stream name after the application)"
            case .invalidHost(let got): return "\(expected), got \(got) (an IPv6 address goes in brackets: rtmp://[::1]:1935/app/stream)"
            }
        }
    }

    public var scheme: Scheme
    /// Host name or IP literal, without IPv6 brackets.
    public var host: String
    public var port: Int
    /// The application path (`app` or `app/instance`) sent in `connect`.
    public var app: String
    /// The stream name sent in `publish`/`play`, including any `?query`.
    public var streamName: String
    public var user: String?
    public var password: String?

    /// Parses `string`; see ``ParseError`` for what is refused.
    public init(_ string: String) throws(ParseError) {
        let parts = string.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let scheme = Scheme(rawValue: parts[0].lowercased()) else {
            throw .unsupportedScheme(Self.redact(string))
        }
        self.scheme = scheme
        var rest = Substring(parts[1])
        let authority: Substring
        if let slash = rest.firstIndex(of: "/") {
            authority = rest[..<slash]
            rest = rest[rest.index(after: slash)...]
        } else {
            authority = rest
            rest = ""
        }
        var hostPort = authority
        if let at = authority.lastIndex(of: "@") {
            let credentials = authority[..<at]
            hostPort = authority[authority.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                user = String(credentials[..<colon])
                password = String(credentials[credentials.index(after: colon)...])
            } else {
                user = String(credentials)
            }
        }
        var portText: Substring?
        if hostPort.hasPrefix("["), let close = hostPort.firstIndex(of: "]") {
            host = String(hostPort[hostPort.index(after: hostPort.startIndex)..<close])
            let after = hostPort[hostPort.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty {
                throw .invalidPort(Self.redact(string))
            }
        } else if let colon = hostPort.lastIndex(of: ":") {
            host = String(hostPort[..<colon])
            portText = hostPort[hostPort.index(after: colon)...]
        } else {
            host = String(hostPort)
        }
        guard !host.isEmpty else { throw .missingHost(Self.redact(string)) }
        // `rtmp://[::1:1935/…` (no closing bracket) or an unbracketed IPv6 literal: a usage error, not a
        // host name to resolve (issue 29 item 7).
        guard !host.contains("["), !host.contains("]"), !(host.contains(":") && !hostPort.hasPrefix("[")) else {
            throw .invalidHost(Self.redact(string))
        }
        if let portText {
            guard let value = Int(portText), (1...65_535).contains(value) else { throw .invalidPort(Self.redact(string)) }
            port = value
        } else {
            port = scheme.defaultPort
        }
        var query: Substring = ""
        // `live?key=K/stream` (the app form, as ffmpeg and OBS accept it): the query belongs to the
        // application and travels in `connect`; otherwise it belongs to the stream name.
        if let mark = rest.firstIndex(of: "?"), !rest[mark...].contains("/") {
            query = rest[mark...]
            rest = rest[..<mark]
        }
        let segments = rest.split(separator: "/", omittingEmptySubsequences: true)
        guard !segments.isEmpty, !segments[0].hasPrefix("?") else { throw .missingApplication(Self.redact(string)) }
        guard segments.count >= 2 else { throw .missingStreamName(Self.redact(string)) }
        app = segments.dropLast().joined(separator: "/")
        streamName = String(segments[segments.count - 1]) + query
    }

    /// True for `rtmps`.
    public var usesTLS: Bool { scheme == .rtmps }

    /// The `tcUrl` of `connect` (RTMP spec §7.2.1.1): scheme, host, port and application, no stream name.
    public var tcURL: String {
        "\(scheme.rawValue)://\(bracketedHost):\(port)/\(app)"
    }

    /// The address with credentials, query values and key-like stream names hidden; safe for logs.
    public var redacted: String {
        let name = Redaction.streamName(streamName)
        let credentials = user == nil ? "" : "***@"
        return "\(scheme.rawValue)://\(credentials)\(bracketedHost):\(port)/\(Redaction.streamName(app))/\(name)"
    }

    public var description: String { redacted }

    private var bracketedHost: String { Self.bracketed(host) }

    /// `host` as it goes in a URL or a `host:port` text: an IPv6 literal in brackets.
    public static func bracketed(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }

    /// `head` (`/live?key=K/`) with the values of any query in it hidden.
    private static func redactQueries(_ head: Substring) -> String {
        head.split(separator: "/", omittingEmptySubsequences: false).map { Redaction.streamName(String($0)) }.joined(separator: "/")
    }

    /// Best-effort redaction of a string that did not parse, for error messages.
    static func redact(_ string: String) -> String {
        guard let schemeEnd = string.firstRange(of: "://") else { return string }
        var rest = Substring(string[schemeEnd.upperBound...])
        var prefix = String(string[..<schemeEnd.upperBound])
        if let at = rest.firstIndex(of: "@"), !rest[..<at].contains("/") {
            prefix += "***@"
            rest = rest[rest.index(after: at)...]
        }
        if let slash = rest.lastIndex(of: "/") {
            let head = rest[...slash]
            return prefix + redactQueries(head) + Redaction.streamName(String(rest[rest.index(after: slash)...]))
        }
        return prefix + rest
    }
}
