/// Splits standard input into bounded lines (issue 29 item 5): a value that takes bytes as they are read
/// and returns whole lines, never holding more than ``maxLineBytes`` of one line.
///
/// A 10 MB line used to be read whole, parsed, and echoed back whole in the error, and every later command
/// (quit included) waited 12 s behind it; 200 MB without a newline added 250 MB. Now a line past the
/// bound is skipped as it streams in — only its first bytes are kept, to name it — and reported once its
/// newline (or the end of input) arrives.
public struct StdinLineSplitter: Sendable {
    /// The longest command line taken: the longest real command is under 100 bytes.
    public static let maxLineBytes = 4096
    /// How much of a skipped line its report shows.
    public static let shownPrefixBytes = 40

    public enum Line: Sendable, Equatable {
        case text(String)
        /// A line over ``maxLineBytes``: its length in bytes and its first ``shownPrefixBytes`` bytes.
        case tooLong(bytes: Int, prefix: String)
    }

    private var current: [UInt8] = []
    /// Bytes of the current line beyond what is kept, when it is over the bound.
    private var skipped = 0

    public init() {}

    /// The lines completed by `bytes`.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Line] {
        var lines: [Line] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                lines.append(takeLine())
            } else if current.count < Self.maxLineBytes {
                current.append(byte)
            } else {
                skipped += 1
            }
        }
        return lines
    }

    /// The last line at the end of input, if it had no newline.
    public mutating func finish() -> Line? {
        current.isEmpty && skipped == 0 ? nil : takeLine()
    }

    private mutating func takeLine() -> Line {
        defer {
            current.removeAll(keepingCapacity: true)
            skipped = 0
        }
        if skipped > 0 {
            return .tooLong(bytes: current.count + skipped, prefix: String(decoding: current.prefix(Self.shownPrefixBytes), as: UTF8.self))
        }
        var line = current
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return .text(String(decoding: line, as: UTF8.self))
    }
}
