import NIOCore

/// A decoded RTMP message (RTMP spec §5.4 protocol control, §6.2 user control, §7.1 command, data and
/// media messages): what ``RTMPRawMessage``'s payload means.
///
/// Audio and video bodies stay `ByteBuffer`s (FLV tag bodies, FLV spec E.4.2/E.4.3), parsed by
/// ``FLVAudioTag``/``FLVVideoTag`` only by whoever needs them. AMF3-flavoured command and data messages
/// (types 17/15) are accepted when they carry AMF0 after their format byte, as Flash Player sends them.
public enum RTMPMessage: Sendable, Equatable {
    case setChunkSize(UInt32)
    case abort(chunkStreamID: UInt32)
    case acknowledgement(sequenceNumber: UInt32)
    case userControl(RTMPUserControlEvent)
    case windowAcknowledgementSize(UInt32)
    case setPeerBandwidth(windowSize: UInt32, limit: PeerBandwidthLimit)
    case audio(ByteBuffer)
    case video(ByteBuffer)
    case data(RTMPDataMessage)
    case command(RTMPCommand)

    /// The Set Peer Bandwidth limit type (§5.4.5).
    public enum PeerBandwidthLimit: UInt8, Sendable {
        case hard = 0
        case soft = 1
        case dynamic = 2
    }

    /// Conventional chunk stream IDs (§5.4 fixes 2 for control; the rest follow FFmpeg and nginx-rtmp).
    public enum ChunkStream {
        public static let control: UInt32 = 2
        public static let command: UInt32 = 3
        public static let audio: UInt32 = 4
        public static let data: UInt32 = 5
        public static let video: UInt32 = 6
    }

    /// Why a message body is not what its type says.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case unknownType(UInt8)
        case unsupportedType(RTMPMessageType)
        case truncated(RTMPMessageType)
        case invalidAMF(RTMPMessageType, AMF0Decoder.Error)
        case missingName(RTMPMessageType)

        public var description: String {
            switch self {
            case .unknownType(let type): "RTMP message type \(type) is not defined by the RTMP spec (§5.4, §7.1); ignoring it"
            case .unsupportedType(let type): "RTMP \(type) messages (type \(type.rawValue)) are not supported by OnAir; ignoring them"
            case .truncated(let type): "RTMP \(type) message is shorter than the spec requires"
            case .invalidAMF(let type, let error): "RTMP \(type) message body: \(error)"
            case .missingName(let type): "RTMP \(type) message does not start with a name string (RTMP spec §7.1)"
            }
        }
    }

    /// Decodes `raw`'s payload according to its type.
    public init(_ raw: RTMPRawMessage, amf decoder: AMF0Decoder = AMF0Decoder()) throws(Error) {
        guard let type = raw.type else { throw .unknownType(raw.typeID) }
        var body = raw.payload
        func u32() throws(Error) -> UInt32 {
            guard let value = body.readInteger(as: UInt32.self) else { throw .truncated(type) }
            return value
        }
        func amf() throws(Error) -> [AMF0Value] {
            if type == .commandAMF3 || type == .dataAMF3, body.getInteger(at: body.readerIndex, as: UInt8.self) == 0 {
                body.moveReaderIndex(forwardBy: 1)
            }
            do { return try decoder.decodeAll(body) } catch { throw .invalidAMF(type, error) }
        }
        switch type {
        case .setChunkSize: self = .setChunkSize(try u32())
        case .abort: self = .abort(chunkStreamID: try u32())
        case .acknowledgement: self = .acknowledgement(sequenceNumber: try u32())
        case .windowAcknowledgementSize: self = .windowAcknowledgementSize(try u32())
        case .setPeerBandwidth:
            let size = try u32()
            let limit = body.readInteger(as: UInt8.self).flatMap(PeerBandwidthLimit.init(rawValue:)) ?? .dynamic
            self = .setPeerBandwidth(windowSize: size, limit: limit)
        case .userControl:
            guard let event = RTMPUserControlEvent(payload: body) else { throw .truncated(type) }
            self = .userControl(event)
        case .audio: self = .audio(body)
        case .video: self = .video(body)
        case .dataAMF0, .dataAMF3:
            guard let data = RTMPDataMessage(values: try amf()) else { throw .missingName(type) }
            self = .data(data)
        case .commandAMF0, .commandAMF3:
            guard let command = RTMPCommand(values: try amf()) else { throw .missingName(type) }
            self = .command(command)
        case .sharedObjectAMF0, .sharedObjectAMF3, .aggregate:
            throw .unsupportedType(type)
        }
    }

    /// The type this message is sent as.
    public var type: RTMPMessageType {
        switch self {
        case .setChunkSize: .setChunkSize
        case .abort: .abort
        case .acknowledgement: .acknowledgement
        case .userControl: .userControl
        case .windowAcknowledgementSize: .windowAcknowledgementSize
        case .setPeerBandwidth: .setPeerBandwidth
        case .audio: .audio
        case .video: .video
        case .data: .dataAMF0
        case .command: .commandAMF0
        }
    }

    /// The body bytes (§5.4, §6.2, §7.1).
    public func payload() -> ByteBuffer {
        var buffer = ByteBuffer()
        switch self {
        case .setChunkSize(let value), .acknowledgement(let value), .windowAcknowledgementSize(let value):
            buffer.writeInteger(value)
        case .abort(let id):
            buffer.writeInteger(id)
        case .setPeerBandwidth(let size, let limit):
            buffer.writeInteger(size)
            buffer.writeInteger(limit.rawValue)
        case .userControl(let event):
            event.write(into: &buffer)
        case .audio(let body), .video(let body):
            return body
        case .data(let data):
            AMF0Encoder.encode(data.values, into: &buffer)
        case .command(let command):
            AMF0Encoder.encode(command.values, into: &buffer)
        }
        return buffer
    }

    /// The chunk stream this kind of message conventionally travels on.
    public var defaultChunkStreamID: UInt32 {
        switch self {
        case .setChunkSize, .abort, .acknowledgement, .userControl, .windowAcknowledgementSize, .setPeerBandwidth:
            ChunkStream.control
        case .audio: ChunkStream.audio
        case .video: ChunkStream.video
        case .data: ChunkStream.data
        case .command: ChunkStream.command
        }
    }

    /// Wraps this message for the chunk encoder.
    public func raw(timestamp: UInt32 = 0, messageStreamID: UInt32 = 0, chunkStreamID: UInt32? = nil) -> RTMPRawMessage {
        RTMPRawMessage(
            chunkStreamID: chunkStreamID ?? defaultChunkStreamID, timestamp: timestamp, typeID: type.rawValue,
            messageStreamID: messageStreamID, payload: payload())
    }
}
