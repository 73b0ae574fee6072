import CLinuxTCP
import NIOCore
import OnAirCore
import Synchronization

/// Reads the kernel's `TCP_INFO` on the publisher's connection to the server: the socket NIO owns, with
/// or without TLS on it (NIOSSL is a handler in the same TCP channel's pipeline), with or without OnAir's
/// link stage in front. ABR, the publisher's `bitrate` and the send-stall watchdog read what the kernel
/// says the server acknowledged, never what a proxy of ours counted.
///
/// The read goes through NIO's `SocketOptionProvider` on the channel's event loop, so it can never race
/// the channel's close and read a reused descriptor. One probe lives as long as the publisher: each
/// connection that starts publishing is attached with a new number, so a reconnect is told apart.
public final class PublisherTCPProbe: Sendable {
    private struct Attached {
        var connection = 0
        var channel: (any Channel)?
        /// The server's Acknowledgements on this connection (RTMP spec §5.4.3): the cross-check of TCP_INFO.
        var acknowledgements: RTMPAcknowledgementCheck?
    }

    private let attached = Mutex(Attached())

    public init() {}

    /// The connection that now carries the broadcast; `window` is the Window Acknowledgement Size it
    /// announced to the server.
    func attach(_ channel: any Channel, window: UInt32) {
        attached.withLock {
            $0.connection += 1
            $0.channel = channel
            $0.acknowledgements = RTMPAcknowledgementCheck(window: window)
        }
    }

    /// The event loop of the attached connection, if any (`EventLoopTaskExecutor.following(probe:)`).
    var eventLoop: (any EventLoop)? { attached.withLock { $0.channel?.eventLoop } }

    /// The server acknowledged `sequence` bytes of the chunk stream on the attached connection.
    func serverAcknowledged(_ sequence: UInt32) {
        attached.withLock { $0.acknowledgements?.acknowledged(sequence: sequence) }
    }

    /// The server's Acknowledgements on the attached connection, and its number; nil before one is attached.
    public var acknowledgements: (connection: Int, check: RTMPAcknowledgementCheck)? {
        attached.withLock { attached in attached.acknowledgements.map { (attached.connection, $0) } }
    }

    /// The newest reading of the attached connection, its number, and the instant the kernel was read (on
    /// the channel's event loop: the awaiting task may resume much later on a loaded machine, and a count
    /// stamped then reads as a rate far above the link's); nil while no connection is open.
    public func read() async -> (connection: Int, sample: TCPInfoSample, at: ContinuousClock.Instant)? {
        let (connection, channel) = attached.withLock { ($0.connection, $0.channel) }
        guard let channel, channel.isActive, let provider = channel as? any SocketOptionProvider else { return nil }
        do {
            let read: @Sendable () -> EventLoopFuture<(onair_tcp_info, ContinuousClock.Instant)> = {
                let at = ContinuousClock.now
                let future: EventLoopFuture<onair_tcp_info> = provider.unsafeGetSocketOption(level: .tcp, name: .tcp_info)
                return future.map { ($0, at) }
            }
            // On the loop already (the sampler runs there, `EventLoopTaskExecutor`): no task to queue first.
            let (info, at) = try await (channel.eventLoop.inEventLoop ? read() : channel.eventLoop.flatSubmit(read)).get()
            return (connection, TCPInfoSample(info), at)
        } catch {
            // The channel closed between the check and the read: no connection now.
            return nil
        }
    }
}

extension TCPInfoSample {
    /// The fields ABR reads, from the kernel's struct.
    init(_ info: onair_tcp_info) {
        self.init(
            bytesAcknowledged: info.tcpi_bytes_acked, notSentBytes: Int(info.tcpi_notsent_bytes),
            unacknowledgedSegments: Int(info.tcpi_unacked), sendMSS: Int(info.tcpi_snd_mss),
            smoothedRTTMicroseconds: Int(info.tcpi_rtt), minimumRTTMicroseconds: Int(info.tcpi_min_rtt),
            receiveWindowLimitedMicroseconds: info.tcpi_rwnd_limited, selectivelyAcknowledgedSegments: Int(info.tcpi_sacked),
            dataSegmentsOut: Int(info.tcpi_data_segs_out), totalRetransmits: Int(info.tcpi_total_retrans))
    }
}
