/// A one-question box centred on the screen ("Stop broadcasting and quit? y/n").
public struct ConfirmDialog: Widget {
    public var question: String

    public init(_ question: String) {
        self.question = question
    }

    public func render(in area: Rect, into buffer: inout CellBuffer, theme: Theme) {
        let box = area.centered(width: DisplayWidth.of(question) + 6, height: 3)
        guard box.width >= 5, box.height >= 1 else { return }
        let style = theme[.dialog]
        buffer.fill(box, style: style)
        if box.height >= 3 {
            let edge = String(repeating: "═", count: max(0, box.width - 2))
            buffer.write("╔" + edge + "╗", x: box.x, y: box.y, style: style, clip: box)
            buffer.write("╚" + edge + "╝", x: box.x, y: box.maxY - 1, style: style, clip: box)
            buffer.put("║", x: box.x, y: box.y + 1, style: style, clip: box)
            buffer.put("║", x: box.maxX - 1, y: box.y + 1, style: style, clip: box)
        }
        let line = box.height >= 3 ? box.inset(horizontal: 3, vertical: 1) : box.inset(horizontal: 1, vertical: 0)
        buffer.write(question, in: line.row(0), style: style)
    }
}
