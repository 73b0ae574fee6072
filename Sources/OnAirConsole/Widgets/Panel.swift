/// A bordered pane with a title. The focused pane gets a heavy border and a `▶` marker, so focus is
/// visible without colour (monochrome terminals, text snapshots).
public struct Panel: Widget {
    public var title: String
    public var isFocused: Bool

    public init(title: String, isFocused: Bool = false) {
        self.title = title
        self.isFocused = isFocused
    }

    /// The area inside the border.
    public static func inner(of area: Rect) -> Rect { area.inset(horizontal: 1, vertical: 1) }

    public func render(in area: Rect, into buffer: inout CellBuffer, theme: Theme) {
        guard area.width >= 2, area.height >= 2 else { return }
        let style = theme[isFocused ? .borderFocused : .border]
        let (h, v, tl, tr, bl, br): (Character, Character, Character, Character, Character, Character) =
            isFocused ? ("━", "┃", "┏", "┓", "┗", "┛") : ("─", "│", "┌", "┐", "└", "┘")
        buffer.fill(area.row(0), with: h, style: style)
        buffer.fill(area.row(area.height - 1), with: h, style: style)
        for row in area.y + 1..<area.maxY - 1 {
            buffer.put(v, x: area.x, y: row, style: style)
            buffer.put(v, x: area.maxX - 1, y: row, style: style)
        }
        buffer.put(tl, x: area.x, y: area.y, style: style)
        buffer.put(tr, x: area.maxX - 1, y: area.y, style: style)
        buffer.put(bl, x: area.x, y: area.maxY - 1, style: style)
        buffer.put(br, x: area.maxX - 1, y: area.maxY - 1, style: style)
        let titleArea = Rect(x: area.x + 2, y: area.y, width: area.width - 4, height: 1)
        guard !titleArea.isEmpty else { return }
        var column = titleArea.x
        if isFocused {
            column = buffer.write("▶ ", x: column, y: area.y, style: theme[.focusMarker], clip: titleArea)
        } else {
            column = buffer.write(" ", x: column, y: area.y, style: theme[.title], clip: titleArea)
        }
        let rest = Rect(x: column, y: area.y, width: titleArea.maxX - column, height: 1)
        buffer.write(title + " ", in: rest, style: theme[.title])
    }
}
