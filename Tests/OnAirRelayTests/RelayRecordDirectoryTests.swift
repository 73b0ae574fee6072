import Foundation
@testable import OnAirRelay
import OnAirTestSupport
import Testing

/// The record directory: made with its parents, and a failure that names the system's reason and the
/// component in the way — at a publish (`recordingFailed`) and at `onair serve`'s start.
@Suite("Relay record directory")
struct RelayRecordDirectoryTests {
    @Test("creates missing parents and accepts an existing directory")
    func createsParents() throws {
        let directory = try TemporaryDirectory(prefix: "onair-recdir")
        let nested = directory.file("a/b//c/").path
        try RelayRecordDirectory.prepare(nested)
        try RelayRecordDirectory.prepare(nested)
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: directory.file("a/b/c").path, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    @Test("a file in the way is named with the system's reason", arguments: [
        ("blocker", "blocker"),
        ("blocker/rec", "blocker"),
        ("blocker/rec/deeper", "blocker"),
    ])
    func fileInTheWay(_ relative: String, _ inTheWay: String) throws {
        let directory = try TemporaryDirectory(prefix: "onair-recdir")
        try Data("not a directory".utf8).write(to: directory.file("blocker"))
        let path = directory.file(relative).path
        #expect {
            try RelayRecordDirectory.prepare(path)
        } throws: { error in
            guard let failure = error as? RelayRecordDirectory.Failure else { return false }
            return failure.path == path && failure.failedAt == directory.file(inTheWay).path
                && failure.reason == "Not a directory" && "\(failure)".hasPrefix("cannot create record directory \(path)")
        }
        #expect(throws: RelayRecordDirectory.Failure.self) { try RelayRecordDirectory.prepare("") }
    }

    @Test("a record publish into a blocked directory reports recordingFailed with the reason, and stays live")
    func publishIntoBlockedDirectory() async throws {
        let harness = try await RelayTestHarness()
        try Data("in the way".utf8).write(to: harness.recordDirectory)
        let publisher = try await RelayTestPublisher(url: try harness.streamURL("blocked"), type: .record)
        let failure = try await harness.events.first { if case .recordingFailed = $0 { true } else { false } }
        guard case .recordingFailed(let stream, _, let reason) = failure else { return }
        #expect(stream == "blocked")
        #expect(reason == "cannot create record directory \(harness.recordDirectory.path): Not a directory", "\(reason)")
        try await publisher.send(RelayTestPublisher.syntheticVideo(count: 5, size: 300))
        try await publisher.sync()
        await publisher.unpublish()
        await harness.stop()
    }
}
