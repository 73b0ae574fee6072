/// How many terminal columns text takes, without asking the C library.
///
/// `wcwidth` depends on the process locale, and the pure console must lay out the same way in tests as on a
/// terminal. This covers what the console draws: ASCII, Latin, box drawing and block elements (one column),
/// combining marks (zero, they join the previous cell), and East Asian wide / emoji ranges (two columns).
public enum DisplayWidth {
    /// Columns taken by one character (a grapheme cluster): 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        // ASCII (most of every frame) without decoding a scalar: a quarter of a redraw went to that.
        if let lead = character.utf8.first, lead < 0x80 { return isASCIIControl(lead) ? 0 : 1 }
        guard let first = character.unicodeScalars.first else { return 0 }
        return of(first)
    }

    /// An ASCII byte that is a control character (C0 or DEL): no column of its own, shown as `?` when written.
    static func isASCIIControl(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F }

    /// Columns taken by one Unicode scalar: 0, 1 or 2.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x20 || (v >= 0x7F && v < 0xA0) { return 0 }
        if v < 0x300 { return 1 }
        if isZeroWidth(v) { return 0 }
        if isWide(v) { return 2 }
        return 1
    }

    /// Columns taken by a string.
    public static func of(_ text: some StringProtocol) -> Int {
        if let width = asciiWidth(text) { return width }
        return text.reduce(0) { $0 + of($1) }
    }

    /// The width of all-ASCII text from its bytes (every printable byte one column, a control none — a CR LF
    /// pair, one grapheme, none either), without making a `Character` of each: nil for any other text.
    static func asciiWidth(_ text: some StringProtocol) -> Int? {
        let width: Int?? = text.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            var printable = 0
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                if !isASCIIControl(byte) { printable += 1 }
            }
            return printable
        }
        return width ?? nil
    }

    private static func isZeroWidth(_ v: UInt32) -> Bool {
        (0x0300...0x036F).contains(v) || (0x200B...0x200F).contains(v) || (0x20D0...0x20FF).contains(v)
            || (0xFE00...0xFE0F).contains(v) || (0xFE20...0xFE2F).contains(v)
    }

    private static func isWide(_ v: UInt32) -> Bool {
        (0x1100...0x115F).contains(v) || (0x2E80...0x303E).contains(v) || (0x3041...0x33FF).contains(v)
            || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xA000...0xA4CF).contains(v)
            || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
            || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v)
            || (0x1F900...0x1F9FF).contains(v) || (0x20000...0x3FFFD).contains(v)
    }

    /// `text` cut to at most `width` columns; an ellipsis marks the cut when there is room for one.
    public static func truncate(_ text: String, to width: Int, ellipsis: Bool = true) -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        let limit = ellipsis ? width - 1 : width
        if let cut = asciiPrefix(text, columns: limit) { return ellipsis ? cut + "…" : cut }
        var result = ""
        var used = 0
        for character in text {
            let w = of(character)
            if used + w > limit { break }
            result.append(character)
            used += w
        }
        return ellipsis ? result + "…" : result
    }

    /// The longest prefix of all-ASCII `text` that takes at most `columns`, as `truncate`'s loop would keep it
    /// (controls take none, so they stay until the first printable byte that does not fit); nil for other text.
    static func asciiPrefix(_ text: String, columns: Int) -> String? {
        let cut: Int?? = text.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            var used = 0
            for (index, byte) in bytes.enumerated() where !isASCIIControl(byte) {
                if used + 1 > columns { return index }
                used += 1
            }
            return bytes.count
        }
        guard let count = cut ?? nil else { return nil }
        return String(decoding: text.utf8.prefix(count), as: UTF8.self)
    }

    /// `text` padded with spaces (or truncated) to exactly `width` columns.
    public static func pad(_ text: String, to width: Int) -> String {
        let cut = truncate(text, to: width)
        return cut + String(repeating: " ", count: max(0, width - of(cut)))
    }
}
