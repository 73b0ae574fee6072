import NIOCore
import OnAirCore
import OnAirRTMP
import Synchronization

/// Publishes one live stream to an RTMP server: the client half of docs/design.md §3's publish contract.
///
/// ```swift
/// let publisher = RTMPPublisher(url: try StreamURL("rtmp://127.0.0.1/live/stream1"))
/// try await publisher.start(type: .live, video: videoTrack, audio: audioTrack)
/// try await publisher.send(packet)                                  // Annex-B video / raw AAC
/// try await publisher.send(handler: "publisherBackground", [.string("streamName=stream1")])
/// await publisher.stop()
/// ```
///
/// `start` runs handshake → `connect` → `releaseStream`/`FCPublish`/`createStream` → `publish(name, type)`,
/// waits for `NetStream.Publish.Start` (a refusal such as `NetStream.Publish.BadName` throws
/// ``RTMPClient/Error/publishRejected(_:)``), then sends `@setDataFrame onMetaData` and the AVC/AAC
/// sequence headers built from the track descriptions. ``events`` carries every `onStatus` the server
/// sends and ends with ``Event/closed(_:)``. All protocol work runs on a NIO event loop.
public final class RTMPPublisher: Sendable {
    /// What the server said, and when the connection ended (`nil` error: closed by ``stop()``).
    public enum Event: Sendable, Equatable {
        case status(RTMPStatus)
        /// The first time the server broke the RTMP spec in a way OnAir tolerates (as ffmpeg and librtmp do).
        case warning(String)
        case closed(RTMPClient.Error?)
        /// The server asked to reconnect (Enhanced RTMP v2 `NetConnection.Connect.ReconnectRequest`): to
        /// `tcUrl` when it names one, else to the same server.
        case reconnectRequest(tcUrl: String?, description: String)
    }

    /// The errors this client throws (shared with the other RTMP client).
    public typealias Error = RTMPClient.Error

    private struct State: Sendable {
        var connection: RTMPClientConnection?
        var streamName = ""
        var messageStreamID: UInt32 = 0
        var lastTimestamp: UInt32 = 0
    }

    public let url: StreamURL
    public let configuration: RTMPClient.Configuration
    /// Counts what the socket took (shared across a publisher's connections by its owner).
    public let wire: PublisherWireMeter
    /// Reads TCP_INFO of the connection once it publishes (shared across a publisher's connections).
    public let probe: PublisherTCPProbe?
    /// Server status events, in arrival order; finishes when the connection closes.
    public let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private let state = Mutex(State())

    public init(
        url: StreamURL, configuration: RTMPClient.Configuration = .init(), wire: PublisherWireMeter = PublisherWireMeter(),
        probe: PublisherTCPProbe? = nil
    ) {
        self.url = url
        self.configuration = configuration
        self.wire = wire
        self.probe = probe
        (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(1024))
    }

    /// Connects and publishes `streamName` (default: the URL's); returns once the server said
    /// `NetStream.Publish.Start` and the metadata and sequence headers are on their way.
    public func start(
        streamName: String? = nil, type: PublishType = .live, video: VideoTrackDescription?, audio: AudioTrackDescription?
    ) async throws {
        let continuation = self.continuation
        let probe = self.probe
        let connection = try await RTMPClientConnection.open(
            url: url, configuration: configuration,
            onIncoming: { incoming in
                if case .acknowledgement(let sequence) = incoming.message { probe?.serverAcknowledged(sequence) }
                if case .command(let command) = incoming.message, command.name == RTMPCommand.Name.onStatus, let status = command.status {
                    continuation.yield(.status(status))
                    if let move = command.reconnectTarget { continuation.yield(.reconnectRequest(tcUrl: move.tcUrl, description: move.description)) }
                }
            },
            onClose: { error in
                continuation.yield(.closed(error))
                continuation.finish()
            },
            onWarning: { continuation.yield(.warning($0)) })
        do {
            let name = streamName ?? url.streamName
            connection.execute { handler in
                handler.notify(.releaseStream(transactionID: 0, name: name), flush: false)
                handler.notify(.fcPublish(transactionID: 0, name: name), flush: false)
            }
            let streamID = try await connection.createStream()
            let status = try await connection.flatSubmit {
                $0.sendAwaitingStatus(.publish(name: name, type: type), messageStreamID: streamID)
            }
            guard status.code == .publishStart else { throw RTMPClient.Error.publishRejected(status) }
            state.withLock {
                $0.connection = connection
                $0.streamName = name
                $0.messageStreamID = streamID
            }
            probe?.attach(connection.channel, window: configuration.windowAcknowledgementSize)
            var headers: [RTMPRawMessage] = [
                RTMPMessage.data(.setDataFrame(metadata: FLVMetadata.onMetaData(video: video, audio: audio)))
                    .raw(messageStreamID: streamID),
            ]
            if let video {
                let record = try AVCDecoderConfigurationRecord(
                    sequenceParameterSets: video.sequenceParameterSets, pictureParameterSets: video.pictureParameterSets)
                headers.append(FLVTag(type: .video, timestamp: 0, data: FLVVideoTag.sequenceHeader(record)).rtmpMessage(messageStreamID: streamID))
            }
            if let audio {
                headers.append(FLVTag(type: .audio, timestamp: 0, data: FLVAudioTag.sequenceHeader(audioSpecificConfig: audio.audioSpecificConfig))
                    .rtmpMessage(messageStreamID: streamID))
            }
            let batch = headers
            try await connection.flatSubmit { $0.send(batch: batch) }
        } catch {
            await connection.close()
            throw error
        }
    }

