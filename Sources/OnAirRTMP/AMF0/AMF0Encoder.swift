import NIOCore

/// Writes ``AMF0Value``s in AMF0 wire form (AMF0 spec §2) straight into a `ByteBuffer`.
///
/// Encoding cannot fail: every ``AMF0Value`` has a wire form. Counts and lengths that would overflow
/// their fields are the caller's bug and are clamped by construction (strings over 4 GiB cannot be
/// built in practice).
public enum AMF0Encoder {
    /// Largest UTF-8 length of a short string (§2.4: a U16 length).
    static let shortStringLimit = Int(UInt16.max)

    /// Appends `value` to `buffer`.
    public static func encode(_ value: AMF0Value, into buffer: inout ByteBuffer) {
        switch value {
        case .number(let number):
            buffer.writeInteger(AMF0Marker.number.rawValue)
            buffer.writeInteger(number.bitPattern)
        case .boolean(let flag):
            buffer.writeInteger(AMF0Marker.boolean.rawValue)
            buffer.writeInteger(UInt8(flag ? 1 : 0))
        case .string(let string):
            let length = string.utf8.count
            if length > shortStringLimit {
                buffer.writeInteger(AMF0Marker.longString.rawValue)
                buffer.writeInteger(UInt32(truncatingIfNeeded: length))
                buffer.writeString(string)
            } else {
                buffer.writeInteger(AMF0Marker.string.rawValue)
                writeKey(string, into: &buffer)
            }
        case .object(let properties):
            buffer.writeInteger(AMF0Marker.object.rawValue)
            writeProperties(properties, into: &buffer)
        case .null:
            buffer.writeInteger(AMF0Marker.null.rawValue)
        case .undefined:
            buffer.writeInteger(AMF0Marker.undefined.rawValue)
        case .ecmaArray(let properties):
            buffer.writeInteger(AMF0Marker.ecmaArray.rawValue)
            buffer.writeInteger(UInt32(truncatingIfNeeded: properties.count))
            writeProperties(properties, into: &buffer)
        case .strictArray(let elements):
            buffer.writeInteger(AMF0Marker.strictArray.rawValue)
            buffer.writeInteger(UInt32(truncatingIfNeeded: elements.count))
            for element in elements { encode(element, into: &buffer) }
        case .date(let milliseconds, let timeZone):
            buffer.writeInteger(AMF0Marker.date.rawValue)
            buffer.writeInteger(milliseconds.bitPattern)
            buffer.writeInteger(timeZone)
        }
    }

    /// Appends each value in order (a command or data message body, RTMP spec §7.1).
    public static func encode(_ values: [AMF0Value], into buffer: inout ByteBuffer) {
        for value in values { encode(value, into: &buffer) }
    }

    /// The values as a fresh buffer.
    public static func encode(_ values: [AMF0Value]) -> ByteBuffer {
        var buffer = ByteBuffer()
        encode(values, into: &buffer)
        return buffer
    }

    /// A property name or short string body: U16 length then UTF-8 (§2.4, §2.5 "UTF-8" type).
    static func writeKey(_ key: String, into buffer: inout ByteBuffer) {
        let length = key.utf8.count
        buffer.writeInteger(UInt16(truncatingIfNeeded: min(length, shortStringLimit)))
        if length > shortStringLimit {
            buffer.writeBytes(key.utf8.prefix(shortStringLimit))
        } else {
            buffer.writeString(key)
        }
    }

    /// Properties followed by the empty key and object-end marker (§2.5).
    static func writeProperties(_ properties: [AMF0Value.Property], into buffer: inout ByteBuffer) {
        for property in properties {
            writeKey(property.key, into: &buffer)
            encode(property.value, into: &buffer)
        }
        buffer.writeInteger(UInt16(0))
        buffer.writeInteger(AMF0Marker.objectEnd.rawValue)
    }
}
