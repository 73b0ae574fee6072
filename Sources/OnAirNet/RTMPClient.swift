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
}
