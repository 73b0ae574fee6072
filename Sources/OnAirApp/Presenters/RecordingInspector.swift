import Foundation
import OnAirRelay
import OnAirRTMP
import OnAirScenario

/// Reads a recording of the embedded relay for `expect recording …` and the report: how long it lasts and
/// whether its video timestamps run on without going back or jumping (FLV spec E.4, read with
/// ``FLVFileReader``; a torn last tag of a recording still being written is ignored).
struct RecordingInspector: Sendable {
    let directory: URL
    /// The recording a scenario means when it names none: the demo's stream.
    let defaultName: String
    /// The embedded relay, which says where it recorded a name: beside `NAME.flv` when another relay was
    /// recording that file (two demos at once share the default record directory).
    var relay: RelayServer?

    func summary(of name: String?) -> RecordingSummary? {
        let name = name ?? defaultName
        let path = relay?.recordingPath(of: name) ?? directory.appendingPathComponent("\(name).flv").path
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else { return nil }
        guard let (header, tags, _) = try? FLVFileReader.readAll(bytes: data), header != nil else { return nil }
        var first: UInt32?
        var previous: UInt32?
        var largestJump: UInt32 = 0
        var backwards = false
        var frames = 0
        for tag in tags where tag.type == .video && !Self.isSequenceHeader(tag) {
            frames += 1
            if first == nil { first = tag.timestamp }
            if let previous {
                if tag.timestamp < previous { backwards = true } else { largestJump = max(largestJump, tag.timestamp - previous) }
            }
            previous = tag.timestamp
        }
        let duration = Int64((previous ?? 0) - min(first ?? 0, previous ?? 0))
        return RecordingSummary(
            name: Self.name(of: path, in: directory) ?? name, duration: .milliseconds(duration), tags: frames,
            largestJump: .milliseconds(Int64(largestJump)), goesBackwards: backwards
        )
    }

    /// The recording's name as the directory holds it (`stream1-2` when it went beside `stream1.flv`).
    private static func name(of path: String, in directory: URL) -> String? {
        let prefix = directory.standardizedFileURL.path + "/"
        let standard = URL(fileURLWithPath: path).standardizedFileURL.path
        guard standard.hasPrefix(prefix), standard.hasSuffix(".flv") else { return nil }
        return String(standard.dropFirst(prefix.count).dropLast(".flv".count))
    }

    /// An AVC sequence header (FLV spec E.4.3.1, AVCPacketType 0) carries no picture.
    private static func isSequenceHeader(_ tag: FLVTag) -> Bool {
        tag.data.readableBytes >= 2 && tag.data.getInteger(at: tag.data.readerIndex + 1, as: UInt8.self) == 0
    }
}
