/// Text broken at spaces into lines of at most `width` columns, so a reason or countdown is shown whole
/// (on more rows) instead of cut with an ellipsis. A word longer than the width is split.
public struct WrappedText: Widget {
    public var text: String
    public var role: ThemeRole

    public init(_ text: String, role: ThemeRole) {
        self.text = text
        self.role = role
    }

    /// The lines `text` takes at `width` columns.
    public static func lines(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            var word = word
            while DisplayWidth.of(word) > width {
                if !line.isEmpty { lines.append(line); line = "" }
                let head = DisplayWidth.truncate(word, to: width, ellipsis: false)
                lines.append(head)
                word = String(word.dropFirst(max(1, head.count)))
            }
            let candidate = line.isEmpty ? word : line + " " + word
            if DisplayWidth.of(candidate) <= width {
                line = candidate
            } else {
                lines.append(line)
                line = word
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    public func render(in area: Rect, into buffer: inout CellBuffer, theme: Theme) {
        for (index, line) in Self.lines(text, width: area.width).prefix(area.height).enumerated() {
            buffer.write(line, x: area.x, y: area.y + index, style: theme[role], clip: area)
        }
    }
}
