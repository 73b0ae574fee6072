import Foundation
import OnAirTestSupport
@testable import OnAirMedia

/// Scratch files for one test, removed when the value goes away.
final class TestFiles {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("onair-media-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Runs the ffmpeg CLI in this directory (to make clips and JPEGs to read back); fails the test with
    /// ffmpeg's own message when it does not succeed.
    func ffmpeg(_ arguments: [String]) throws {
        let result = try PeerProcess.run("ffmpeg", ["-v", "error", "-nostdin"] + arguments, in: directory)
        guard result.status == 0 else { throw PeerError.failed("ffmpeg \(arguments.joined(separator: " ")): \(result.error)") }
    }

    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A Y4M file of `frames` frames whose bytes are a known function of (frame, offset).
    func writeY4M(_ name: String, width: Int, height: Int, frames: Int, colourSpace: String = "C420jpeg") throws -> (path: String, frames: [[UInt8]]) {
        var bytes = Array("YUV4MPEG2 W\(width) H\(height) F30:1 Ip A1:1 \(colourSpace)\n".utf8)
        var pictures: [[UInt8]] = []
        for frame in 0..<frames {
            let picture = (0..<VideoFrame.byteCount(width: width, height: height)).map { UInt8(truncatingIfNeeded: $0 * 7 + frame * 31) }
            pictures.append(picture)
            bytes += Array("FRAME\n".utf8) + picture
        }
        return (try write(name, bytes), pictures)
    }

    /// A RIFF/WAVE file of interleaved s16 samples, with a LIST chunk before `data` as real tools write.
    func writeWAV(_ name: String, sampleRate: Int, channels: Int, samples: [Int16], formatTag: UInt16 = 1, bits: UInt16 = 16) throws -> String {
        func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        let data = samples.flatMap { le16(UInt16(bitPattern: $0)) }
        let list = Array("LIST".utf8) + le32(4) + Array("INFO".utf8)
        var fmt = Array("fmt ".utf8) + le32(16) + le16(formatTag) + le16(UInt16(channels)) + le32(UInt32(sampleRate))
        fmt += le32(UInt32(sampleRate * channels * Int(bits) / 8)) + le16(UInt16(channels * Int(bits) / 8)) + le16(bits)
        let body = Array("WAVE".utf8) + fmt + list + Array("data".utf8) + le32(UInt32(data.count)) + data
        return try write(name, Array("RIFF".utf8) + le32(UInt32(body.count)) + body)
    }
}
