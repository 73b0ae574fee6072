import OnAirCore
import OnAirRTMP

extension AMF0Value {
    /// The value as the app sees metadata: objects and ECMA arrays become objects (a repeated key keeps its
    /// last value, as Flash did), a date its milliseconds, `undefined` null. Depth is already bounded by
    /// ``AMF0Decoder``.
    var metadataValue: MetadataValue {
        switch self {
        case .number(let value): .number(value)
        case .boolean(let value): .bool(value)
        case .string(let value): .string(value)
        case .object(let properties), .ecmaArray(let properties): .object(Self.fields(properties))
        case .strictArray(let values): .array(values.map(\.metadataValue))
        case .date(let milliseconds, _): .number(milliseconds)
        case .null, .undefined: .null
        }
    }

    /// The fields of an object or ECMA array; empty for anything else.
    var metadataFields: [String: MetadataValue] {
        if case .object(let fields) = metadataValue { return fields }
        return [:]
    }

    private static func fields(_ properties: [Property]) -> [String: MetadataValue] {
        Dictionary(properties.map { ($0.key, $0.value.metadataValue) }, uniquingKeysWith: { _, last in last })
    }
}
