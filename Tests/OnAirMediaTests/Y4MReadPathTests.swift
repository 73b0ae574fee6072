import Foundation
import Glibc
import Testing
@testable import OnAirMedia

/// The Y4M reader's per-frame path (issue 31): frames are mapped (MappedClipTests), or read into a few reused
/// buffers when they cannot be, and a clip that is hostile — truncated before or while it plays, a header out
/// of bounds — is an error for the track on either path, never a crash.
@Suite("Y4M read path: mapped or reused buffers, hostile clips")
struct Y4MReadPathTests {
    /// Where a frame's bytes live; reading it does not copy them.
    private static func address(_ frame: VideoFrame) -> UInt {
        frame.withUnsafePictureBytes { UInt(bitPattern: $0.baseAddress) }
    }

    @Test("unmapped, frames are read into a few reused buffers, in place, while the previous frame is still held")
    func buffersAreReused() throws {
        let files = try TestFiles()
        let clip = try files.writeY4M("clip.y4m", width: 64, height: 36, frames: 5)
        let source = try Y4MFileSource(path: clip.path, pacing: .unpaced, mapsFrames: false)
        // As the engine reads: the camera-loss wrapper may keep the previous frame; the encoder lets go of
        // the one before once it is encoded.
        var previous: VideoFrame?
        var addresses: [UInt] = []
        for index in 0..<12 {
            let frame = try source.read()
            #expect(frame.planes == clip.frames[index % 5])
            addresses.append(Self.address(frame))
            previous = frame
        }
        _ = previous
        #expect(Set(addresses).count == Y4MFileSource.poolSize, "every read after the first few reused a buffer: \(addresses)")
        #expect(Array(addresses[3...]) == Array((0..<9).map { addresses[$0 % 3] }))
    }

    @Test("a frame held longer than the buffers go round keeps its own bytes", arguments: [true, false])
    func heldFrameKeepsItsBytes(mapped: Bool) throws {
        let files = try TestFiles()
        let clip = try files.writeY4M("clip.y4m", width: 32, height: 18, frames: 4)
        let source = try Y4MFileSource(path: clip.path, pacing: .unpaced, mapsFrames: mapped)
        let first = try source.read()
        for _ in 0..<(Y4MFileSource.poolSize * 2) { _ = try source.read() }
        #expect(first.planes == clip.frames[0])
    }

    @Test("a clip truncated between two frames or inside one is an error on the next read", arguments: [true, false])
    func truncatedBetweenReads(mapped: Bool) throws {
        let files = try TestFiles()
        let clip = try files.writeY4M("clip.y4m", width: 32, height: 18, frames: 4)
        let frameRecord = 6 + VideoFrame.byteCount(width: 32, height: 18)
        let header = Array("YUV4MPEG2 W32 H18 F30:1 Ip A1:1 C420jpeg\n".utf8).count
        for cut in [header + frameRecord + 3, header + frameRecord * 2 - 100] {
            let source = try Y4MFileSource(path: clip.path, pacing: .unpaced, mapsFrames: mapped)
            #expect(try source.read().planes == clip.frames[0])
            #expect(truncate(clip.path, off_t(cut)) == 0)
            do {
                _ = try source.read()
                Issue.record("a frame past the end (file cut at \(cut)) was delivered")
            } catch let MediaError.fileUnreadable(path, reason) {
                #expect(path == clip.path && reason.contains("frame 1 is truncated"))
            }
            _ = try files.writeY4M("clip.y4m", width: 32, height: 18, frames: 4) // whole again for the next cut
        }
    }

    /// Mapped, every delivered frame is read to its last byte while the file shrinks under it: a lost page must
    /// read as zeros (and mark the frame damaged), not end the test process with SIGBUS.
    @Test("a clip shrinking while it is read ends in an error, never a fault", arguments: [true, false])
    func truncatedWhileReading(mapped: Bool) async throws {
        let files = try TestFiles()
        let (width, height, frames) = (320, 180, 24)
        let clip = try files.writeY4M("clip.y4m", width: width, height: height, frames: frames)
        let source = try Y4MFileSource(path: clip.path, pacing: .unpaced, mapsFrames: mapped)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: clip.path)[.size] as? Int)
        // Another process cutting the file down a few kilobytes at a time, racing every read.
        let path = clip.path
        let cutter = Thread {
            var length = size
            while length > 0 {
                length = max(0, length - 4093)
                _ = truncate(path, off_t(length))
                usleep(50)
            }
        }
        cutter.start()
        var delivered = 0
        var failure: MediaError?
        while failure == nil, delivered < 1_000_000 {
            do {
                let frame = try source.read()
                let sum = frame.withUnsafePictureBytes { bytes in bytes.reduce(0) { $0 &+ Int($1) } }
                #expect(frame.planes.count == VideoFrame.byteCount(width: width, height: height) && sum >= 0)
                delivered += 1
            } catch let error as MediaError {
                failure = error
            }
        }
        guard case let .fileUnreadable(path, reason) = failure else {
            Issue.record("reading a shrinking clip did not end in fileUnreadable: \(String(describing: failure)) after \(delivered) frames")
            return
        }
        #expect(path == clip.path && reason.contains("truncated"))
        while !cutter.isFinished { try await Task.sleep(for: .milliseconds(5)) }
    }

    @Test("hostile headers: huge sides, absurd rate, no end of line, frame parameters, a frame cut short")
    func hostileHeaders() throws {
        let files = try TestFiles()
        let picture = [UInt8](repeating: 0, count: VideoFrame.byteCount(width: 16, height: 16))
        func reason(_ bytes: [UInt8]) throws -> String? {
            let path = try files.write("hostile.y4m", bytes)
            do {
                let source = try Y4MFileSource(path: path, pacing: .unpaced)
                _ = try source.read()
                return nil
            } catch let MediaError.fileUnreadable(_, reason) {
                return reason
            }
        }
        let huge = try reason(Array("YUV4MPEG2 W9000000000 H9000000000 F30:1\nFRAME\n".utf8))
        #expect(huge?.contains("at most 16384x16384") == true, "\(String(describing: huge))")
        let wide = try reason(Array("YUV4MPEG2 W16385 H16 F30:1\nFRAME\n".utf8))
        #expect(wide?.contains("at most 16384x16384") == true)
        let fast = try reason(Array("YUV4MPEG2 W16 H16 F1000000:1\nFRAME\n".utf8) + picture)
        #expect(fast?.contains("1000 fps") == true)
        let endless = try reason(Array("YUV4MPEG2 W16 H16 F30:1 ".utf8) + [UInt8](repeating: 0x58, count: 8192))
        #expect(endless?.contains("does not end within 4096 bytes") == true)
        let short = try reason(Array("YUV4MPEG2 W16 H16 F30:1\nFRAME\n".utf8) + picture.dropLast(1))
        #expect(short?.contains("no whole frame follows") == true)
        let parameters = try reason(Array("YUV4MPEG2 W16 H16 F30:1\nFRAME Ip\n".utf8) + picture)
        #expect(parameters?.contains("frame parameters or a bad FRAME marker") == true)
        // A header longer than the old 512-byte read, as X-tags make it, still opens.
        let tagged = Array("YUV4MPEG2 W16 H16 F30:1 \(String(repeating: "XCOMMENT=padding ", count: 60))\nFRAME\n".utf8) + picture
        #expect(try reason(tagged) == nil)
    }
}
