import Foundation
import Glibc
import NIOCore
@testable import OnAirRelay
import OnAirCore
import OnAirRTMP
import Testing

/// Two relays recording into one directory at once, as two `onair demo`s (or a demo and `onair serve`) do with
/// the default record directory and the same stream name. Before: the second's `record` moved the first's live
/// file aside (`NAME-1.flv`), so the first's recording failed as "replaced" and a scenario read the other
/// relay's file; an `append` wrote into a file another process was writing.
@Suite("Relays sharing a record directory", .serialized)
struct RelaySharedRecordDirectoryTests {
    /// The recordings of `stream` that ended, stopped or failed.
    private static func stops(_ harness: RelayTestHarness, _ stream: String) -> Int {
        harness.events.all.filter {
            switch $0 {
            case .recordingStopped(stream: stream, _, _), .recordingFailed(stream: stream, _, _): true
            default: false
            }
        }.count
    }

    /// Two relays on one record directory, and a publisher recording `stream` on the first that has sent
    /// `frames` and knows the relay has them.
    private static func liveRecording(_ stream: String, frames: [FLVTag]) async throws
        -> (first: RelayTestHarness, second: RelayTestHarness, live: RelayTestPublisher) {
        let first = try await RelayTestHarness()
        let second = try await RelayTestHarness { $0.recordDirectory = first.recordDirectory }
        let live = try await RelayTestPublisher(url: try first.streamURL(stream), type: .record)
        try await live.send(frames)
        try await live.sync()
        return (first, second, live)
    }

    @Test("a second relay's record of a name the first is recording goes beside it; the first's recording stays whole")
    func recordBesideLiveRecording() async throws {
        let tags = RelayTestPublisher.syntheticVideo(count: 40, size: 500)
        let (first, second, live) = try await Self.liveRecording("shared", frames: Array(tags.prefix(20)))

        let other = try await RelayTestPublisher(url: try second.streamURL("shared"), type: .record)
        try await other.send(tags)
        await other.unpublish()
        try await second.events.wait { _ in Self.stops(second, "shared") == 1 }

        try await live.send(Array(tags.dropFirst(20)))
        await live.unpublish()
        try await first.events.wait { _ in Self.stops(first, "shared") == 1 }
        await second.stop()
        await first.stop()

        let failures = (first.events.all + second.events.all).filter { if case .recordingFailed = $0 { true } else { false } }
        #expect(failures.isEmpty, "\(failures)")
        let own = first.recordDirectory.appendingPathComponent("shared.flv").path
        let beside = first.recordDirectory.appendingPathComponent("shared-1.flv").path
        #expect(first.relay.recordingPath(of: "shared") == own)
        #expect(second.relay.recordingPath(of: "shared") == beside)
        let kept = try FLVFileReader.readAll(ByteBuffer(bytes: Data(contentsOf: URL(fileURLWithPath: own))))
        #expect(kept.tags.filter { $0.type == .video }.count == 40, "the first relay's recording, every frame in its own file")
        let next = try FLVFileReader.readAll(ByteBuffer(bytes: Data(contentsOf: URL(fileURLWithPath: beside))))
        #expect(next.tags.filter { $0.type == .video }.count == 40, "the second relay's recording beside it")
    }

    @Test("an append to a file another relay is recording is refused with the reason; the recording goes on")
    func appendToLiveRecordingRefused() async throws {
        let (first, second, live) = try await Self.liveRecording("busy", frames: RelayTestPublisher.syntheticVideo(count: 20, size: 500))

        let other = try await RelayTestPublisher(url: try second.streamURL("busy"), type: .append)
        let failed = try await second.events.first(where: { if case .recordingFailed(stream: "busy", _, _) = $0 { true } else { false } })
        if case .recordingFailed(_, _, let reason) = failed {
            #expect(reason.contains("being recorded by another relay"), "\(reason)")
        }
        await other.unpublish()
        try await live.send(RelayTestPublisher.syntheticVideo(count: 20, size: 500, start: 2_000))
        await live.unpublish()
        try await first.events.wait { _ in Self.stops(first, "busy") == 1 }
        await second.stop()
        await first.stop()
        #expect(!first.events.all.contains { if case .recordingFailed = $0 { true } else { false } }, "\(first.events.all)")
        let file = try FLVFileReader.readAll(ByteBuffer(bytes: Data(contentsOf: first.recordDirectory.appendingPathComponent("busy.flv"))))
        #expect(file.tags.filter { $0.type == .video }.count == 40, "only the first relay wrote its file")
    }

    @Test("a directory lock another program sits on delays a recording by at most its 200 ms, never the relay")
    func heldDirectoryLockIsBounded() async throws {
        let harness = try await RelayTestHarness()
        try FileManager.default.createDirectory(at: harness.recordDirectory, withIntermediateDirectories: true)
        let holder = open(harness.recordDirectory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(holder >= 0 && flock(holder, LOCK_EX) == 0)
        defer { _ = close(holder) }
        let publisher = try await RelayTestPublisher(url: try harness.streamURL("held"), type: .record)
        try await publisher.send(RelayTestPublisher.syntheticVideo(count: 10, size: 500))
        let started = try await harness.events.first(where: { if case .recordingStarted(stream: "held", _, _) = $0 { true } else { false } })
        if case .recordingStarted(_, let path, _) = started {
            #expect(path == harness.recordDirectory.appendingPathComponent("held.flv").path)
        }
        await publisher.unpublish()
        await harness.stop()
    }
}
