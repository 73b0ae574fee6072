/// One value of a stream's metadata (`onMetaData`, FLV spec E.5) as the app reads it: plain data, so the
/// wire's encoding (AMF0, with its dates, ECMA arrays and undefined) stays inside the network targets.
public enum MetadataValue: Sendable, Equatable {
    case number(Double)
    case bool(Bool)
    case string(String)
    case object([String: MetadataValue])
    case array([MetadataValue])
    case null

    public var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}
