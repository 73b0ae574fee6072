import Glibc
import Foundation
import NIOCore
import OnAirCore
import OnAirRTMP

/// Writes one publish session into `<record-dir>/<name>.flv` according to its publish type
/// (docs/design.md §3; Red5's `R5RecordType`, red5pro-blog-ios-interruptions.txt):
/// `record` starts a new file (replacing an old one); `append` continues the existing file so that it
/// plays as one recording — timestamps carry on after its last tag, and sequence headers are written
/// again only when they differ from the file's last ones.
///
/// Timestamps are rebased: the session's first message lands at the file's start (`record`) or just after
/// its last tag (`append`), and never go backwards within a track. Audio and video keep their own
/// timestamps (an AAC frame is 21.3 ms, a video frame 33 ms or more; clamping one to the other would stack
/// audio frames on one instant) and are merged in timestamp order by ``RelayTagInterleaver``. Only whole
/// tags are written (FLVFileWriter builds them in memory) and they are flushed every
/// ``flushThreshold`` bytes and by the registry's periodic tick, so a killed publisher — or relay — leaves
/// a valid file up to its last complete tag. Runs on the relay's event loop.
final class RelayRecorder {
    /// Why a recording could not be opened.
    enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case notFLV(path: String, reason: String)
        case file(RelayRecordingFile.Error)
        case directory(RelayRecordDirectory.Failure)
        /// The file's last tag leaves less than ``RelayRecorderResume/appendHeadroom`` of FLV's timestamps.
        case timestampLimit(path: String, lastTimestamp: UInt32)
        /// Another relay is recording the file now (an `append` to it, or no free numbered name beside it).
        case busy(path: String)

