import FuzzDriver
import NIOCore
import OnAirRTMP

/// libFuzzer's entry point: read any bytes as an FLV file, all at once and split in two at a position
/// derived from the first byte, then parse every tag body the way the publisher does (video tag → AVC
/// configuration record → SPS, or length-prefixed NAL units; audio tag → AudioSpecificConfig; script data →
/// AMF0). A trap is a finding; so is a split read that yields other tags than the whole read.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFLVReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: size > 0 ? data : nil, count: size)
    let split = size > 0 ? Int(bytes[0]) * size / 256 : 0
    let maxTagSize = 1 << 20

    let whole: (header: FLVFileReader.Header?, tags: [FLVTag], isTruncated: Bool)
    do {
        whole = try FLVFileReader.readAll(ByteBuffer(bytes: bytes), maxTagSize: maxTagSize)
    } catch {
        _ = error.description
        return 0
    }

    var reader = FLVFileReader(maxTagSize: maxTagSize)
    var buffer = ByteBuffer(bytes: bytes[..<split])
    var tags: [FLVTag] = []
    do {
        while let tag = try reader.nextTag(from: &buffer) { tags.append(tag) }
        buffer.writeBytes(bytes[split...])
        while let tag = try reader.nextTag(from: &buffer) { tags.append(tag) }
    } catch {
        preconditionFailure("split at \(split) fails where the whole read succeeds: \(error)")
    }
    precondition(tags == whole.tags, "split at \(split) changed the tags")
    precondition(reader.header == whole.header, "split at \(split) changed the header")

    var nalLengthSize = 4
    for tag in whole.tags {
        switch tag.type {
        case .video:
            guard let video = try? FLVVideoTag(parsing: tag.data) else { continue }
            switch video.packetType {
            case .sequenceHeader:
                guard let record = try? AVCDecoderConfigurationRecord(parsing: video.body) else { continue }
                nalLengthSize = record.nalLengthSize
                for sps in record.sequenceParameterSets { _ = H264SequenceParameterSet(sps) }
                var out = ByteBuffer()
                record.write(into: &out)
            default:
                _ = try? video.encodedPacket(timestamp: Int64(tag.timestamp), nalLengthSize: nalLengthSize)
            }
        case .audio:
            guard let audio = try? FLVAudioTag(parsing: tag.data) else { continue }
            if audio.packetType == .sequenceHeader {
                _ = AACAudioSpecificConfig(Array(audio.body.readableBytesView))
            } else {
                _ = audio.encodedPacket(timestamp: Int64(tag.timestamp))
            }
        case .scriptData:
            _ = try? AMF0Decoder().decodeAll(tag.data)
        }
    }
    return 0
}

/// SwiftPM points the program's `main` at `<module>_main`.
@_cdecl("FuzzFLVReader_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzFLVReader)
}
