/// One network interruption the operator asks for, in the words keys, stdin and scenarios share:
/// `link-down`, `link-up`, `handoff [RATE [MS]]`, `link-cap RATE`, `link-uncap`, `link-delay MS`.
public enum LinkCommand: Sendable, Hashable {
    case down
    case up
    /// Wi-Fi → cellular: connections on the old path are reset; the new path gets this cap and delay
    /// (nil keeps the current one).
    case handoff(capBitsPerSecond: Int?, delay: Duration?)
    case cap(bitsPerSecond: Int)
    case uncap
    case delay(Duration)

    /// The slowest cap accepted: below this an RTMP handshake alone takes seconds.
    public static let minimumCap = 8_000
    /// 10 Gbit/s: a cap above any uplink a phone has is a typo.
    public static let maximumCap = 10_000_000_000
    /// One minute: longer than any real radio path, and a bound on what the stage buffers.
    public static let maximumDelay = Duration.seconds(60)

    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case unknownCommand(String)
        case missingArgument(String)
        case badRate(String)
        case badDelay(String)
        case extraArguments(String)

        public var description: String {
            switch self {
            case let .unknownCommand(word):
                "unknown link command '\(word)'; use link-down, link-up, handoff [RATE [MS]], link-cap RATE, link-uncap or link-delay MS"
            case let .missingArgument(command): "\(command) needs a value, for example '\(command) \(command == "link-cap" ? "800k" : "150")'"
            case let .badRate(text): "'\(text)' is not a rate between 8k and 10G bit/s; write it like 800k, 2.5M or 300000"
            case let .badDelay(text): "'\(text)' is not a delay between 0 and 60000 ms; write whole milliseconds like 150"
            case let .extraArguments(command): "too many values after \(command)"
            }
        }
    }

    /// Reads one command line such as `link-cap 800k`; nil if the first word is not a link command, so a
    /// caller that knows other words can try them.
    public static func parse(_ line: String) throws(ParseError) -> LinkCommand? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let name = words.first, words.count <= 3 else {
            if let name = words.first, isCommandWord(name) { throw .extraArguments(name) }
            return nil
        }
        let arguments = Array(words.dropFirst())
        func only(_ count: Int) throws(ParseError) {
            if arguments.count > count { throw .extraArguments(name) }
            if arguments.count < count { throw .missingArgument(name) }
        }
        switch name {
        case "link-down":
            try only(0)
            return .down
        case "link-up":
            try only(0)
            return .up
        case "link-uncap":
            try only(0)
            return .uncap
        case "link-cap":
            try only(1)
            return .cap(bitsPerSecond: try rate(arguments[0]))
        case "link-delay":
            try only(1)
            return .delay(try delay(arguments[0]))
        case "handoff":
            let cap = try arguments.first.map { (text) throws(ParseError) in try rate(text) }
            let delay = try arguments.dropFirst().first.map { (text) throws(ParseError) in try Self.delay(text) }
            return .handoff(capBitsPerSecond: cap, delay: delay)
        default:
            return nil
        }
    }

    private static func isCommandWord(_ word: String) -> Bool {
        ["link-down", "link-up", "link-uncap", "link-cap", "link-delay", "handoff"].contains(word)
    }

    /// `800k`, `2.5M`, `1G` or plain bit/s, within `minimumCap...maximumCap`.
    public static func rate(_ text: String) throws(ParseError) -> Int {
        let lowered = text.lowercased()
        let multiplier: Double
        var digits = Substring(lowered)
        switch lowered.last {
        case "k": multiplier = 1e3
        case "m": multiplier = 1e6
        case "g": multiplier = 1e9
        default: multiplier = 1
        }
        if multiplier != 1 { digits = digits.dropLast() }
        guard digits.count <= 12, let value = Double(digits), value.isFinite, value > 0 else { throw .badRate(text) }
        let bits = value * multiplier
        guard bits >= Double(minimumCap), bits <= Double(maximumCap) else { throw .badRate(text) }
        return Int(bits)
    }

    /// Whole milliseconds (an optional `ms` suffix), within 0...60000.
    public static func delay(_ text: String) throws(ParseError) -> Duration {
        let digits = text.hasSuffix("ms") ? String(text.dropLast(2)) : text
        guard digits.count <= 6, let milliseconds = Int64(digits), milliseconds >= 0,
            Duration.milliseconds(milliseconds) <= maximumDelay
        else { throw .badDelay(text) }
        return .milliseconds(milliseconds)
    }

    /// `800k`, `2.5M`: the rate as an operator writes it.
    public static func rateText(_ bitsPerSecond: Int) -> String {
        if bitsPerSecond >= 1_000_000, bitsPerSecond % 100_000 == 0 {
            let tenths = bitsPerSecond / 100_000
            return tenths % 10 == 0 ? "\(tenths / 10)M" : "\(tenths / 10).\(tenths % 10)M"
        }
        if bitsPerSecond >= 1000, bitsPerSecond % 1000 == 0 { return "\(bitsPerSecond / 1000)k" }
        return "\(bitsPerSecond)"
    }
}
