import NIOCore
import OnAirRTMP

/// Where an `append` continues an existing recording, read with ``FLVFileReader`` (FLV spec E.3): the end
/// of its last complete tag, its last timestamp plus one frame interval, and its last sequence headers.
struct RelayRecorderResume: Sendable {
    /// Bytes up to the end of the last complete tag (a torn tail after it is cut off).
    var validLength: Int
    /// Where the appended session's first message goes.
    var nextTimestamp: UInt32
    var videoSequenceHeader: ByteBuffer?
    var audioSequenceHeader: ByteBuffer?
    var hasMetadata: Bool

    /// Scans `path`; `nil` when there is no such file (then `append` starts a new one, as Red5 does).
    static func scan(path: String) throws -> RelayRecorderResume? {
        var reader = FLVFileReader()
        var consumed = 0
        var lastTimestamp: UInt32?
        var lastVideoTimestamp: UInt32?
        var videoInterval: UInt32?
        var resume = RelayRecorderResume(validLength: 0, nextTimestamp: 0, hasMetadata: false)
        let exists = try RelayRecordingFile.read(path: path) { buffer in
            let before = buffer.readerIndex
            while let tag = try reader.nextTag(from: &buffer) {
                lastTimestamp = max(lastTimestamp ?? 0, tag.timestamp)
                switch tag.type {
                case .video:
                    let message = RelayMediaMessage(RTMPRawMessage(
                        chunkStreamID: 0, timestamp: tag.timestamp, typeID: tag.type.rawValue, messageStreamID: 0, payload: tag.data))
                    if message?.isSequenceHeader == true {
                        resume.videoSequenceHeader = tag.data
                    } else {
                        if let previous = lastVideoTimestamp, tag.timestamp > previous { videoInterval = tag.timestamp - previous }
                        lastVideoTimestamp = tag.timestamp
                    }
                case .audio:
                    let message = RelayMediaMessage(RTMPRawMessage(
                        chunkStreamID: 0, timestamp: tag.timestamp, typeID: tag.type.rawValue, messageStreamID: 0, payload: tag.data))
                    if message?.isSequenceHeader == true { resume.audioSequenceHeader = tag.data }
                case .scriptData:
                    resume.hasMetadata = true
                }
            }
            consumed += buffer.readerIndex - before
        }
        guard exists else { return nil }
        guard reader.header != nil else { return nil }      // empty or header-less file: start afresh
        resume.validLength = consumed
        if let lastTimestamp {
            resume.nextTimestamp = lastTimestamp + min(max(videoInterval ?? RelayRecorder.defaultGap, 1), 1000)
        }
        return resume
    }
}
