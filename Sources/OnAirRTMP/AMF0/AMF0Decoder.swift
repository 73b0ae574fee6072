import NIOCore

/// Reads AMF0 values (AMF0 spec §2) from a `ByteBuffer`, within limits that hostile input cannot exceed.
///
/// ``decode(from:)`` follows the "need more data" rule: on a partial value it returns `nil` and leaves the
/// buffer untouched, so a caller can append bytes and try again. Inside a complete RTMP message body
/// (``decodeAll(_:)``) a partial value is an error instead. Declared lengths are checked against
/// ``Limits`` *before* anything is read or allocated, and arrays grow only as elements actually arrive,
/// so a 4-byte header claiming a 10 MB string or 2^32 elements costs nothing.
/// References (§2.9) are refused: RTMP peers do not send them, and following them invites cycles.
public struct AMF0Decoder: Sendable {
    /// Bounds on what one value may claim.
    public struct Limits: Sendable, Equatable {
        /// Longest string (short or long, §2.4/§2.14) in UTF-8 bytes.
        public var maxStringLength: Int
        /// Deepest nesting of objects and arrays.
        public var maxDepth: Int
        /// Most elements of one strict array, or properties of one object / ECMA array.
        public var maxElements: Int

        public init(maxStringLength: Int = 1 << 20, maxDepth: Int = 32, maxElements: Int = 65_536) {
            self.maxStringLength = maxStringLength
            self.maxDepth = maxDepth
            self.maxElements = maxElements
        }
    }

    /// Why bytes are not valid AMF0; each names the limit or byte at fault.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case truncated
        case unknownMarker(UInt8)
        case unsupportedMarker(AMF0Marker)
        case referenceNotSupported(index: UInt16)
        case stringTooLong(length: Int, limit: Int)
        case tooManyElements(count: Int, limit: Int)
        case nestedTooDeep(limit: Int)
        case invalidUTF8

