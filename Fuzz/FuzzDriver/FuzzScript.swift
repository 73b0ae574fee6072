/// A fuzz input read front to back as a script: a target reads a step's byte, then what the step needs.
/// Reads past the end return nothing (0 or an empty array), so every input is a valid script.
public struct FuzzScript {
    public let bytes: [UInt8]
    public private(set) var position = 0

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        self.init(bytes: Array(UnsafeBufferPointer(start: size > 0 ? data : nil, count: size)))
    }

    public mutating func byte() -> UInt8? {
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    /// Two bytes, big-endian; 0 past the end.
    public mutating func number16() -> Int { Int(byte() ?? 0) << 8 | Int(byte() ?? 0) }

    /// Up to `count` bytes (fewer at the end).
    public mutating func take(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, position + max(0, count))
        defer { position = end }
        return Array(bytes[position..<end])
    }
}
