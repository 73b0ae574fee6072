import OnAirRTMP

extension AMF0Value {
    /// The value as JSON for headless events. NUL padding (nginx-rtmp sends fixed-size `profile`/`level`
    /// strings full of zero bytes) is trimmed so the output stays readable text.
    var json: JSONValue {
        switch self {
        case .number(let value):
            if value.rounded() == value, abs(value) < 9e15 { return .integer(Int64(value)) }
            return .number(value)
        case .boolean(let value): return .bool(value)
        case .string(let value): return .string(String(value.unicodeScalars.filter { $0 != "\0" }.map(Character.init)))
        case .object(let properties), .ecmaArray(let properties):
            return .object(Dictionary(properties.map { ($0.key, $0.value.json) }, uniquingKeysWith: { _, last in last }))
        case .strictArray(let values): return .array(values.map(\.json))
        case .date(let milliseconds, _): return .number(milliseconds)
        case .null, .undefined: return .null
        }
    }
}
