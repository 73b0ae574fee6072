import NIOCore

/// User Control messages (RTMP spec §6.2, §7.1.7): stream lifecycle notices and ping.
///
/// A client must answer ``pingRequest(timestamp:)`` with ``pingResponse(timestamp:)`` carrying the same
/// value, or servers that ping (Wowza, Red5) drop it. Event types RTMP does not define (Flash's buffer
/// notices 31/32) are kept as ``other(eventType:data:)`` rather than refused.
public enum RTMPUserControlEvent: Sendable, Equatable {
    /// The event type field with the spec's raw values (§7.1.7).
    public enum EventType: UInt16, Sendable {
        case streamBegin = 0
        case streamEOF = 1
        case streamDry = 2
        case setBufferLength = 3
        case streamIsRecorded = 4
        case pingRequest = 6
        case pingResponse = 7
    }

    case streamBegin(streamID: UInt32)
    case streamEOF(streamID: UInt32)
    case streamDry(streamID: UInt32)
    case setBufferLength(streamID: UInt32, milliseconds: UInt32)
    case streamIsRecorded(streamID: UInt32)
    case pingRequest(timestamp: UInt32)
    case pingResponse(timestamp: UInt32)
    case other(eventType: UInt16, data: [UInt8])

    /// Parses a message body; `nil` when it is shorter than its event type requires.
    public init?(payload: ByteBuffer) {
        var body = payload
        guard let rawType = body.readInteger(as: UInt16.self) else { return nil }
        guard let type = EventType(rawValue: rawType) else {
            self = .other(eventType: rawType, data: body.readBytes(length: body.readableBytes) ?? [])
            return
        }
        guard let value = body.readInteger(as: UInt32.self) else { return nil }
        switch type {
        case .streamBegin: self = .streamBegin(streamID: value)
        case .streamEOF: self = .streamEOF(streamID: value)
        case .streamDry: self = .streamDry(streamID: value)
        case .streamIsRecorded: self = .streamIsRecorded(streamID: value)
        case .pingRequest: self = .pingRequest(timestamp: value)
        case .pingResponse: self = .pingResponse(timestamp: value)
        case .setBufferLength:
            guard let milliseconds = body.readInteger(as: UInt32.self) else { return nil }
            self = .setBufferLength(streamID: value, milliseconds: milliseconds)
        }
    }

    /// Writes the event type and its data (§7.1.7).
    public func write(into buffer: inout ByteBuffer) {
        func put(_ type: EventType, _ values: UInt32...) {
            buffer.writeInteger(type.rawValue)
            for value in values { buffer.writeInteger(value) }
        }
        switch self {
        case .streamBegin(let id): put(.streamBegin, id)
        case .streamEOF(let id): put(.streamEOF, id)
        case .streamDry(let id): put(.streamDry, id)
        case .setBufferLength(let id, let milliseconds): put(.setBufferLength, id, milliseconds)
        case .streamIsRecorded(let id): put(.streamIsRecorded, id)
        case .pingRequest(let timestamp): put(.pingRequest, timestamp)
        case .pingResponse(let timestamp): put(.pingResponse, timestamp)
        case .other(let type, let data):
            buffer.writeInteger(type)
            buffer.writeBytes(data)
        }
    }
}
