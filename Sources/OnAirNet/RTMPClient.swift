import NIOCore
import OnAirCore
import OnAirRTMP

/// Shared pieces of OnAir's RTMP clients, ``RTMPPublisher`` and ``RTMPPlayer``: their configuration and
/// the errors they throw.
///
/// Both clients run every byte of protocol work — handshake, chunking, AMF, acknowledgements, ping
/// answers, FLV conversion — on a SwiftNIO event loop; their `async` methods only await futures, so they
/// never block Swift's cooperative thread pool.
public enum RTMPClient {
    /// Timeouts and wire choices; the defaults suit loopback tests and public ingest servers alike.
    public struct Configuration: Sendable {
        /// TCP connect timeout.
        public var connectTimeout: TimeAmount = .seconds(5)
        /// From TCP connected to S2 received (RTMP spec §5.2), the TLS handshake included for `rtmps://`.
        public var handshakeTimeout: TimeAmount = .seconds(5)
        /// How long to wait for `_result`/`_error` or the answering `onStatus` of a command.
        public var responseTimeout: TimeAmount = .seconds(10)
        /// Outgoing chunk size announced with Set Chunk Size (RTMP spec §5.4.1); FFmpeg and OBS use 4096,
        /// bigger chunks cost fewer headers on high-bitrate streams.
        public var chunkSize: Int = 4096
        /// Acknowledgement window we announce to the server after `connect` (RTMP spec §5.4.4): it then
        /// acknowledges each this many bytes it read, which a publisher checks TCP_INFO against. 256 KiB: an
        /// Acknowledgement a second at 2 Mbit/s, a few bytes each (was 2.5 MB, never sent).
        public var windowAcknowledgementSize: UInt32 = 256 << 10
        /// The `flashVer` of `connect` (RTMP spec §7.2.1.1).
        public var flashVersion: String = "FMLE/3.0 (compatible; OnAir)"
        /// Bytes the kernel may hold unsent on the socket before a write waits (`TCP_NOTSENT_LOWAT`).
        ///
        /// Without it Linux autotunes the send buffer up to `tcp_wmem`'s 4 MB, which on a link slower than
        /// the encoder silently absorbs a minute or more of media (measured: 0.8 MB queued in the kernel
        /// after 30 s at 320 kbit/s) before the engine's bounded queue ever sees backpressure — latency grows
        /// and no frame is dropped. Capping only the *unsent* bytes keeps in-flight data unlimited, so a
        /// fast link with a long round trip is not slowed; 64 KiB is 0.2 s at 2.5 Mbit/s. `nil` leaves the
        /// kernel's default.
        public var unsentBytesLimit: Int? = 64 << 10
        /// The event loop group to use; `nil` means NIO's shared singleton.
        public var eventLoopGroup: (any EventLoopGroup)?
        /// Whom an `rtmps://` connection trusts; plain `rtmp://` ignores it.
        public var tls = RTMPTLSConfiguration()
        /// Where the TCP connection goes when not to the URL's own host and port: the link stage's loopback
        /// port. Only the socket's address changes; `connect`'s `tcUrl` and `app`, the stream name and the
        /// TLS server name still name the URL the operator gave, since servers route, authenticate and
        /// build player URLs from them (issue 32).
        public var route: Route?

        public init() {}
    }

    /// A socket address to dial instead of the URL's own (see ``Configuration/route``).
    public struct Route: Sendable, Equatable {
        public var host: String
        public var port: Int

        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }
    }

    /// Why a client could not connect, publish or play, or why it stopped.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case connectionRefused(host: String, port: Int)
        case nameNotResolved(host: String)
        case connectTimedOut(host: String, port: Int)
        case tlsCertificateNotTrusted(url: String, trusted: String)
        case tlsCertificateNameMismatch(url: String, host: String)
        case tlsHandshakeFailed(url: String, reason: String)
        case handshakeFailed(String)
        case handshakeTimedOut
        case connectRejected(RTMPStatus?)
        case publishRejected(RTMPStatus)
        case commandFailed(command: String, status: RTMPStatus?)
        case responseTimedOut(command: String)
        case protocolViolation(String)
        case connectionLost
        case notPublishing
        /// The socket was reset (ECONNRESET, EPIPE, …): a peer or a network path went.
        case connectionReset

        public var description: String {
            switch self {
            case .connectionRefused(let host, let port):
                "connection refused by \(StreamURL.bracketed(host)):\(port); is the RTMP server running and listening on that port?"
            case .nameNotResolved(let host):
                "cannot resolve host name \(host); check the URL's host"
            case .connectTimedOut(let host, let port):
                "no TCP connection to \(StreamURL.bracketed(host)):\(port) within the timeout; check the address and firewall"
            case .tlsCertificateNotTrusted(let url, let trusted):
                "\(url): TLS certificate not trusted (it does not chain up to \(trusted), or it has expired): "
                    + "pass --ca-file with the CA that signed the server's certificate"
            case .tlsCertificateNameMismatch(let url, let host):
                "\(url): TLS certificate not valid for \(host) (the names it was issued for do not include it): "
                    + "use the host name the certificate names"
            case .tlsHandshakeFailed(let url, let reason):
                "\(url): TLS handshake failed (\(reason)); is this port an rtmps:// (TLS) server? A plain RTMP port needs rtmp://"
            case .handshakeFailed(let reason):
                "RTMP handshake failed: \(reason)"
            case .handshakeTimedOut:
                "the server accepted TCP but did not complete the RTMP handshake; is this port an RTMP server?"
            case .connectRejected(let status?):
                "the server rejected connect: \(status.code) \(status.description); check the application name"
            case .connectRejected(nil):
                "the server closed the connection without answering connect; check the application name and the server's connection limits and log"
            case .publishRejected(let status):
                "the server refused to publish: \(status.code)\(status.description.isEmpty ? "" : " (\(status.description))")"
                    + (status.code != .publishBadName ? ""
                        : status.description.lowercased().contains("already publishing")
                        ? "; the server still holds a publisher of this name (an earlier connection it has not yet seen go, or another one): wait, or pick another"
                        : "; the stream name is taken or invalid, pick another")
            case .commandFailed(let command, let status):
                "\(command) failed\(status.map { ": \($0.code) \($0.description)" } ?? "")"
            case .responseTimedOut(let command):
                "no answer to \(command) within the timeout; the server is stalled or does not support it"
            case .protocolViolation(let reason):
                "the server broke the RTMP protocol: \(reason)"
            case .connectionLost:
                "the connection to the RTMP server was lost; reconnect to continue"
            case .notPublishing:
                "not publishing: call start() first, or the stream was stopped"
            case .connectionReset:
                "the connection was reset (peer or path gone)"
            }
        }
    }

    /// One decoded message with its header fields, as the connection hands it to a client.
    struct Incoming: Sendable {
        var message: RTMPMessage
        var timestamp: UInt32
        var messageStreamID: UInt32
    }
}
