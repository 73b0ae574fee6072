/// An audio level as a bar: `-23 dB ████████░░░░` from -60 dB (empty) to 0 dB (full), so an operator sees
/// that sound arrives (and silence while pauseAudio is on) without headphones.
public struct LevelMeter: Widget {
    public var decibels: Double?

    public init(decibels: Double?) {
        self.decibels = decibels
    }

    /// The quietest level the bar shows; anything below reads as empty.
    public static let floor = -60.0

    /// `-23 dB` (or `-- dB` before any audio, `-inf` below the floor).
    public var label: String {
        guard let decibels, decibels.isFinite else { return decibels == nil ? "-- dB" : "-inf dB" }
        if decibels < Self.floor { return "-inf dB" }
        return "\(Int(decibels.rounded())) dB"
    }

    /// Cells of `width` that are lit.
    public func litCells(width: Int) -> Int {
        guard let decibels, decibels.isFinite, width > 0 else { return 0 }
        let fraction = min(1, max(0, (decibels - Self.floor) / -Self.floor))
        return Int((fraction * Double(width)).rounded())
    }

    public func render(in area: Rect, into buffer: inout CellBuffer, theme: Theme) {
        guard !area.isEmpty else { return }
        let row = area.row(0)
        let text = DisplayWidth.pad(label, to: 8)
        var column = buffer.write(text, x: row.x, y: row.y, style: theme[.value], clip: row)
        let width = max(0, row.maxX - column)
        let lit = litCells(width: width)
        for index in 0..<width {
            column = buffer.write(index < lit ? "█" : "░", x: column, y: row.y, style: theme[index < lit ? .sparkline : .muted], clip: row)
        }
    }
}
