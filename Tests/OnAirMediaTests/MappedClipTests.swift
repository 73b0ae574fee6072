import CMappedFileGuard
import Foundation
import Glibc
import OnAirTestSupport
import Testing
@testable import OnAirMedia

/// A Y4M clip's frames are mapped, not read (issue 31): x264's copy is the only one. The mapping is guarded, so
/// a clip truncated under a held frame reads as zeros, the frame is marked damaged and never sent, and the next
/// read fails the track with a clear error; without a free guard slot the frame is read instead.
/// Serialized: the fallback test holds every guard slot for a moment.
@Suite("Mapped Y4M frames: no copy, guarded against truncation", .serialized)
struct MappedClipTests {
    private static let (width, height) = (320, 180)
    private static let frameBytes = VideoFrame.byteCount(width: width, height: height)
    private static let headerBytes = Array("YUV4MPEG2 W320 H180 F30:1 Ip A1:1 C420jpeg\n".utf8).count

    private static func settings() -> VideoEncoder.Settings {
        VideoEncoder.Settings(
            width: width, height: height, framesPerSecond: 30, bitrate: 500_000, keyframeIntervalSeconds: 2,
            preset: "ultrafast", tune: "zerolatency", threads: 1)
    }

    @Test("each frame is the clip's own pages: the bytes x264 is lent are the mapping's, nothing was copied")
    func framesAreMapped() throws {
        let files = try TestFiles()
        let clip = try files.writeY4M("clip.y4m", width: Self.width, height: Self.height, frames: 3)
        let source = try Y4MFileSource(path: clip.path, pacing: .unpaced)
        var held: [VideoFrame] = []
        for index in 0..<6 {
            let frame = try source.read()
            let mapped = try #require(frame.mappedPicture, "frame \(index) was read, not mapped")
            #expect(frame.withUnsafePictureBytes { UnsafeRawPointer($0.baseAddress!) } == mapped.base)
            #expect(frame.planes == clip.frames[index % 3])
            #expect(!mapped.damaged)
            held.append(frame)
        }
        let addresses = Set(held.map { frame in frame.withUnsafePictureBytes { UInt(bitPattern: $0.baseAddress) } })
        #expect(addresses.count == 6, "every held frame keeps its own mapping")
        #expect(held[0].planes == clip.frames[0], "the first frame still reads right after five more")
    }

    @Test("a clip cut under a held frame: the lost pages read as zeros, the frame is damaged, the next read fails")
    func truncatedUnderHeldFrame() throws {
        let files = try TestFiles()
        let clip = try files.writeY4M("clip.y4m", width: Self.width, height: Self.height, frames: 3)
        let source = try Y4MFileSource(path: clip.path, pacing: .unpaced)
        let frame = try source.read()
        let mapped = try #require(frame.mappedPicture)
        // Keep the first 100 bytes of the picture: the rest of its first page reads as zeros (the kernel's
        // partial page), every later page is gone, and touching one raises SIGBUS, which the guard answers.
        let kept = 100
        #expect(truncate(clip.path, off_t(Self.headerBytes + 6 + kept)) == 0)
        let bytes = frame.withUnsafePictureBytes { Array($0) } // touches every page
        #expect(Array(bytes[..<kept]) == Array(clip.frames[0][..<kept]))
        #expect(bytes[kept...].allSatisfy { $0 == 0 })
        #expect(mapped.damaged)
        #expect(throws: MediaError.self) { _ = try source.read() }
    }

    @Test("the encoder sends nothing of a damaged picture, and the next picture is a keyframe")
    func encoderDropsDamagedPicture() throws {
        let files = try TestFiles()
        let clip = try files.writeY4M("clip.y4m", width: Self.width, height: Self.height, frames: 4)
        let source = try Y4MFileSource(path: clip.path, pacing: .unpaced)
        let encoder = try VideoEncoder(Self.settings())
        let first = try encoder.encode(try source.read(), milliseconds: 0, forceKeyframe: false)
        let second = try encoder.encode(try source.read(), milliseconds: 33, forceKeyframe: false)
        #expect(first.count == 1 && first[0].isKeyframe && second.count == 1 && !second[0].isKeyframe)
        let held = try source.read()
        #expect(truncate(clip.path, off_t(Self.headerBytes)) == 0)
        let lost = try encoder.encode(held, milliseconds: 66, forceKeyframe: false)
        #expect(lost.isEmpty, "a picture x264 read partly as zeros was sent")
        #expect(encoder.picturesLost == 1)
        let owned = VideoFrame(width: Self.width, height: Self.height, planes: clip.frames[3], captureNanoseconds: 0, sequenceNumber: 3)
        let next = try encoder.encode(owned, milliseconds: 100, forceKeyframe: false)
        #expect(next.count == 1 && next[0].isKeyframe, "the picture after a dropped one refers to nothing dropped")
    }

    @Test("with every guard slot taken a frame is read into a buffer, with the same bytes")
    func readsWhenNoGuardSlotIsFree() throws {
        let files = try TestFiles()
        let clip = try files.writeY4M("clip.y4m", width: Self.width, height: Self.height, frames: 2)
        let source = try Y4MFileSource(path: clip.path, pacing: .unpaced)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let scratch = try #require(mmap(nil, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        defer { munmap(scratch, page) }
        var taken: [Int32] = []
        while case let slot = onair_mapped_guard_register(scratch, page), slot >= 0 { taken.append(slot) }
        defer { taken.forEach(onair_mapped_guard_unregister) }
        #expect(taken.count <= Int(onair_mapped_guard_capacity()))
        let frame = try source.read()
        #expect(frame.mappedPicture == nil)
        #expect(frame.planes == clip.frames[0])
        taken.forEach(onair_mapped_guard_unregister)
        taken = []
        let mapped = try source.read()
        #expect(mapped.mappedPicture != nil && mapped.planes == clip.frames[1])
    }
}

/// The guard's signal handling, in processes of their own (a SIGBUS it does not answer ends its process).
@Suite("CMappedFileGuard: answers its own ranges, passes on every other SIGBUS")
struct MappedFileGuardProcessTests {
    @Test("a guarded range reads zeros; a fault elsewhere reaches the earlier handler, or ends the process")
    func chainsOtherFaults() async throws {
        let files = try TestFiles()
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/CMappedFileGuard")
        let check = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Native/mapped_file_guard_check.c")
        let program = files.path("mapped-guard-check")
        let directory = files.directory
        let built = try await PeerProcess.run(
            "cc", ["-Wall", "-Wextra", "-Werror", "-O2", "-I", sources.appendingPathComponent("include").path, "-o", program,
                   check.path, sources.appendingPathComponent("mapped_file_guard.c").path, "-lpthread"],
            in: directory)
        try #require(built.status == 0, "cc failed: \(built.error)")
        let alone = try await PeerProcess.run(program, [files.path(""), "alone"], in: directory)
        #expect(alone.output.contains("guarded nonzero 0 damaged 1"), "\(alone.output)")
        #expect(alone.status == 128 + SIGBUS, "an unguarded fault must end the process with SIGBUS: \(alone.status) \(alone.output)")
        let chained = try await PeerProcess.run(program, [files.path(""), "chain"], in: directory)
        #expect(chained.output.contains("guarded nonzero 0 damaged 1"), "\(chained.output)")
        #expect(chained.status == 42, "an unguarded fault must reach the handler installed before: \(chained.status)")
    }
}
