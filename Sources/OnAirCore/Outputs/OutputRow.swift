/// One destination's line on the publisher's dashboard (`onair publish URL URL …`): what the operator
/// needs to tell a healthy output from a failing one at a glance (docs/multi-destination.md, "Dashboard").
///
/// A plain value, built once a second by the output group from the same figures as the `outputStats`
/// event, so the console draws it without depending on the outputs' tasks.
public struct OutputRow: Sendable, Equatable {
    /// 1…N, in the order the URLs were given: the number `reconnect N` names.
    public var index: Int
    /// The server only (`ingest-a.example.com`, `127.0.0.1:1936`): never the app or the stream key.
    public var host: String
    /// The dashboard's words for the connection: PUBLISHING, STALLED, RECONNECTING 3/20, …
    public var state: String
    /// Bits per second the server's TCP acknowledged over the last second (TCP_INFO, as the publisher's bitrate).
    public var sentBitsPerSecond: Int
    /// Packets waiting in the output's own queue.
    public var queueDepth: Int
    public var reconnects: Int
    /// The output the console's output keys act on (`]` moves it): `r` reconnects it, `X` stops or starts it.
    public var focused = false

    public init(index: Int, host: String, state: String, sentBitsPerSecond: Int, queueDepth: Int, reconnects: Int) {
        self.index = index
        self.host = host
        self.state = state
        self.sentBitsPerSecond = sentBitsPerSecond
        self.queueDepth = queueDepth
        self.reconnects = reconnects
    }

    /// The host of `url` as the row shows it: the port only when it is not the scheme's own, an IPv6
    /// literal in brackets. The stream key lives in the path, so it can never reach this text.
    public static func host(of url: StreamURL) -> String {
        let host = url.host.contains(":") ? "[\(url.host)]" : url.host
        return url.port == url.scheme.defaultPort ? host : "\(host):\(url.port)"
    }
}
