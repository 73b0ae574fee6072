/// The bottom line: the keys that do something now (from the key table and the current state), and
/// before them the latest short notice (why a key was refused). Keys that would do nothing are not shown.
///
/// `Tab` (pane), `r` (start / retry / reconnect), `?` (help) and `q` (quit)
/// are pinned to the right so they stay visible on an 80-column screen and beside a long notice; the other
/// keys fill the left in table order. When they do not all fit on one row, the footer takes a second
/// (`rows(for:width:)`), so every key that does something now is on screen; only below that are the last
/// keys left to the help overlay.
public struct Footer: Widget {
    public var bindings: [KeyBinding]
    public var notice: String?

    public init(bindings: [KeyBinding], notice: String? = nil) {
        self.bindings = bindings
        self.notice = notice
    }

    /// Kept on the right whatever the width: start/retry, help, quit, and Tab (without it an operator at 80
    /// columns cannot find how to reach the other pane).
    static let pinned: Set<ConsoleIntent> = [.startBroadcast, .switchPane, .toggleHelp, .quit]

    /// The most rows the footer takes, however narrow the screen.
    public static let maximumRows = 2

    /// `key label`, the key being the binding's first (`space`, not `space/t`).
    static func item(_ binding: KeyBinding) -> (key: String, label: String) {
        (binding.keys.first?.description ?? "", binding.label)
    }

    static func width(_ binding: KeyBinding) -> Int {
        let (key, label) = item(binding)
        return DisplayWidth.of(key) + DisplayWidth.of(label) + 3
    }

    /// Rows needed to show every binding at `width` (1 or 2).
    public static func rows(for bindings: [KeyBinding], width: Int, notice: String? = nil) -> Int {
        let pinnedWidth = bindings.filter { pinned.contains($0.intent) }.reduce(0) { $0 + Self.width($1) }
        let noticeWidth = notice.map { DisplayWidth.of($0) + 2 } ?? 0
        let leftWidth = bindings.filter { !pinned.contains($0.intent) }.reduce(0) { $0 + Self.width($1) }
        return noticeWidth + leftWidth + pinnedWidth <= width ? 1 : maximumRows
    }

    public func render(in area: Rect, into buffer: inout CellBuffer, theme: Theme) {
        guard !area.isEmpty else { return }
        buffer.fill(area, style: theme[.footer])
        let last = area.row(area.height - 1)
        let right = bindings.filter { Self.pinned.contains($0.intent) }
        let left = bindings.filter { !Self.pinned.contains($0.intent) }
        let rightWidth = right.reduce(0) { $0 + Self.width($1) }
        var column = max(last.x, last.maxX - rightWidth)
        for binding in right { column = draw(binding, at: column, row: last, into: &buffer, theme: theme) }

        // The left keys flow over the rows: full rows first, the last row up to the pinned keys.
        var rowIndex = 0
        var row = area.row(0)
        var rowEnd = area.height == 1 ? max(row.x, row.maxX - rightWidth) : row.maxX
        column = row.x
        if let notice, !notice.isEmpty {
            let noticeWidth = min(DisplayWidth.of(notice) + 2, max(0, (rowEnd - row.x) * 2 / 3))
            buffer.write(" " + notice, in: Rect(x: column, y: row.y, width: noticeWidth, height: 1), style: theme[.footer].patched(with: theme[.notice]))
            column += noticeWidth
        }
        for binding in left {
            if column + Self.width(binding) > rowEnd {
                guard rowIndex + 1 < area.height else { break }
                rowIndex += 1
                row = area.row(rowIndex)
                rowEnd = rowIndex == area.height - 1 ? max(row.x, row.maxX - rightWidth) : row.maxX
                column = row.x
                guard column + Self.width(binding) <= rowEnd else { break }
            }
            column = draw(binding, at: column, row: row, into: &buffer, theme: theme)
        }
    }

    private func draw(_ binding: KeyBinding, at start: Int, row: Rect, into buffer: inout CellBuffer, theme: Theme) -> Int {
        let (key, label) = Self.item(binding)
        var column = buffer.write(" ", x: start, y: row.y, style: theme[.footer], clip: row)
        column = buffer.write(key, x: column, y: row.y, style: theme[.footerKey], clip: row)
        return buffer.write(" " + label + " ", x: column, y: row.y, style: theme[.footer], clip: row)
    }
}
