import FuzzDriver
import NIOCore
import OnAirRTMP

/// libFuzzer's entry point: any bytes as the body of an aggregate message (RTMP spec §7.1.6), the
/// aggregate's timestamp taken from the first byte. A trap is a finding; so is a split that the
/// sub-message reader, driven by hand, does not agree with, a body that is not the bytes its DataSize says,
/// or a first sub-message that does not land on the aggregate's timestamp.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAggregateMessage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: size > 0 ? data : nil, count: size)
    let body = ByteBuffer(bytes: bytes)
    let timestamp = UInt32(size > 0 ? bytes[0] : 0) << 24
    let raw = RTMPRawMessage(chunkStreamID: 6, timestamp: timestamp, typeID: RTMPMessageType.aggregate.rawValue,
                             messageStreamID: 1, payload: body)

    // By hand: sub-messages until "need more data" or an error; nil must leave the buffer untouched.
    var rest = body
    var subs: [RTMPAggregateMessage.SubMessage] = []
    var failed = false
    do {
        while rest.readableBytes > 0 {
            let before = rest.readerIndex
            guard let sub = try RTMPAggregateMessage.decodeSubMessage(from: &rest) else {
                precondition(rest.readerIndex == before, "need more data consumed bytes")
                failed = true
                break
            }
            precondition(rest.readerIndex - before == RTMPAggregateMessage.subHeaderSize + sub.body.readableBytes + RTMPAggregateMessage.backPointerSize,
                         "a sub-message consumed other than its header, body and back pointer")
            subs.append(sub)
        }
    } catch {
        _ = error.description
        failed = true
    }

    do {
        let messages = try RTMPAggregateMessage(raw, limits: .init(maxSubMessages: 1 << 16)).messages
        precondition(!failed, "the aggregate split although its sub-messages do not read")
        precondition(messages.count == subs.count, "the split and the reader disagree on the count")
        for (message, sub) in zip(messages, subs) {
            precondition(message.payload == sub.body && message.typeID == sub.typeID, "the split changed a sub-message")
        }
        if let first = messages.first { precondition(first.timestamp == timestamp, "the first sub-message is not at the aggregate's time") }
    } catch {
        _ = error.description
        precondition(failed, "the aggregate was refused although its sub-messages read")
    }
    return 0
}

/// SwiftPM points the program's `main` at `<module>_main`.
@_cdecl("FuzzAggregateMessage_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzAggregateMessage)
}
