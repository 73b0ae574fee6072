/// Text from outside (a publisher's metadata, a scenario file, a stdin line) made safe to print: every
/// control character — C0, DEL and C1 (U+0080–U+009F, U+009B the 8-bit CSI among them) — written as
/// `\u{…}`, so nothing a peer or a file says can drive the terminal that shows a log (issue 29 item 6).
public enum ControlText {
    /// `text` with its control characters escaped; returned as it is when it has none.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