        var description: String {
            switch self {
            case .notFLV(let path, let reason): "cannot append to \(path): \(reason)"
            case .file(let error): "\(error)"
            case .directory(let failure): "\(failure)"
            case .busy(let path):
                "\(path) is being recorded by another relay now (another onair using this record directory); publish under another name, or with type record to record beside it"
            case .timestampLimit(let path, let last):
                "cannot append to \(path): its timestamps reach \(last) ms, too close to FLV's 32-bit limit (49.7 days); publish with type record to start a new file"
            }
        }
    }

    /// Buffered bytes that trigger a write.
    static let flushThreshold = 256 << 10
    let path: String
    let isAppend: Bool
    /// Where an earlier recording of the same name went, numbered, so a new `record` never destroys it.
    private(set) var keptPath: String?
    private let file: RelayRecordingFile
    private var writer: FLVFileWriter
    private var clock: RelayRecordingClock
    /// Holds each track's newest tags until the other track catches up, so the file is in timestamp order.
    private var interleaver = RelayTagInterleaver()
    private var lastVideoHeader: ByteBuffer?
    private var lastAudioHeader: ByteBuffer?
    private var wroteMetadata = false

    /// Opens the recording of `name` in `directory` for a publish of `type` (`record` or `append`).
    init(directory: URL, name: RelayStreamName, type: PublishType) throws(Error) {
        let url = name.recordingURL(in: directory)
        let fileDirectory = url.deletingLastPathComponent()
        do {
            try RelayRecordDirectory.prepare(fileDirectory.path)
        } catch {
            throw .directory(error)
        }
        let opened = try RelayRecordDirectory.withLock(fileDirectory.path) { () throws(Error) in
            try Self.open(path: url.path, type: type)
        }
        path = opened.path
        isAppend = opened.resume != nil
        keptPath = opened.keptPath
        file = opened.file
        let resume = opened.resume
        writer = FLVFileWriter(hasAudio: true, hasVideo: true)
        if let resume {
            _ = writer.takeBytes()                      // the file already has its header
            clock = RelayRecordingClock(base: resume.nextTimestamp, videoCadence: resume.videoCadence)
            lastVideoHeader = resume.videoSequenceHeader
            lastAudioHeader = resume.audioSequenceHeader
            wroteMetadata = resume.hasMetadata
        } else {
            clock = RelayRecordingClock(base: 0)
        }
    }

    /// What ``open(path:type:)`` chose and opened.
    private struct Opened {
        let path: String
        let resume: RelayRecorderResume?
        let keptPath: String?
        let file: RelayRecordingFile
    }

    /// Chooses and opens the file, under the directory's lock (``RelayRecordDirectory/withLock(_:_:)``), and
    /// locks it for as long as it is recorded. A file another relay is recording now (`onair demo` and `onair
    /// serve` share the default record directory, and two demos record the same stream name) is never moved
    /// or appended to: before, a second demo's `record` moved the first's live file to `NAME-1.flv`, whose
    /// recording then failed as "replaced", and an `append` wrote into it from two processes. A `record` then
    /// goes beside it, to the first free `NAME-N.flv`; an `append` is refused with the reason.
    private static func open(path named: String, type: PublishType) throws(Error) -> Opened {
        var path = named
        if RelayRecordingFile.isBeingRecorded(path: path) {
            guard type != .append, let free = freeNumberedPath(for: path) else { throw .busy(path: path) }
            path = free
        }
        var resume: RelayRecorderResume?
        if type == .append {
            do {
                resume = try RelayRecorderResume.scan(path: path)
            } catch let error as RelayRecordingFile.Error {
                throw .file(error)
            } catch {
                throw .notFLV(path: path, reason: "\(error)")
            }
        }
        if let resume, !resume.hasTimestampHeadroom {
            throw .timestampLimit(path: path, lastTimestamp: resume.nextTimestamp)
        }
        let keptPath: String?
        let file: RelayRecordingFile
        do {
            if let resume {
                try RelayRecordingFile.truncate(path: path, to: resume.validLength)
                keptPath = nil
            } else {
                keptPath = keepEarlierRecording(at: path)
            }
            file = try RelayRecordingFile(path: path, truncate: resume == nil)
        } catch {
            throw .file(error)
        }
        // Only a process that does not take the directory's lock (an older relay) can hold it here.
        guard file.lockExclusively() else { throw .busy(path: path) }
        return Opened(path: path, resume: resume, keptPath: keptPath, file: file)
    }

    /// The first `NAME-N.flv` (N from 1) where no file is; nil past 10 000.
    static func freeNumberedPath(for path: String) -> String? {
        let base = path.hasSuffix(".flv") ? String(path.dropLast(".flv".count)) : path
        for number in 1...10_000 {
            let candidate = "\(base)-\(number).flv"
            var status = stat()
            if lstat(candidate, &status) != 0, errno == ENOENT { return candidate }
        }
        return nil
    }

    /// A new `record` of a name already recorded: the earlier file keeps its tags under the first free
    /// `NAME-N.flv` (N from 1) — a tap after an accepted call, or a second run, must not lose the first
    /// broadcast. `link` then `unlink`, so a numbered file is never overwritten either. Nil when there was none.
    static func keepEarlierRecording(at path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 else { return nil }
        let base = path.hasSuffix(".flv") ? String(path.dropLast(".flv".count)) : path
        for number in 1...10_000 {
            let candidate = "\(base)-\(number).flv"
            if link(path, candidate) == 0 {
                _ = unlink(path)
                return candidate
            }
            if errno != EEXIST { break }
        }
        return nil
    }

    /// Adds a message to the file (audio, video and the first metadata; notices are not recorded).
    func write(_ message: RelayMediaMessage) throws(RelayRecordingFile.Error) {
        let type: FLVTag.TagType
        switch message.kind {
        case .audio:
            type = .audio
            if message.isSequenceHeader {
                if message.payload == lastAudioHeader { return }
                lastAudioHeader = message.payload
            }
        case .video:
            type = .video
            if message.isSequenceHeader {
                if message.payload == lastVideoHeader { return }
                lastVideoHeader = message.payload
            }
        case .metadata:
            guard !wroteMetadata, message.typeID == RTMPMessageType.dataAMF0.rawValue else { return }
            wroteMetadata = true
            type = .scriptData
        case .data, .clearMetadata:
            return
        }
        let data = type == .scriptData ? Self.withoutSessionFields(message.payload) : message.payload
        let timestamp = clock.fileTimestamp(message.timestamp, track: type, isSample: type != .scriptData && !message.isSequenceHeader)
        for tag in interleaver.add(FLVTag(type: type, timestamp: timestamp, data: data)) {
            writer.append(tag)
        }
        if writer.bytes.readableBytes >= Self.flushThreshold { try flush() }
    }

    /// The stream's publisher moved to a new connection that carries the same broadcast on: the file and its
    /// clock go on (``RelayRecordingClock/continueAfterTakeOver()``) instead of a close and an `append`.
    func continueAfterTakeOver() {
        clock.continueAfterTakeOver()
    }

    /// Writes buffered whole tags to the file.
    func flush() throws(RelayRecordingFile.Error) {
        guard writer.bytes.readableBytes > 0 else { return }
        try file.write(writer.takeBytes())
    }

    /// Closes the file without writing what is buffered (after a failed write or a vanished file).
    func abandon() {
        file.close()
    }

    /// Throws when the file was deleted or replaced while recording (see ``RelayRecordingFile/checkInPlace()``).
    func checkInPlace() throws(RelayRecordingFile.Error) {
        try file.checkInPlace()
    }

    /// Flushes and closes; returns the bytes this session wrote.
    @discardableResult
    func close() throws(RelayRecordingFile.Error) -> UInt64 {
        defer { file.close() }
        for tag in interleaver.drain() { writer.append(tag) }
        try flush()
        return file.bytesWritten
    }

    /// `onMetaData` without `duration` and `filesize` (FLV spec E.5): they describe one publish session,
    /// and a reader that finds no duration takes it from the last tag — which is right for an appended file.
    static func withoutSessionFields(_ payload: ByteBuffer) -> ByteBuffer {
        guard let values = try? AMF0Decoder().decodeAll(payload), values.count >= 2 else { return payload }
        let dropped: Set<String> = [FLVMetadata.Key.duration, "filesize"]
        let cleaned: [AMF0Value] = values.map { value in
            switch value {
            case .ecmaArray(let properties): .ecmaArray(properties.filter { !dropped.contains($0.key) })
            case .object(let properties): .object(properties.filter { !dropped.contains($0.key) })
            default: value
            }
        }
        return AMF0Encoder.encode(cleaned)
    }
}
