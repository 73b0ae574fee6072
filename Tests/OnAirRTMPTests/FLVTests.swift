import NIOCore
import OnAirCore
import OnAirRTMP
import Testing

@Suite("FLV")
struct FLVTests {
    static let sps: [UInt8] = [0x67, 0x64, 0x00, 0x1E, 0xAC, 0xD9, 0x40]
    static let pps: [UInt8] = [0x68, 0xEB, 0xE3, 0xCB]

    @Test("Annex-B with 3- and 4-byte start codes becomes length-prefixed NALs and back")
    func annexB() throws {
        let annexB: [UInt8] = [0, 0, 0, 1, 0x65, 1, 2, 3, 0, 0, 1, 0x65, 4, 5]
        var buffer = ByteBuffer()
        H264NALUnits.writeLengthPrefixed(annexB: annexB, into: &buffer)
        #expect(Array(buffer.readableBytesView) == [0, 0, 0, 4, 0x65, 1, 2, 3, 0, 0, 0, 3, 0x65, 4, 5])
        #expect(try H264NALUnits.annexB(fromLengthPrefixed: buffer) == [0, 0, 0, 1, 0x65, 1, 2, 3, 0, 0, 0, 1, 0x65, 4, 5])
    }

    @Test("a NAL length running past the end is a typed error")
    func nalOverrun() {
        #expect(throws: H264NALUnits.Error.lengthOverrun(declared: 100, available: 2)) {
            try H264NALUnits.annexB(fromLengthPrefixed: ByteBuffer(bytes: [0, 0, 0, 100, 1, 2]))
        }
    }

    @Test("avcC record from SPS/PPS parses back with profile and level from the SPS")
    func avcC() throws {
        let record = try AVCDecoderConfigurationRecord(sequenceParameterSets: [Self.sps], pictureParameterSets: [Self.pps])
        var buffer = ByteBuffer()
        record.write(into: &buffer)
        #expect(Array(buffer.readableBytesView.prefix(6)) == [1, 0x64, 0x00, 0x1E, 0xFF, 0xE1])
        #expect(try AVCDecoderConfigurationRecord(parsing: buffer) == record)
        #expect(throws: AVCDecoderConfigurationRecord.Error.truncated) {
            try AVCDecoderConfigurationRecord(parsing: buffer.getSlice(at: 0, length: 9)!)
        }
    }

    @Test("video frames keep keyframe flag, composition time (negative too) and payload")
    func videoFrame() throws {
        let packet = EncodedPacket(kind: .video, decodeTimestamp: 100, compositionOffset: -33, isKeyframe: true,
                                   payload: [0, 0, 0, 1, 0x65, 9, 9])
        let tag = try FLVVideoTag(parsing: FLVVideoTag.frame(packet))
        #expect(tag.frameType == .keyframe)
        #expect(tag.compositionTime == -33)
        #expect(try tag.encodedPacket(timestamp: 100) == packet)
        let header = try FLVVideoTag(parsing: FLVVideoTag.sequenceHeader(
            AVCDecoderConfigurationRecord(sequenceParameterSets: [Self.sps], pictureParameterSets: [Self.pps])))
        #expect(header.packetType == .sequenceHeader)
        #expect(try header.encodedPacket(timestamp: 0) == nil)
        #expect(throws: FLVVideoTag.Error.unsupportedCodec(2)) { try FLVVideoTag(parsing: ByteBuffer(bytes: [0x12, 1, 0, 0, 0])) }
    }

    @Test("AAC sequence header and raw frames; AudioSpecificConfig gives rate and channels")
    func audio() throws {
        let header = try FLVAudioTag(parsing: FLVAudioTag.sequenceHeader(audioSpecificConfig: [0x12, 0x10]))
        #expect(header.packetType == .sequenceHeader)
        let config = try #require(AACAudioSpecificConfig(Array(header.body.readableBytesView)))
        #expect(config == AACAudioSpecificConfig([0x12, 0x10]))
        #expect(config.sampleRate == 44_100)
        #expect(config.channels == 2)
        #expect(config.audioObjectType == 2)
        let packet = EncodedPacket(kind: .audio, decodeTimestamp: 23, isKeyframe: true, payload: [1, 2, 3])
        #expect(try FLVAudioTag(parsing: FLVAudioTag.frame(packet)).encodedPacket(timestamp: 23) == packet)
        #expect(throws: FLVAudioTag.Error.unsupportedFormat(2)) { try FLVAudioTag(parsing: ByteBuffer(bytes: [0x2F, 1])) }
    }

    static func sampleFile() -> (bytes: ByteBuffer, tags: [FLVTag]) {
        var writer = FLVFileWriter(hasAudio: true, hasVideo: true)
        let tags = [
            FLVTag(type: .scriptData, timestamp: 0, data: AMF0Encoder.encode(RTMPDataMessage(handler: "onMetaData", arguments: [.ecmaArray([:])]).values)),
            FLVTag(type: .video, timestamp: 0, data: ByteBuffer(bytes: [0x17, 0, 0, 0, 0, 1])),
            FLVTag(type: .audio, timestamp: 0x0123_4567, data: ByteBuffer(bytes: [0xAF, 1, 5, 6])),
        ]
        for tag in tags { writer.append(tag) }
        return (writer.bytes, tags)
    }

    @Test("file writer output reads back; extended timestamps survive")
    func fileRoundTrip() throws {
        let (bytes, tags) = Self.sampleFile()
        let result = try FLVFileReader.readAll(bytes)
        #expect(result.header == FLVFileReader.Header(version: 1, hasAudio: true, hasVideo: true))
        #expect(result.tags == tags)
        #expect(!result.isTruncated)
    }

    @Test("a truncated file yields every complete tag and says need-more-data, at every cut")
    func truncated() throws {
        let (bytes, tags) = Self.sampleFile()
        var complete = 0
        for cut in 0..<bytes.readableBytes {
            let result = try FLVFileReader.readAll(bytes.getSlice(at: 0, length: cut)!)
            #expect(result.tags == Array(tags.prefix(result.tags.count)))
            #expect(result.tags.count >= complete)
            complete = result.tags.count
        }
        #expect(complete == tags.count - 1)
    }

    @Test("bad signature, hostile sizes and unknown tag types are typed errors")
    func hostile() {
        #expect(throws: FLVFileReader.Error.notFLV) { try FLVFileReader.readAll(ByteBuffer(bytes: Array("GIF89a".utf8))) }
        var header = FLVFileWriter(hasAudio: false, hasVideo: true).bytes
        var big = header
        big.writeBytes([9, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0])
        #expect(throws: FLVFileReader.Error.tagTooLarge(size: 0xFF_FFFF, limit: 1 << 20)) {
            try FLVFileReader.readAll(big, maxTagSize: 1 << 20)
        }
        header.writeBytes([0x2A])
        #expect(throws: FLVFileReader.Error.unknownTagType(0x2A)) { try FLVFileReader.readAll(header) }
        var offset = ByteBuffer(bytes: Array("FLV".utf8) + [1, 5, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: FLVFileReader.Error.dataOffsetOutOfRange(0xFFFF_FFFF)) { try FLVFileReader.readAll(offset) }
        offset.clear()
    }

    @Test("onMetaData from track descriptions carries E.5 fields")
    func metadata() {
        let video = VideoTrackDescription(width: 640, height: 360, framesPerSecond: 30, bitrate: 800_000,
                                          sequenceParameterSets: [Self.sps], pictureParameterSets: [Self.pps])
        let audio = AudioTrackDescription(sampleRate: 44_100, channels: 2, bitrate: 128_000, audioSpecificConfig: [0x12, 0x10])
        let object = FLVMetadata.onMetaData(video: video, audio: audio)
        #expect(object["width"] == .number(640))
        #expect(object["framerate"] == .number(30))
        #expect(object["videocodecid"] == .number(7))
        #expect(object["audiocodecid"] == .number(10))
        #expect(object["videodatarate"] == .number(800))
        #expect(object["stereo"] == .boolean(true))
    }
}

