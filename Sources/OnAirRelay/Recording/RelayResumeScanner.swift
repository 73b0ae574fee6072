import NIOCore
import OnAirRTMP

/// Reads an existing recording piece by piece and works out its ``RelayRecorderResume``: a value with no
/// file access, so the libFuzzer target `FuzzRecorderResume` drives it with any bytes (GitHub issue 14).
///
/// Every timestamp comes from a file someone else may have written (or an earlier session with hostile
/// timestamps), so all arithmetic on them saturates: a file whose last tag sits at 0xFFFFFFFF resumes at
/// 0xFFFFFFFF, and ``RelayRecorder`` refuses to append to it, rather than trapping on overflow.
struct RelayResumeScanner {
    private var reader: FLVFileReader
    private var consumed = 0
    private var lastTimestamp: UInt32?
    private var videoCadence = RelayVideoCadence()
    private var videoSequenceHeader: ByteBuffer?
    private var audioSequenceHeader: ByteBuffer?
    private var hasMetadata = false

    init(maxTagSize: Int = 0xFF_FFFF) {
        reader = FLVFileReader(maxTagSize: maxTagSize)
    }

    /// Takes every whole tag from `buffer`, leaving a partial one there for the next piece.
    mutating func consume(_ buffer: inout ByteBuffer) throws {
        let before = buffer.readerIndex
        defer { consumed += buffer.readerIndex - before }
        while let tag = try reader.nextTag(from: &buffer) {
            lastTimestamp = max(lastTimestamp ?? 0, tag.timestamp)
            switch tag.type {
            case .video:
                if Self.isSequenceHeader(tag) {
                    videoSequenceHeader = tag.data
                } else {
                    videoCadence.add(tag.timestamp)
                }
            case .audio:
                if Self.isSequenceHeader(tag) { audioSequenceHeader = tag.data }
            case .scriptData:
                hasMetadata = true
            }
        }
    }

    /// Where an append continues; `nil` for an empty or header-less file (then it starts afresh).
    func resume() -> RelayRecorderResume? {
        guard reader.header != nil else { return nil }
        var next: UInt32 = 0
        if let lastTimestamp {
            let gap = min(max(videoCadence.step ?? RelayRecorderResume.defaultGap, 1), 1000)
            let (sum, overflow) = lastTimestamp.addingReportingOverflow(gap)
            next = overflow ? .max : sum
        }
        return RelayRecorderResume(
            validLength: consumed, nextTimestamp: next, videoCadence: videoCadence, videoSequenceHeader: videoSequenceHeader,
            audioSequenceHeader: audioSequenceHeader, hasMetadata: hasMetadata)
    }

    private static func isSequenceHeader(_ tag: FLVTag) -> Bool {
        RelayMediaMessage(RTMPRawMessage(
            chunkStreamID: 0, timestamp: tag.timestamp, typeID: tag.type.rawValue, messageStreamID: 0, payload: tag.data))?
            .isSequenceHeader == true
    }
}
