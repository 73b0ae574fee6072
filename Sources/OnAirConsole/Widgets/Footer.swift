/// The bottom line: the keys that do something now (from the key table and the current state), and
/// before them the latest short notice (why a key was refused). Keys that would do nothing are not shown.
///
/// `r` (start / retry, offered only when nothing is broadcasting), `?` (help) and `q` (quit) are pinned to
/// the right so they stay visible on an 80-column screen and beside a long notice; the other keys fill the
/// left in table order, as many as fit (the help overlay lists them all).
public struct Footer: Widget {
    public var bindings: [KeyBinding]
    public var notice: String?

    public init(bindings: [KeyBinding], notice: String? = nil) {
        self.bindings = bindings
        self.notice = notice
    }

    static let pinned: Set<ConsoleIntent> = [.startBroadcast, .toggleHelp, .quit]

    /// `key label`, the key being the binding's first (`space`, not `space/t`).
    static func item(_ binding: KeyBinding) -> (key: String, label: String) {
        (binding.keys.first?.description ?? "", binding.label)
    }

    static func width(_ binding: KeyBinding) -> Int {
        let (key, label) = item(binding)
        return DisplayWidth.of(key) + DisplayWidth.of(label) + 3
    }

    public func render(in area: Rect, into buffer: inout CellBuffer, theme: Theme) {
        guard !area.isEmpty else { return }
        let row = area.row(0)
        buffer.fill(row, style: theme[.footer])
        let right = bindings.filter { Self.pinned.contains($0.intent) }
        let left = bindings.filter { !Self.pinned.contains($0.intent) }
        let rightWidth = right.reduce(0) { $0 + Self.width($1) }
        var column = max(row.x, row.maxX - rightWidth)
        for binding in right { column = draw(binding, at: column, row: row, into: &buffer, theme: theme) }

        let leftEnd = max(row.x, row.maxX - rightWidth)
        column = row.x
        if let notice, !notice.isEmpty {
            let noticeWidth = min(DisplayWidth.of(notice) + 2, max(0, (leftEnd - row.x) * 2 / 3))
            buffer.write(" " + notice, in: Rect(x: column, y: row.y, width: noticeWidth, height: 1), style: theme[.footer].patched(with: theme[.notice]))
            column += noticeWidth
        }
        for binding in left {
            guard column + Self.width(binding) <= leftEnd else { break }
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
