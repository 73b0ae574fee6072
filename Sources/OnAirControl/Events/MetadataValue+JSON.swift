import OnAirCore

extension MetadataValue {
    /// The value as JSON for headless events. NUL padding (nginx-rtmp sends fixed-size `profile`/`level`
    /// strings full of zero bytes) is trimmed so the output stays readable text.
    public var json: JSONValue {
        switch self {
        case .number(let value):
            // JSON has no NaN or infinity, and JSONEncoder throws on them: the whole event would be lost.
            guard value.isFinite else { return .null }
            if value.rounded() == value, abs(value) < 9e15 { return .integer(Int64(value)) }
            return .number(value)
        case .bool(let value): return .bool(value)
        case .string(let value): return .string(String(value.unicodeScalars.filter { $0 != "\0" }.map(Character.init)))
        case .object(let fields): return .object(fields.mapValues(\.json))
        case .array(let values): return .array(values.map(\.json))
        case .null: return .null
        }
    }
}