        public var description: String {
            switch self {
            case .truncated:
                "AMF0 value ends before its declared length; the message body is cut short"
            case .unknownMarker(let marker):
                "AMF0 type marker 0x\(String(marker, radix: 16)) is not defined by AMF0 spec §2.1; the peer sent garbage"
            case .unsupportedMarker(let marker):
                "AMF0 type \(marker) is not supported by OnAir; the peer must send plain AMF0 values"
            case .referenceNotSupported(let index):
                "AMF0 reference #\(index) refused (AMF0 spec §2.9); send values inline"
            case .stringTooLong(let length, let limit):
                "AMF0 string of \(length) bytes exceeds the \(limit)-byte limit; the peer is hostile or broken"
            case .tooManyElements(let count, let limit):
                "AMF0 array or object with \(count) elements exceeds the limit of \(limit)"
            case .nestedTooDeep(let limit):
                "AMF0 values nested deeper than \(limit) levels; refusing to recurse further"
            case .invalidUTF8:
                "AMF0 string is not valid UTF-8"
            }
        }
    }

    public var limits: Limits

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// One value, or `nil` (buffer untouched) when the buffer holds only part of it.
    public func decode(from buffer: inout ByteBuffer) throws(Error) -> AMF0Value? {
        var cursor = buffer
        do {
            let value = try readValue(&cursor, depth: 0)
            buffer = cursor
            return value
        } catch .truncated {
            return nil
        }
    }

    /// Every value of a complete message body; a partial trailing value is ``Error/truncated``.
    public func decodeAll(_ body: ByteBuffer) throws(Error) -> [AMF0Value] {
        var cursor = body
        var values: [AMF0Value] = []
        while cursor.readableBytes > 0 {
            values.append(try readValue(&cursor, depth: 0))
        }
        return values
    }

    private func readValue(_ buffer: inout ByteBuffer, depth: Int) throws(Error) -> AMF0Value {
        guard depth <= limits.maxDepth else { throw .nestedTooDeep(limit: limits.maxDepth) }
        guard let byte = buffer.readInteger(as: UInt8.self) else { throw .truncated }
        guard let marker = AMF0Marker(rawValue: byte) else { throw .unknownMarker(byte) }
        switch marker {
        case .number:
            guard let bits = buffer.readInteger(as: UInt64.self) else { throw .truncated }
            return .number(Double(bitPattern: bits))
        case .boolean:
            guard let flag = buffer.readInteger(as: UInt8.self) else { throw .truncated }
            return .boolean(flag != 0)
        case .string:
            guard let length = buffer.readInteger(as: UInt16.self) else { throw .truncated }
            return .string(try readUTF8(&buffer, length: Int(length)))
        case .longString:
            guard let length = buffer.readInteger(as: UInt32.self) else { throw .truncated }
            return .string(try readUTF8(&buffer, length: Int(length)))
        case .object:
            return .object(try readProperties(&buffer, depth: depth))
        case .null:
            return .null
        case .undefined:
            return .undefined
        case .ecmaArray:
            // The count is only a hint (AMF0 spec §2.10); the object-end marker terminates the list.
            guard buffer.readInteger(as: UInt32.self) != nil else { throw .truncated }
            return .ecmaArray(try readProperties(&buffer, depth: depth))
        case .strictArray:
            guard let count = buffer.readInteger(as: UInt32.self) else { throw .truncated }
            guard Int(count) <= limits.maxElements else {
                throw .tooManyElements(count: Int(count), limit: limits.maxElements)
            }
            var elements: [AMF0Value] = []
            for _ in 0..<Int(count) {
                elements.append(try readValue(&buffer, depth: depth + 1))
            }
            return .strictArray(elements)
        case .date:
            guard let bits = buffer.readInteger(as: UInt64.self),
                  let zone = buffer.readInteger(as: Int16.self) else { throw .truncated }
            return .date(millisecondsSinceEpoch: Double(bitPattern: bits), timeZone: zone)
        case .reference:
            guard let index = buffer.readInteger(as: UInt16.self) else { throw .truncated }
            throw .referenceNotSupported(index: index)
        case .objectEnd, .movieClip, .unsupported, .recordSet, .xmlDocument, .typedObject, .avmPlusObject:
            throw .unsupportedMarker(marker)
        }
    }

    private func readUTF8(_ buffer: inout ByteBuffer, length: Int) throws(Error) -> String {
        guard length <= limits.maxStringLength else {
            throw .stringTooLong(length: length, limit: limits.maxStringLength)
        }
        guard let bytes = buffer.readSlice(length: length) else { throw .truncated }
        // AMF0 strings are UTF-8 (AMF0 spec §1.3). NIO's getString would silently swap bad bytes for
        // U+FFFD (found by fuzzing), so a corrupt name could pass as a different one: validate instead.
        guard let string = String(validating: bytes.readableBytesView, as: UTF8.self) else { throw .invalidUTF8 }
        return string
    }

    /// Key/value pairs up to the empty key + object-end marker (AMF0 spec §2.5).
    private func readProperties(_ buffer: inout ByteBuffer, depth: Int) throws(Error) -> [AMF0Value.Property] {
        var properties: [AMF0Value.Property] = []
        while true {
            guard let keyLength = buffer.readInteger(as: UInt16.self) else { throw .truncated }
            if keyLength == 0 {
                guard let next = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else { throw .truncated }
                if next == AMF0Marker.objectEnd.rawValue {
                    buffer.moveReaderIndex(forwardBy: 1)
                    return properties
                }
                // An empty key followed by a value is legal (rare); keep it as a property.
                properties.append(.init("", try readValue(&buffer, depth: depth + 1)))
                continue
            }
            let key = try readUTF8(&buffer, length: Int(keyLength))
            guard properties.count < limits.maxElements else {
                throw .tooManyElements(count: properties.count + 1, limit: limits.maxElements)
            }
            properties.append(.init(key, try readValue(&buffer, depth: depth + 1)))
        }
    }
}
