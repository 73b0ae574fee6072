import FuzzDriver
import NIOCore
import OnAirRTMP

/// libFuzzer's entry point (GitHub issue 14 item 1): any bytes as an existing recording that `append`
/// resumes. The scan runs whole and split in two at a position derived from the first byte (the relay reads
/// files in pieces), and must agree; then every tag of the file is replayed as the appended session's
/// messages through the recording clock (on the file's video grid), whose samples must move their track on
/// (strictly, until the 32-bit limit, where they saturate). A trap (an arithmetic overflow in particular) is
/// a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecorderResume(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: size > 0 ? data : nil, count: size)
    let split = size > 0 ? Int(bytes[0]) * size / 256 : 0
    let maxTagSize = 1 << 20

    var whole = RelayResumeScanner(maxTagSize: maxTagSize)
    var buffer = ByteBuffer(bytes: bytes)
    do {
        try whole.consume(&buffer)
    } catch {
        _ = "\(error)"
        return 0
    }
    var parts = RelayResumeScanner(maxTagSize: maxTagSize)
    var piece = ByteBuffer(bytes: bytes[..<split])
    do {
        try parts.consume(&piece)
        piece.writeBytes(bytes[split...])
        try parts.consume(&piece)
    } catch {
        preconditionFailure("split at \(split) fails where the whole scan succeeds: \(error)")
    }
    let resume = whole.resume()
    precondition(resume == parts.resume(), "split at \(split) changed the resume point")
    guard let resume else { return 0 }
    precondition(resume.validLength <= size, "resume point \(resume.validLength) beyond the file's \(size) bytes")

    guard let tags = try? FLVFileReader.readAll(ByteBuffer(bytes: bytes), maxTagSize: maxTagSize).tags else { return 0 }
    var clock = RelayRecordingClock(base: resume.nextTimestamp, videoCadence: resume.videoCadence)
    var last: [FLVTag.TagType: UInt32] = [:]
    for tag in tags {
        let mapped = clock.fileTimestamp(tag.timestamp, track: tag.type, isSample: tag.type != .scriptData)
        precondition(mapped >= resume.nextTimestamp, "\(mapped) before the append's base \(resume.nextTimestamp)")
        guard tag.type != .scriptData else { continue }      // metadata keeps its time; only samples move a track on
        if let previous = last[tag.type] { precondition(mapped > previous || mapped == .max, "track \(tag.type) went back: \(previous) → \(mapped)") }
        last[tag.type] = mapped
    }
    return 0
}

/// SwiftPM points the program's `main` at `<module>_main`.
@_cdecl("FuzzRecorderResume_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzRecorderResume)
}