@Suite("H.264 Annex-B scanning")
struct H264NALUnitsTests {
    /// A byte-by-byte reference scanner to compare the strided one against.
    static func reference(_ bytes: [UInt8]) -> [[UInt8]] {
        var starts: [(code: Int, payload: Int)] = []
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                starts.append((index, index + 3))
                index += 3
            } else {
                index += 1
            }
        }
        guard !starts.isEmpty else { return bytes.isEmpty ? [] : [bytes] }
        var units: [[UInt8]] = []
        for (position, start) in starts.enumerated() {
            var end = position + 1 < starts.count ? starts[position + 1].code : bytes.count
            if position + 1 < starts.count { while end > start.payload, bytes[end - 1] == 0 { end -= 1 } }
            if end > start.payload { units.append(Array(bytes[start.payload..<end])) }
        }
        return units
    }

    @Test("the strided scanner agrees with a byte-by-byte scan on random streams")
    func matchesReference() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let length = Int.random(in: 0..<200, using: &generator)
            // Mostly 0, 1 and small values, so start codes and near-misses are frequent.
            let bytes = (0..<length).map { _ in [0, 0, 0, 1, 2, 0x65, 0xFF][Int.random(in: 0..<7, using: &generator)] } as [UInt8]
            #expect(AnnexB.split(bytes).map(Array.init) == Self.reference(bytes), "input \(bytes)")
        }
    }
}
