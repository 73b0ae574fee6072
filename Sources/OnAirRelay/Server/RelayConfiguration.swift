import Foundation
import NIOCore
import OnAirCore

/// How an embedded relay (`onair serve`, or in-process for `onair demo`) listens, checks publishers,
/// records and protects itself from slow players.
///
/// Defaults follow docs/design.md §3: loopback only, port 1935, no key. Listening on any other address needs a
/// ``publishKey``: publishers present it as `?key=KEY` after the stream name
/// (`rtmp://host/live/stream1?key=KEY`, what OBS and ffmpeg put in a "stream key"), or in the application
/// part of the URL (`rtmp://host/live?key=KEY/stream1`, carried by `connect`'s `app`/`tcUrl`). Players need
/// no key.
public struct RelayConfiguration: Sendable {
    /// Why a configuration cannot be used; each says what to change.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case badAddress(String)
        case keyRequired(host: String)

        public var description: String {
            switch self {
            case .badAddress(let text):
                "bad listen address \"\(text)\": expected HOST:PORT, e.g. 127.0.0.1:1935 or [::1]:1935, with a port from 0 to 65535"
            case .keyRequired(let host):
                "listening on \(host) reaches beyond this machine: set --publish-key so that only your publishers can publish"
            }
        }
    }

    /// Address to bind; a loopback address unless ``publishKey`` is set.
    public var host: String = "127.0.0.1"
    /// Which publishes are recorded (GitHub issue 18 item 7): stock encoders always publish `live`.
    public enum RecordMode: String, Sendable, CaseIterable {
        /// `record` and `append` publishes are recorded, `live` ones only when they ask with `?record=`.
        case byType = "by-type"
        /// Every publish is recorded; a `live` one as `record` (a new file) unless `?record=` says otherwise.
        case all
        /// Nothing is recorded, whatever the publish type or query.
        case none

        /// The stream-name query a publisher adds to choose (`name?record=append`).
        public static let queryKey = "record"

        /// A `?record=` value that is none of the accepted ones.
        public struct BadQuery: Swift.Error, Equatable, CustomStringConvertible {
            public let description: String
        }

        /// How a publish of `type` with `?record=` value `query` is recorded: `record`/`append`, or `nil` for
        /// not at all.
        public func recording(type: PublishType, query: String?) throws(BadQuery) -> PublishType? {
            let requested: PublishType??
            switch query?.lowercased() {
            case nil: requested = nil
            case "record", "1", "yes", "true": requested = .some(.record)
            case "append": requested = .some(.append)
            case "none", "no", "0", "false", "live": requested = .some(PublishType?.none)
            case let other?:
                throw BadQuery(description: "?record= takes record, append or none, not \"\(RelayLogText.safe(other))\"")
            }
            switch self {
            case .none: return nil
            case .byType: return requested ?? (type == .live ? nil : type)
            case .all: return requested ?? (type == .live ? .record : type)
            }
        }
    }

    /// TCP port; 0 lets the kernel choose (read it back from ``RelayServer/port``).
    public var port: Int = 1935
    /// The key publishers must present; `nil` lets anyone on the (loopback) interface publish.
    public var publishKey: String?
    /// Where `record`/`append` publishes write `<name>.flv`; `nil` records nothing.
    public var recordDirectory: URL?
    /// Which publishes are recorded into ``recordDirectory``.
    public var recordMode: RecordMode = .byType
    /// A publisher that sends nothing for this long, socket open, is treated as gone (like nginx-rtmp's
    /// `drop_idle_publisher`): players get UnpublishNotify and the connection is closed. `nil` disables it.
    public var idleTimeout: TimeAmount? = .seconds(5)
    /// Bytes queued for one player beyond what its socket accepts; past this the player skips to the
    /// next keyframe (counted as drops), so a slow player never holds back the publisher or others.
    public var playerQueueLimit: Int = 2 << 20
    /// NIO's write-buffer water marks per connection: above `high` a channel is unwritable and the relay
    /// stops handing it bytes (they wait in the player queue instead).
    public var writeBufferWaterMark = ChannelOptions.Types.WriteBufferWaterMark(low: 64 << 10, high: 256 << 10)
    /// SO_SNDBUF for accepted sockets; `nil` keeps the kernel's autotuning. Tests set it small so that a
    /// stalled player fills up quickly.
    public var socketSendBufferSize: Int?
    /// TCP_NODELAY on accepted sockets: on, media goes out as soon as it is written (lowest hop latency);
    /// off, the kernel may coalesce small writes (fewer packets, a little less CPU on busy fan-outs).
    public var tcpNoDelay = true
    /// Players' bytes go straight to their sockets (`send(2)` on a duplicate of the descriptor) while NIO
    /// holds none of their unsent bytes, instead of one NIO pipeline write and flush per player per burst:
    /// the relay's fan-out CPU at nginx-rtmp's latency (GitHub issue 31). Off: every byte through NIO.
    public var directWrites = true
    /// Outgoing chunk size announced to every peer (RTMP spec §5.4.1); nginx-rtmp and FFmpeg use 4096.
    public var chunkSize: Int = 4096
    /// Window Acknowledgement Size and Set Peer Bandwidth announced on connect (RTMP spec §5.4.4, §5.4.5);
    /// nginx-rtmp's `ack_window` default.
    public var acknowledgementWindow: UInt32 = 5_000_000
    /// How often per-stream byte counters are reported as ``RelayEvent/streamStats(_:)``.
    public var statsInterval: TimeAmount = .seconds(10)
    /// Most bytes of the last GOP kept for late joiners; a longer GOP is not cached (players then wait
    /// for the next keyframe).
    public var gopCacheLimit: Int = 8 << 20
    /// Most connections one client IP address may have open at once; the next one is closed as soon as it
    /// is accepted (reported as ``RelayEvent/connectionRejected(connection:remote:reason:)``). `nil`: no limit.
    /// 32 is far above what one real publisher or viewer machine opens, and low enough that one client
    /// cannot take the relay's file descriptors.
    public var maxConnectionsPerAddress: Int? = 32
    /// Whether loopback clients (127.0.0.0/8, ::1) count against ``maxConnectionsPerAddress``. Off by
    /// default: a loopback client is this machine itself — the only client at all with the default
    /// 127.0.0.1 bind — and local tools legitimately open many (`onair demo`, the 100-player fan-out bench).
    public var limitsLoopback = false
    /// While fewer than this many connections are open, loopback clients are exempt from
    /// ``maxConnectionsPerAddress`` (when ``limitsLoopback`` is off); from this many on they are held to it like
    /// any address, so a local client cannot take every file descriptor (GitHub issue 14). `nil`: always exempt.
    public var loopbackExemptionLimit: Int? = 256
    /// Most message streams one connection may create (`createStream`): a publisher needs one, a player one
    /// per stream it plays. The next `createStream` is answered with `_error` and the connection closed.
    public var maxMessageStreamsPerConnection = 16
    /// Most streams one connection may play at once, and (times ``playCommandsPerPlay``) `play` commands over
    /// its life; Red5 and nginx-rtmp allow a handful. Past either the play is refused and the connection closed.
    public var maxPlaysPerConnection = 8
    /// `play` commands a connection may send over its life per allowed concurrent play (a player restarts a
    /// play now and then; a flood of them is an attack).
    public static let playCommandsPerPlay = 8
    /// Bytes of protocol answers (pongs, status, command results) queued for a peer that does not read
    /// them; past this the connection is closed (GitHub issue 14: a ping flood grew the relay by 2 GB).
    public var maxQueuedControlBytes = 1 << 20
    /// Commands and pings one connection may send per second, after a burst of ``requestBurst``; faster
    /// is a flood and closes the connection (a real client sends a handful per session, plus a ping a minute).
    public static let requestRate = 100.0
    public static let requestBurst = 500
    /// A connection that sent `connect` but neither publishes nor plays for this long is closed (nginx-rtmp's
    /// `timeout`), so idle sockets cannot pile up. `nil` disables it.
    public var connectIdleTimeout: TimeAmount? = .seconds(15)
    /// Most bytes announced by a connection's unfinished messages across its chunk streams at once.
    public var maxPartialMessageBytes = 16 << 20
    /// A message whose chunks have started arriving but which is not complete after this long closes the
    /// connection (a peer trickling 60 large messages would otherwise pin their memory for ever).
    public var incompleteMessageTimeout: TimeAmount = .seconds(10)
    /// How long the relay stops accepting when `accept` fails for lack of descriptors or memory (EMFILE,
    /// ENFILE, ENOBUFS, ENOMEM): logged once per episode, never a busy loop (NIO's AcceptBackoffHandler).
    public var acceptBackoff: TimeAmount = .milliseconds(250)
    /// A client that has not completed the RTMP handshake and sent `connect` this long after connecting is
    /// closed (reported as a rejection), so half-open and silent sockets do not pile up.
    public var handshakeTimeout: TimeAmount = .seconds(5)
    /// How long a fan-out batch holding only audio frames may wait for the next video frame, so that both
    /// go to every player in one write (for 30 fps video with AAC, measured 41 → 30 writes per player per
    /// second, and a third less relay CPU; GitHub issue 5). Audio then reaches players up to this much later — video, data messages, sequence
    /// headers and status never wait. Like SRS's merged writes (`mw_latency`), much shorter. `nil`: never.
    public var audioMergeWindow: TimeAmount? = .milliseconds(40)
    /// The event loop group to run on; `nil` gives the relay its own single thread. Every connection of
    /// one relay runs on one event loop taken from it, which owns all stream state.
    public var eventLoopGroup: (any EventLoopGroup)?

    public init() {}

    /// Parses `HOST:PORT` (`[v6]:PORT` for IPv6) and checks that a non-loopback host comes with a key.
    public init(listen: String, publishKey: String?) throws(Error) {
        let (host, port) = try Self.parseAddress(listen)
        self.host = host
        self.port = port
        self.publishKey = publishKey.flatMap { $0.isEmpty ? nil : $0 }
        try validate()
    }

    /// Throws when the address is not loopback and no key is set.
    public func validate() throws(Error) {
        if !Self.isLoopback(host) && publishKey == nil { throw .keyRequired(host: host) }
    }

    /// Loopback: 127.0.0.0/8, ::1 and `localhost`.
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    static func parseAddress(_ text: String) throws(Error) -> (String, Int) {
        var host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw .badAddress(text) }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw .badAddress(text) }
            portText = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw .badAddress(text) }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard let port = Int(portText), (0...65_535).contains(port), !host.isEmpty, !host.contains(" ") else {
            throw .badAddress(text)
        }
        if host == "localhost" { host = "127.0.0.1" }
        return (String(host), port)
    }
}
