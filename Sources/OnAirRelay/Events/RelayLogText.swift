import OnAirCore

/// Untrusted text from the wire (stream names, error reasons quoting them) made safe for the relay's events
/// and log (GitHub issue 14 item 5): a query string is cut off, since it may carry a key
/// (`name?key=…`), control characters and everything outside printable ASCII are escaped as `\u{…}`, so
/// terminal escapes (an OSC title, a screen clear) never reach the operator's terminal, and the result is
/// bounded (``maxLength`` characters for a name, ``maxReasonLength`` for a reason).
public enum RelayLogText {
    /// Longest text kept (the longest valid stream name), before escaping.
    public static let maxLength = RelayStreamName.maxLength
    /// Longest reason kept.
    public static let maxReasonLength = 512

    /// `raw` without its query, escaped and bounded.
    public static func safe(_ raw: String) -> String {
        let withoutQuery = raw.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return escaped(String(withoutQuery), limit: maxLength)
    }

    /// `raw` escaped and bounded, query kept (for text that is not a name: a reason, a path).
    public static func escaped(_ raw: String, limit: Int = maxReasonLength) -> String {
        var out = ""
        var count = 0
        for scalar in raw.unicodeScalars {
            guard count < limit else {
                out += "…"
                break
            }
            count += 1
            if scalar.value >= 0x20 && scalar.value < 0x7F && scalar != "\\" {
                out.unicodeScalars.append(scalar)
            } else if scalar == "\\" {
                out += "\\\\"
            } else {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            }
        }
        return out
    }

    /// `line` with every control character (C0, DEL, C1) escaped, printable text kept as it is: what the
    /// text-mode log writes to a terminal, so nothing from the wire can drive it (the core's one rule).
    public static func terminalSafe(_ line: String) -> String {
        ControlText.escaped(line)
    }
}
