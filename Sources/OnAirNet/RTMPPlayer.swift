import NIOCore
import OnAirCore
import OnAirRTMP
import Synchronization

/// Plays one stream from an RTMP server: the client half of docs/design.md §3's player contract.
///
/// ```swift
/// let player = RTMPPlayer(url: try StreamURL("rtmp://127.0.0.1/live/stream1"))
/// try await player.start()
/// for await event in player.events {
///     switch event {
///     case .status(let status) where status.code == .playUnpublishNotify: …
///     case .message(handler: "publisherBackground", let arguments): …
///     case .packet(let packet): decoder.decode(packet)       // Annex-B video or raw AAC
///     default: break
///     }
/// }
/// ```
///
/// `start` runs handshake → `connect` → `createStream` → Set Buffer Length → `play(name)`. Everything the
/// server sends afterwards arrives in order on ``events``: `onStatus` codes (Play.Start, Play.Reset,
/// PublishNotify, UnpublishNotify, StreamNotFound, Play.Stop …), StreamBegin/EOF/Dry, `onMetaData`, other
/// data messages by handler name, track descriptions from the sequence headers, and media as
/// ``OnAirCore/EncodedPacket``s. Parsing runs on a NIO event loop; the stream ends with ``Event/closed(_:)``.
public final class RTMPPlayer: Sendable {
    /// Everything a player learns, in arrival order.
    public enum Event: Sendable, Equatable {
        case status(RTMPStatus)
        case streamBegin
        case streamEOF
        case streamDry
        /// `onMetaData`'s object (FLV spec E.5), as plain values (no AMF0 outside the network targets).
        case metadata([String: MetadataValue])
        /// Any other data message, e.g. `publisherBackground("streamName=…")`: the handler and its
        /// arguments as plain values (no AMF0 outside the network targets).
        case message(handler: String, arguments: [MetadataValue])
        /// From an AVC sequence header: size from the SPS; rate and bitrate from the latest metadata (0 when none).
        case videoTrack(VideoTrackDescription)
        /// From an AAC sequence header, or the first MP3/PCM tag.
        case audioTrack(AudioTrackDescription)
        /// A video (Annex-B) or audio (raw AAC, MP3 frames or PCM samples) packet.
        case packet(EncodedPacket)
        /// A media tag of a codec OnAir does not decode: not a picture or a sound, but bytes and a frame the
        /// wire carried, which the subscriber's bitrate and fps count ("what was received", docs/usage.md).
        case undecodable(kind: EncodedPacket.Kind, bytes: Int, timestamp: Int64)
        /// A codec OnAir does not decode, in one line (once per codec).
        case notice(String)
        /// The first time the server broke the RTMP spec in a way OnAir tolerates (as ffmpeg and librtmp do).
        case warning(String)
        /// The connection ended; `nil` when ``stop()`` closed it.
        case closed(RTMPClient.Error?)
        /// The server asked to reconnect (Enhanced RTMP v2 `NetConnection.Connect.ReconnectRequest`): to
        /// `tcUrl` when it names one, else to the same server.
        case reconnectRequest(tcUrl: String?, description: String)
    }

    /// The errors this client throws (shared with the other RTMP client).
    public typealias Error = RTMPClient.Error

    /// The buffer length a player announces with Set Buffer Length (RTMP spec §7.1.7), as FFmpeg does.
    public static let bufferMilliseconds: UInt32 = 3000

    public let url: StreamURL
    public let configuration: RTMPClient.Configuration
    /// Events in arrival order; finishes when the connection closes.
    public let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private let connection = Mutex<RTMPClientConnection?>(nil)

    public init(url: StreamURL, configuration: RTMPClient.Configuration = .init()) {
        self.url = url
        self.configuration = configuration
        (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
    }

    /// Connects and sends `play(streamName)` (default: the URL's); returns once the command is on the wire.
    public func start(streamName: String? = nil) async throws {
        let continuation = self.continuation
        let demuxer = Mutex(RTMPPlayerDemuxer())
        let budget = Mutex(RTMPPlayerMessageBudget())
        let connection = try await RTMPClientConnection.open(
            url: url, configuration: configuration,
            onIncoming: { incoming in
                for event in demuxer.withLock({ $0.handle(incoming) }) {
                    if case .message = event, !Self.admit(budget) { continue }
                    if case .metadata = event, !Self.admit(budget) { continue }
                    continuation.yield(event)
                }
                if case .command(let command) = incoming.message, let move = command.reconnectTarget {
                    continuation.yield(.reconnectRequest(tcUrl: move.tcUrl, description: move.description))
                }
                if let warning = budget.withLock({ $0.takeWarning(at: ContinuousClock.now) }) { continuation.yield(.warning(warning)) }
            },
            onClose: { error in
                continuation.yield(.closed(error))
                continuation.finish()
            },
            onWarning: { continuation.yield(.warning($0)) })
        do {
            let streamID = try await connection.createStream()
            let name = streamName ?? url.streamName
            connection.execute { handler in
                handler.send(RTMPMessage.userControl(.setBufferLength(streamID: streamID, milliseconds: Self.bufferMilliseconds)).raw(), flush: false)
                handler.notify(.play(name: name), messageStreamID: streamID)
            }
            self.connection.withLock { $0 = connection }
        } catch {
            await connection.close()
            throw error
        }
    }

    /// Whether one more data message may pass (``RTMPPlayerMessageBudget``).
    private static func admit(_ budget: borrowing Mutex<RTMPPlayerMessageBudget>) -> Bool {
        budget.withLock { $0.admit(at: ContinuousClock.now) }
    }

    /// Closes the connection; ``events`` then ends with `.closed(nil)`.
    public func stop() async {
        guard let connection = connection.withLock({ current -> RTMPClientConnection? in
            defer { current = nil }
            return current
        }) else { return }
        await connection.close()
    }
}
