/// The bottom line: the keys that do something now (from the key table and the current state), and
/// before them the latest short notice (why a key was refused). Keys that would do nothing are not shown.
public struct Footer: Widget {
    public var bindings: [KeyBinding]
    public var notice: String?

    public init(bindings: [KeyBinding], notice: String? = nil) {
        self.bindings = bindings
        self.notice = notice
    }

    public func render(in area: Rect, into buffer: inout CellBuffer, theme: Theme) {
        guard !area.isEmpty else { return }
        let row = area.row(0)
        buffer.fill(row, style: theme[.footer])
        var column = row.x
        if let notice, !notice.isEmpty {
            let noticeWidth = min(DisplayWidth.of(notice) + 2, max(0, row.width / 2))
            buffer.write(" " + notice, in: Rect(x: column, y: row.y, width: noticeWidth, height: 1), style: theme[.footer].patched(with: theme[.notice]))
            column += noticeWidth
        }
        for binding in bindings {
            let needed = DisplayWidth.of(binding.keyText) + DisplayWidth.of(binding.label) + 3
            guard column + needed <= row.maxX else { break }
            column = buffer.write(" ", x: column, y: row.y, style: theme[.footer], clip: row)
            column = buffer.write(binding.keyText, x: column, y: row.y, style: theme[.footerKey], clip: row)
            column = buffer.write(" " + binding.label + " ", x: column, y: row.y, style: theme[.footer], clip: row)
        }
    }
}
