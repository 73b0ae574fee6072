import Foundation
import NIOCore
@testable import OnAirRelay
@testable import OnAirNet
import OnAirCore
import OnAirRTMP
import OnAirTestSupport
import Testing

/// Publishes FLV tags (from a file ffmpeg wrote, or synthetic ones) with any publish type, through OnAir's
/// own client connection: FFmpeg always publishes with type `live`, so `record`/`append` need this.
final class RelayTestPublisher: Sendable {
    let connection: RTMPClientConnection
    let streamID: UInt32
    let name: String

    /// Connects and publishes; throws ``RTMPClient/Error/publishRejected(_:)`` on a refusal.
    init(url: StreamURL, type: PublishType) async throws {
        connection = try await RTMPClientConnection.open(url: url, configuration: .init(), onIncoming: { _ in }, onClose: { _ in })
        name = url.streamName
        do {
            streamID = try await connection.createStream()
            let name = self.name
            let streamID = self.streamID
            let status = try await connection.flatSubmit {
                $0.sendAwaitingStatus(.publish(name: name, type: type), messageStreamID: streamID)
            }
            guard status.code == .publishStart else { throw RTMPClient.Error.publishRejected(status) }
        } catch {
            await connection.close()
            throw error
        }
    }

    /// Sends tags in batches, each awaited (the relay's reading is the backpressure).
    func send(_ tags: [FLVTag], batch: Int = 32) async throws {
        let streamID = self.streamID
        var index = 0
        while index < tags.count {
            let messages = tags[index..<min(index + batch, tags.count)].map { $0.rtmpMessage(messageStreamID: streamID) }
            try await connection.flatSubmit { $0.send(batch: Array(messages)) }
            index += batch
        }
    }

    /// A command round trip: when it returns, the relay has processed everything sent before it
    /// (one connection's messages are handled in order).
    func sync() async throws {
        _ = try await connection.createStream()
    }

    /// FCUnpublish + deleteStream, then close.
    func unpublish() async {
        let name = self.name
        let streamID = self.streamID
        connection.execute { handler in
            handler.notify(.fcUnpublish(transactionID: 0, name: name), flush: false)
            handler.notify(.deleteStream(streamID: streamID), flush: true)
        }
        await connection.close()
    }

    /// Closes the socket without unpublishing, as a killed publisher would.
    func drop() async {
        try? await connection.channel.close()
    }

    /// The tags of an H.264 + AAC FLV that ffmpeg encodes from its test pattern and a sine tone into
    /// `directory/name`: the media a stock encoder sends.
    static func ffmpegSource(
        in directory: TemporaryDirectory, name: String = "source.flv", size: String, rate: Int, seconds: Int,
        zeroLatency: Bool = true
    ) async throws -> [FLVTag] {
        let result = try await PeerProcess.run("ffmpeg", [
            "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=\(size):rate=\(rate)", "-f", "lavfi", "-i", "sine",
            "-c:v", "libx264", "-preset", "ultrafast",
        ] + (zeroLatency ? ["-tune", "zerolatency"] : []) + [
            "-g", "\(rate)", "-c:a", "aac", "-t", "\(seconds)", "-f", "flv", name,
        ], in: directory.url)
        try #require(result.status == 0, "ffmpeg: \(result.error)")
        return try tags(ofFile: directory.file(name))
    }

    /// The tags of an FLV file.
    static func tags(ofFile url: URL) throws -> [FLVTag] {
        let data = try Data(contentsOf: url)
        return try FLVFileReader.readAll(ByteBuffer(bytes: data)).tags
    }

    /// A player of `url` that logs the number `syntheticVideo` writes into each video frame (after the 5 bytes
    /// of FLV video header), in arrival order, to check that frames arrive whole and in order.
    static func numberingPlayer(_ url: StreamURL) async throws -> (connection: RTMPClientConnection, seen: RelayTestLog<UInt32>) {
        let seen = RelayTestLog<UInt32>()
        let player = try await RTMPClientConnection.open(
            url: url, configuration: .init(),
            onIncoming: { incoming in
                if case .video(let body) = incoming.message, let frame = body.getInteger(at: body.readerIndex + 5, as: UInt32.self) {
                    seen.append(frame)
                }
            },
            onClose: { _ in })
        let streamID = try await player.createStream()
        let name = url.streamName
        player.execute { $0.notify(.play(name: name), messageStreamID: streamID) }
        return (player, seen)
    }

    /// Synthetic video tags: a keyframe every `gop` frames, `size` bytes each, 30 fps timestamps. The
    /// relay reads only the FLV video header, so the rest need not be H.264.
    static func syntheticVideo(count: Int, size: Int, gop: Int = 30, start: UInt32 = 0) -> [FLVTag] {
        (0..<count).map { index in
            let key = index % gop == 0
            var body = ByteBuffer()
            let frame: FLVVideoTag.FrameType = key ? .keyframe : .interframe
            body.writeInteger(frame.rawValue << 4 | FLVVideoTag.CodecID.avc.rawValue)
            body.writeInteger(FLVVideoTag.AVCPacketType.nalu.rawValue)
            body.writeBytes([0, 0, 0])
            body.writeInteger(UInt32(index))            // a frame number, to check order at the player
            body.writeRepeatingByte(UInt8(truncatingIfNeeded: index), count: max(0, size - 9))
            return FLVTag(type: .video, timestamp: start + UInt32(index * 1000 / 30), data: body)
        }
    }
}
