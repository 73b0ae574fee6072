import Foundation
import NIOCore
@testable import OnAirRelay
import OnAirRTMP
import Testing

/// What a failed write keeps (GitHub issue 14 item 8, a full disk): every whole tag that reached the disk,
/// never a torn one. `Tests/Hostile/hostile.py full-disk` checks it on a real 200 KB tmpfs (root).
@Suite("Relay recording file: a write cut short")
struct RelayRecordingFileTests {
    /// The FLV header and `count` video tags of growing sizes, as the recorder's writer lays them out.
    static func flvBytes(count: Int) -> (bytes: ByteBuffer, tagEnds: [Int]) {
        var writer = FLVFileWriter(hasAudio: true, hasVideo: true)
        var ends = [writer.bytes.readableBytes]
        for index in 0..<count {
            writer.append(FLVTag(type: .video, timestamp: UInt32(index * 33), data: ByteBuffer(repeating: UInt8(index), count: 100 + index * 37)))
            ends.append(writer.bytes.readableBytes)
        }
        return (writer.takeBytes(), ends)
    }

    @Test("a new file cut at any byte keeps the header and the whole tags before the cut, nothing of the torn one")
    func keepsWholeTagsOfNewFile() {
        let (bytes, ends) = Self.flvBytes(count: 12)
        for written in 0...bytes.readableBytes {
            let expected = ends.last { $0 <= written } ?? 0
            #expect(RelayRecordingFile.wholeTagBytes(in: bytes, upTo: written, opensFile: true) == expected, "cut at \(written)")
        }
    }

    @Test("tags appended after the header: the header is not looked for")
    func keepsWholeTagsOfLaterWrite() {
        let (bytes, ends) = Self.flvBytes(count: 6)
        var tags = bytes
        tags.moveReaderIndex(forwardBy: ends[0])
        let tagEnds = ends.map { $0 - ends[0] }
        for written in 0...tags.readableBytes {
            let expected = tagEnds.last { $0 <= written } ?? 0
            #expect(RelayRecordingFile.wholeTagBytes(in: tags, upTo: written, opensFile: false) == expected, "cut at \(written)")
        }
    }

    @Test("a size field past the bytes written, or garbage, keeps only what is whole")
    func hostileSizes() {
        var buffer = ByteBuffer()
        buffer.writeBytes([9, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 40))
        #expect(RelayRecordingFile.wholeTagBytes(in: buffer, upTo: buffer.readableBytes, opensFile: false) == 0)
        #expect(RelayRecordingFile.wholeTagBytes(in: buffer, upTo: 3, opensFile: true) == 0, "not an FLV header")
    }
}
