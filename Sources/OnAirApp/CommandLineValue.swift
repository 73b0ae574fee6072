/// Parses the human forms of command-line values (`1280x720`, `2500k`, `2.5M`) with one-line errors.
public enum CommandLineValue {
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// `WIDTHxHEIGHT`, both even (4:2:0 chroma needs even sizes) and from 16 to 7680×4320.
    public static func size(_ text: String) throws(Invalid) -> (width: Int, height: Int) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else {
            throw Invalid(description: "--size: expected WIDTHxHEIGHT such as 1280x720, got '\(text)'")
        }
        guard (16...7680).contains(width), (16...4320).contains(height) else {
            throw Invalid(description: "--size: \(width)x\(height) is outside 16x16 to 7680x4320")
        }
        guard width % 2 == 0, height % 2 == 0 else {
            throw Invalid(description: "--size: \(width)x\(height) must have an even width and height (4:2:0 video)")
        }
        return (width, height)
    }

    /// Bits per second from `2500000`, `2500k`, `2.5M` (k = 1000); between 8 kbit/s and 100 Mbit/s.
    public static func bitrate(_ text: String, option: String) throws(Invalid) -> Int {
        let trimmed = text.lowercased()
        var multiplier = 1.0
        var number = Substring(trimmed)
        if trimmed.hasSuffix("k") {
            multiplier = 1_000
            number = trimmed.dropLast()
        } else if trimmed.hasSuffix("m") {
            multiplier = 1_000_000
            number = trimmed.dropLast()
        }
        guard let value = Double(number), value.isFinite, value > 0 else {
            throw Invalid(description: "\(option): expected a bitrate such as 2500k or 2.5M, got '\(text)'")
        }
        let bits = Int(value * multiplier)
        guard (8_000...100_000_000).contains(bits) else {
            throw Invalid(description: "\(option): \(text) is outside 8k to 100M")
        }
        return bits
    }

    /// Frames per second, from 1 to 120.
    public static func framesPerSecond(_ value: Double) throws(Invalid) -> Double {
        guard value.isFinite, (1...120).contains(value) else {
            throw Invalid(description: "--fps: \(value) is outside 1 to 120")
        }
        return value
    }

    /// A positive number of seconds as a `Duration`.
    public static func seconds(_ value: Double, option: String) throws(Invalid) -> Duration {
        guard value.isFinite, value > 0, value < 86_400 * 365 else {
            throw Invalid(description: "\(option): expected a positive number of seconds, got \(value)")
        }
        return .milliseconds(Int64(value * 1000))
    }
}