    /// Sends one encoded packet; returns when it is written to the socket (this is the backpressure).
    public func send(_ packet: EncodedPacket) async throws {
        try await send([packet])
    }

    /// Sends packets in one write and one flush; `wire` counts them once the socket took the write.
    public func send(_ packets: [EncodedPacket]) async throws {
        let (connection, streamID) = try current()
        let videoFrames = packets.reduce(0) { $0 + ($1.kind == .video ? 1 : 0) }
        wire.started()
        var written: Int?
        defer { wire.finished(bytes: written, videoFrames: videoFrames) }
        let (last, bytes) = try await connection.flatSubmit { handler in
            var messages: [RTMPRawMessage] = []
            messages.reserveCapacity(packets.count)
            var last: UInt32 = 0
            for packet in packets {
                let timestamp = UInt32(truncatingIfNeeded: max(0, packet.decodeTimestamp))
                last = timestamp
                let body = packet.kind == .video ? FLVVideoTag.frame(packet) : FLVAudioTag.frame(packet)
                let type: FLVTag.TagType = packet.kind == .video ? .video : .audio
                messages.append(FLVTag(type: type, timestamp: timestamp, data: body).rtmpMessage(messageStreamID: streamID))
            }
            let final = last
            return handler.sendCounting(batch: messages).map { (final, $0) }
        }
        written = bytes
        state.withLock { $0.lastTimestamp = last }
    }

    /// Red5-style `send(handler, params…)` (docs/design.md §3): an AMF0 data message on the publishing stream,
    /// stamped with the latest media timestamp so recorders keep timestamps monotonic.
    public func send(handler name: String, _ arguments: [AMF0Value]) async throws {
        let (connection, streamID) = try current()
        let timestamp = state.withLock { $0.lastTimestamp }
        let message = RTMPMessage.data(RTMPDataMessage(handler: name, arguments: arguments))
            .raw(timestamp: timestamp, messageStreamID: streamID)
        try await connection.flatSubmit { $0.send(message, flush: true) }
    }

    /// Variadic form: `send(handler: "publisherBackground", .string("streamName=stream1"))`.
    public func send(handler name: String, _ arguments: AMF0Value...) async throws {
        try await send(handler: name, arguments)
    }

    /// Queues a Red5-style notice with string parameters (`publisherBackground`, `streamName=stream1`) on
    /// the connection and returns at once: a front end's loop never waits for a congested socket. The
    /// connection's event loop runs what is queued in order, so a ``stop()`` that follows puts its
    /// `FCUnpublish` behind the notice, and waits (up to ``drainLimit``) for both to reach the socket.
    /// Without a publishing connection there is nothing to notify and the call does nothing.
    public func queue(handler name: String, _ parameters: String...) {
        guard let (connection, streamID) = try? current() else { return }
        let timestamp = state.withLock { $0.lastTimestamp }
        let message = RTMPMessage.data(RTMPDataMessage(handler: name, arguments: parameters.map(AMF0Value.string)))
            .raw(timestamp: timestamp, messageStreamID: streamID)
        connection.execute { $0.send(message, flush: true) }
    }

    /// How long ``stop()`` waits for what was queued before it (a notice, the unpublish) to reach the socket
    /// before it closes anyway: a link that accepts nothing must not hold a quit.
    public static let drainLimit: Duration = .seconds(3)

    /// `FCUnpublish`, `deleteStream`, then closes the connection once they (and all queued before them)
    /// reached the socket, or after `limit`. A dead connection ends the wait at once (its writes fail);
    /// an owner that knows the link takes nothing (its stage is down, the socket is STALLED) passes
    /// `.zero`, so a quit does not sit out the limit for bytes that cannot leave. What was queued still
    /// goes in order: the unpublish is written behind the notice, and the close behind both.
    /// Safe to call more than once.
    public func stop(drainingFor limit: Duration = drainLimit) async {
        let taken = state.withLock { state -> (RTMPClientConnection, UInt32, String)? in
            defer { state.connection = nil }
            return state.connection.map { ($0, state.messageStreamID, state.streamName) }
        }
        guard let (connection, streamID, name) = taken else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                _ = try? await connection.flatSubmit { handler in
                    handler.notify(.fcUnpublish(transactionID: 0, name: name), flush: false)
                    return handler.notify(.deleteStream(streamID: streamID), flush: true)
                }
            }
            group.addTask { try? await Task.sleep(for: max(limit, .zero)) }
            _ = await group.next()
            group.cancelAll()
            // Closing fails a write the socket never took, which ends the first task if it is still waiting.
            await connection.close()
        }
    }

    /// The event loop of the publishing connection, if any (`EventLoopTaskExecutor` runs the pump there).
    var eventLoop: (any EventLoop)? { state.withLock { $0.connection?.eventLoop } }

    private func current() throws -> (RTMPClientConnection, UInt32) {
        guard let pair = state.withLock({ state in state.connection.map { ($0, state.messageStreamID) } }) else {
            throw RTMPClient.Error.notPublishing
        }
        return pair
    }
}
