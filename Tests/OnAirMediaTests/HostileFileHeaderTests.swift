import Testing
@testable import OnAirMedia

/// A file given as `--video` or `--audio` is input like any other: its header's numbers must be refused
/// with a line that says why, never trap. Each value below ended the app before its fix: a Y4M rate so low
/// that the pacer's `UInt64` of nanoseconds overflowed on the second frame, one so high that the refusal's
/// own message trapped in `Int(_:)`, and a WAV rate past `Int32.max` that the AAC encoder's `Int32(_:)` trapped on.
@Suite("hostile file headers")
struct HostileFileHeaderTests {
    /// `F` tokens no clip may carry: too slow to pace in 64 bits, too fast, not a number, not positive.
    static let hostileRates = [
        "F1:100000000000", "F1:1e300", "F1e-300:1", "F1:61", "F1e300:1", "F1e20:1", "F9999999999999999999:1",
        "Finf:1", "Fnan:1", "F-30:1", "F30:-1", "F30:0", "F0:1",
    ]

    static func y4m(_ files: TestFiles, header tokens: String) throws -> String {
        let frame = Array("FRAME\n".utf8) + [UInt8](repeating: 128, count: VideoFrame.byteCount(width: 16, height: 16))
        return try files.write("hostile.y4m", Array("YUV4MPEG2 \(tokens) Ip C420jpeg\n".utf8) + frame + frame)
    }

    @Test("a Y4M frame rate out of range is refused with a message, not a trap", arguments: hostileRates)
    func y4mRate(token: String) throws {
        let files = try TestFiles()
        let path = try Self.y4m(files, header: "W16 H16 \(token)")
        do {
            let source = try Y4MFileSource(path: path, pacing: .unpaced)
            // Accepted: the pacer runs (it trapped on the second frame for 1e-11 fps).
            _ = try source.read()
            _ = try source.read()
            Issue.record("\(token) was accepted at \(source.granted.framesPerSecond) fps")
        } catch let error as MediaError {
            guard case .fileUnreadable(_, let reason) = error else { throw error }
            #expect(reason.contains("W, H, F") || reason.contains("1 frame a minute"), "\(reason)")
        }
    }

    @Test("a Y4M rate at either end of the range is read", arguments: ["F1:60", "F1000:1", "F30000:1001"])
    func y4mRateInRange(token: String) throws {
        let files = try TestFiles()
        let source = try Y4MFileSource(path: try Self.y4m(files, header: "W16 H16 \(token)"), pacing: .unpaced)
        for _ in 0..<4 { _ = try source.read() }
        #expect(source.loops == 2)
    }

    @Test("a Y4M size out of range is refused", arguments: ["W99999999999999999999 H16", "W-16 H16", "W16 H16385", "W16 H0"])
    func y4mSize(tokens: String) throws {
        let files = try TestFiles()
        let path = try Self.y4m(files, header: "\(tokens) F30:1")
        #expect(throws: MediaError.self) { try Y4MFileSource(path: path, pacing: .unpaced) }
    }

    /// A RIFF/WAVE file whose fmt chunk says `rate` (built here: the shared helper's byte rate is a `UInt32`
    /// product that would itself trap on these rates).
    static func wav(_ files: TestFiles, rate: UInt32) throws -> String {
        func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        let fmt = Array("fmt ".utf8) + le32(16) + le16(1) + le16(1) + le32(rate) + le32(rate &* 2) + le16(2) + le16(16)
        let body = Array("WAVE".utf8) + fmt + Array("data".utf8) + le32(8) + [UInt8](repeating: 0, count: 8)
        return try files.write("hostile.wav", Array("RIFF".utf8) + le32(UInt32(body.count)) + body)
    }

    @Test("a WAV sample rate out of range is refused before the encoder sees it",
          arguments: [UInt32.max, 0x8000_0000, UInt32(Int32.max), 384_001, 0])
    func wavRate(rate: UInt32) throws {
        let files = try TestFiles()
        let path = try Self.wav(files, rate: rate)
        do {
            let source = try WAVFileSource(path: path, pacing: .unpaced)
            // Accepted: the engine opens the encoder at the file's rate (`Int32(sampleRate)` trapped past Int32.max).
            _ = try? AudioEncoder(sampleRate: source.format.sampleRate, channels: source.format.channels, bitrate: 64_000, originNanoseconds: 0)
            Issue.record("\(rate) Hz was accepted")
        } catch let error as MediaError {
            guard case .formatUnsupported(let detail) = error else { throw error }
            #expect(detail.contains("\(rate) Hz") && detail.contains("384000"), "\(detail)")
        }
    }

    @Test("the AAC encoder refuses a rate or channel count libavcodec's 32-bit fields cannot hold",
          arguments: [(Int(UInt32.max), 2), (Int.max, 2), (-48_000, 2), (48_000, Int(Int32.max) + 1), (48_000, -1)])
    func encoderBounds(rate: Int, channels: Int) {
        #expect(throws: MediaError.self) { try AudioEncoder(sampleRate: rate, channels: channels, bitrate: 64_000, originNanoseconds: 0) }
    }
}
