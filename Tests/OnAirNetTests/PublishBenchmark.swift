import Foundation
import NIOCore
import OnAirCore
import OnAirNet
import OnAirRTMP
import Testing

/// The OnAir half of `scripts/bench.d/publish.sh` (issue 3): runs only when the script sets ONAIR_BENCH_FLV and
/// ONAIR_BENCH_URL, and is skipped by `make test`.
///
/// Publishes a pre-encoded FLV file unpaced through the real ``RTMPPublisher`` (the one `onair publish` uses),
/// as `ffmpeg -i file.flv -c copy -f flv rtmp://…` does on the other side of the script.
///
/// First, untimed, the file is read in 4 MiB blocks and parsed with ``FLVFileReader``, and each tag becomes
/// the ``EncodedPacket`` the encoder would have produced (Annex-B video, raw AAC): in `onair publish` the
/// encoder hands over Annex-B for free, so this conversion is the harness's cost, not the publisher's (its
/// time is reported as `prepareSeconds`). Then, timed: connect and publish, each block's packets in one `send`
/// (one write, one flush: Annex-B → FLV bodies, RTMP chunks, socket), `stop()` until the connection is closed.
/// It prints one line: `ONAIR_BENCH {json}` with bytes and seconds.
@Suite("publish benchmark")
struct PublishBenchmark {
    static let environment = ProcessInfo.processInfo.environment
    static let blockSize = 4 << 20

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    @Test("publishes ONAIR_BENCH_FLV to ONAIR_BENCH_URL unpaced, every tag accepted",
          .enabled(if: environment["ONAIR_BENCH_FLV"] != nil && environment["ONAIR_BENCH_URL"] != nil))
    func publishFile() async throws {
        let path = try #require(Self.environment["ONAIR_BENCH_FLV"])
        let url = try StreamURL(try #require(Self.environment["ONAIR_BENCH_URL"]))
        var configuration = RTMPClient.Configuration()
        if let chunkSize = Self.environment["ONAIR_BENCH_CHUNK_SIZE"].flatMap(Int.init) { configuration.chunkSize = chunkSize }

        // Preparation, outside the timed span: the whole file becomes the packets an encoder would have handed
        // the publisher (Annex-B video, raw AAC), grouped by the 4 MiB block they were read in.
        let clock = ContinuousClock()
        let prepareStart = clock.now
        var file = try BlockReader(path: path, blockSize: Self.blockSize)
        defer { file.close() }
        var converter = TagConverter()
        var batches: [[EncodedPacket]] = []
        while let block = try file.nextBlock(into: &converter) {
            if !block.isEmpty { batches.append(block) }
        }
        let prepared = clock.now - prepareStart
        #expect(!file.isTruncated, "the FLV ends in a partial tag")
        let video = try #require(converter.video, "no AVC sequence header in \(path)")

        // The timed span: connect, publish, every batch written to the socket, FCUnpublish, close.
        let started = clock.now
        let publisher = RTMPPublisher(url: url, configuration: configuration)
        try await publisher.start(video: video, audio: converter.audio)
        for batch in batches {
            try await publisher.send(batch)      // one write and one flush; returns once on the socket
        }
        await publisher.stop()
        let elapsed = clock.now - started

        var closedWithError: RTMPClient.Error?
        var statuses: [String] = []
        for await event in publisher.events {
            switch event {
            case .closed(let error): closedWithError = error
            case .status(let status): statuses.append(status.code.rawValue)
            case .warning, .reconnectRequest: break
            }
        }
        #expect(closedWithError == nil)
        let seconds = elapsed.seconds
        let gigabits = Double(file.bytesRead) * 8 / 1e9
        print("ONAIR_BENCH {\"bytes\":\(file.bytesRead),\"seconds\":\(seconds),\"gbps\":\(gigabits / seconds),"
            + "\"videoPackets\":\(converter.videoPackets),\"audioPackets\":\(converter.audioPackets),"
            + "\"mediaBytes\":\(converter.mediaBytes),\"batches\":\(batches.count),\"prepareSeconds\":\(prepared.seconds),"
            + "\"chunkSize\":\(configuration.chunkSize),\"statuses\":\"\(statuses.joined(separator: ","))\"}")
    }

    /// FLV tags → the packets an encoder would hand the publisher.
    struct TagConverter {
        var video: VideoTrackDescription?
        var audio: AudioTrackDescription?
        var nalLengthSize = 4
        var videoPackets = 0
        var audioPackets = 0
        var mediaBytes = 0

        var hasTracks: Bool { video != nil }

        mutating func packet(for tag: FLVTag) throws -> EncodedPacket? {
            switch tag.type {
            case .scriptData:
                return nil      // the publisher sends its own onMetaData, as ffmpeg's FLV muxer does
            case .video:
                let body = try FLVVideoTag(parsing: tag.data)
                if body.packetType == .sequenceHeader {
                    let record = try AVCDecoderConfigurationRecord(parsing: body.body)
                    nalLengthSize = record.nalLengthSize
                    let sps = record.sequenceParameterSets.first.flatMap { H264SequenceParameterSet($0) }
                    video = VideoTrackDescription(
                        width: sps?.width ?? 0, height: sps?.height ?? 0, framesPerSecond: 30, bitrate: 0,
                        sequenceParameterSets: record.sequenceParameterSets, pictureParameterSets: record.pictureParameterSets)
                    return nil
                }
                guard let packet = try body.encodedPacket(timestamp: Int64(tag.timestamp), nalLengthSize: nalLengthSize) else { return nil }
                videoPackets += 1
                mediaBytes += packet.payload.count
                return packet
            case .audio:
                let body = try FLVAudioTag(parsing: tag.data)
                if body.packetType == .sequenceHeader {
                    let config = Array(body.body.readableBytesView)
                    let parsed = AACAudioSpecificConfig(config)
                    audio = AudioTrackDescription(
                        sampleRate: parsed?.sampleRate ?? 48_000, channels: parsed?.channels ?? 1, bitrate: 0, audioSpecificConfig: config)
                    return nil
                }
                guard let packet = body.encodedPacket(timestamp: Int64(tag.timestamp)) else { return nil }
                audioPackets += 1
                mediaBytes += packet.payload.count
                return packet
            }
        }
    }

    /// Reads the file in blocks with read(2) straight into one reused ByteBuffer.
    struct BlockReader {
        let descriptor: Int32
        let blockSize: Int
        var buffer: ByteBuffer
        var reader = FLVFileReader()
        var bytesRead = 0
        var atEnd = false

        init(path: String, blockSize: Int) throws {
            descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { throw Failure(description: "cannot open \(path): errno \(errno)") }
            self.blockSize = blockSize
            buffer = ByteBufferAllocator().buffer(capacity: blockSize * 2)
        }

        var isTruncated: Bool { atEnd && buffer.readableBytes > 0 }

        /// The packets of the next block; `nil` at the end of the file.
        mutating func nextBlock(into converter: inout TagConverter) throws -> [EncodedPacket]? {
            guard !atEnd else { return nil }
            buffer.discardReadBytes()
            var failure: Int32 = 0
            let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: blockSize) { target in
                let result = read(descriptor, target.baseAddress, min(target.count, blockSize))
                if result < 0 { failure = errno }
                return max(0, result)
            }
            guard failure == 0 else { throw Failure(description: "read failed: errno \(failure)") }
            if count == 0 { atEnd = true }
            bytesRead += count
            var packets: [EncodedPacket] = []
            while let tag = try reader.nextTag(from: &buffer) {
                if let packet = try converter.packet(for: tag) { packets.append(packet) }
            }
            return packets
        }

        func close() {
            _ = Foundation.close(descriptor)
        }
    }
}

extension Duration {
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
