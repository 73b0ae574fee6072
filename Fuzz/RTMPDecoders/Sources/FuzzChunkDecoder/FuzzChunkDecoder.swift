import FuzzDriver
import NIOCore
import OnAirRTMP

/// libFuzzer's entry point: feed any bytes to the chunk decoder, once whole and once split in two at a
/// position derived from the first byte (which stays part of the input), to exercise the "need more data"
/// paths. A trap is a finding; so is a split feed that yields other messages or another error than the
/// whole feed (the decoder promises the same messages however the bytes arrive). Every decoded message
/// goes through the RTMPMessage parser, whose errors are fine and whose traps are findings.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChunkDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: size > 0 ? data : nil, count: size)
    let split = size > 0 ? Int(bytes[0]) * size / 256 : 0
    let limits = RTMPChunkDecoder.Limits(maxChunkSize: 0xFF_FFFF, maxMessageLength: 1 << 20, maxChunkStreams: 64)

    let whole = feed([ByteBuffer(bytes: bytes)], limits: limits)
    let parts = feed([ByteBuffer(bytes: bytes[..<split]), ByteBuffer(bytes: bytes[split...])], limits: limits)
    precondition(whole.messages == parts.messages, "split at \(split) changed the decoded messages")
    precondition(whole.error == parts.error, "split at \(split) changed the error")
    precondition(whole.leftover == parts.leftover, "split at \(split) changed the unconsumed bytes")

    for raw in whole.messages {
        do {
            let message = try RTMPMessage(raw)
            _ = message.payload()
        } catch {
            _ = error.description
        }
    }
    return 0
}

/// Decodes every message from `pieces` appended one after another; stops at the first error.
private func feed(_ pieces: [ByteBuffer], limits: RTMPChunkDecoder.Limits)
    -> (messages: [RTMPRawMessage], error: RTMPChunkDecoder.Error?, leftover: Int)
{
    var decoder = RTMPChunkDecoder(limits: limits)
    var inbox = ByteBuffer()
    var messages: [RTMPRawMessage] = []
    for var piece in pieces {
        inbox.writeBuffer(&piece)
        do {
            while let message = try decoder.decode(&inbox) { messages.append(message) }
        } catch {
            _ = error.description
            return (messages, error, -1)
        }
    }
    return (messages, nil, inbox.readableBytes)
}

/// SwiftPM points the program's `main` at `<module>_main`.
@_cdecl("FuzzChunkDecoder_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzChunkDecoder)
}
