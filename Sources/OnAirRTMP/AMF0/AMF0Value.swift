/// One AMF0 value (AMF0 spec §2), as a typed tree rather than `Any`.
///
/// RTMP commands and data messages (RTMP spec §7.1.1, §7.1.2) are sequences of these. Objects and ECMA
/// arrays keep their properties in wire order, because peers (and byte-exact tests) care about order.
/// Strings of more than 65 535 UTF-8 bytes are written as AMF0 long strings (§2.14) and both string
/// markers decode to ``string(_:)``.
public indirect enum AMF0Value: Sendable, Equatable, Hashable {
    /// One key/value pair of an object or ECMA array (AMF0 spec §2.5, §2.10).
    public struct Property: Sendable, Equatable, Hashable {
        public var key: String
        public var value: AMF0Value

        public init(_ key: String, _ value: AMF0Value) {
            self.key = key
            self.value = value
        }
    }

    /// IEEE-754 double (§2.2).
    case number(Double)
    /// §2.3.
    case boolean(Bool)
    /// UTF-8 string, short (§2.4) or long (§2.14) on the wire.
    case string(String)
    /// Anonymous object (§2.5).
    case object([Property])
    /// §2.7.
    case null
    /// §2.8.
    case undefined
    /// Associative array with a count hint (§2.10); written with the number of properties as the count.
    case ecmaArray([Property])
    /// Ordinal array (§2.12).
    case strictArray([AMF0Value])
    /// Milliseconds since the Unix epoch and a time-zone field that the spec says to write as 0 (§2.13).
    case date(millisecondsSinceEpoch: Double, timeZone: Int16)

    /// Convenience for building objects from literal pairs, keeping their order.
    public static func object(_ pairs: KeyValuePairs<String, AMF0Value>) -> AMF0Value {
        .object(pairs.map { Property($0.key, $0.value) })
    }

    /// Convenience for building ECMA arrays from literal pairs, keeping their order.
    public static func ecmaArray(_ pairs: KeyValuePairs<String, AMF0Value>) -> AMF0Value {
        .ecmaArray(pairs.map { Property($0.key, $0.value) })
    }

    /// The value of `key` when this is an object or ECMA array.
    public subscript(key: String) -> AMF0Value? {
        switch self {
        case .object(let properties), .ecmaArray(let properties):
            return properties.first { $0.key == key }?.value
        default:
            return nil
        }
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, when this is one.
    public var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The properties of an object or ECMA array.
    public var properties: [Property]? {
        switch self {
        case .object(let properties), .ecmaArray(let properties): properties
        default: nil
        }
    }
}
