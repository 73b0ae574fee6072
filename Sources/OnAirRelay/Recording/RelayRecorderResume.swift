import NIOCore
import OnAirRTMP

/// Where an `append` continues an existing recording, read with ``FLVFileReader`` (FLV spec E.3): the end
/// of its last complete tag, its last timestamp plus one frame interval, the grid its video frames sit on,
/// and its last sequence headers.
struct RelayRecorderResume: Sendable, Equatable {
    /// Gap between an appended session and the file's last tag when the file gives no frame interval.
    static let defaultGap: UInt32 = 33
    /// An `append` is refused when the file leaves less than this much of FLV's 32-bit millisecond
    /// timestamps (49.7 days) after its last tag: a session appended there would run into the limit.
    static let appendHeadroom: UInt32 = 24 * 3600 * 1000

    /// Bytes up to the end of the last complete tag (a torn tail after it is cut off).
    var validLength: Int
    /// Where the appended session's first message goes (saturated at `UInt32.max`, never wrapped).
    var nextTimestamp: UInt32
    /// The file's video frames, so the appended session's frames land on their grid.
    var videoCadence: RelayVideoCadence
    var videoSequenceHeader: ByteBuffer?
    var audioSequenceHeader: ByteBuffer?
    var hasMetadata: Bool

    /// Whether an appended session still has ``appendHeadroom`` of timestamps before FLV's limit.
    var hasTimestampHeadroom: Bool { nextTimestamp <= UInt32.max - Self.appendHeadroom }

    /// Scans `path`; `nil` when there is no such file (then `append` starts a new one, as Red5 does).
    static func scan(path: String) throws -> RelayRecorderResume? {
        var scanner = RelayResumeScanner()
        let exists = try RelayRecordingFile.read(path: path) { buffer in try scanner.consume(&buffer) }
        guard exists else { return nil }
        return scanner.resume()
    }
}
