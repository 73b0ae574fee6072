/// Flags side by side on one row: two spaces apart when they fit, one when that is what makes them fit,
/// truncated only when even that is too wide.
public struct FlagRow: Widget {
    public var flags: [FlagIndicator]

    public init(_ flags: [FlagIndicator]) {
        self.flags = flags
    }

    public func render(in area: Rect, into buffer: inout CellBuffer, theme: Theme) {
        guard !area.isEmpty, !flags.isEmpty else { return }
        let total = flags.reduce(0) { $0 + $1.width }
        let gap = total + 2 * (flags.count - 1) <= area.width ? 2 : 1
        var column = area.x
        for flag in flags where column < area.maxX {
            flag.render(in: Rect(x: column, y: area.y, width: area.maxX - column, height: 1), into: &buffer, theme: theme)
            column += flag.width + gap
        }
    }
}
