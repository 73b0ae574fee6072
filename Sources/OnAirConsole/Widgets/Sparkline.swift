/// A one-row chart of recent samples with the eighth-block characters ▁▂▃▄▅▆▇█, newest on the right.
/// A zero sample is a blank, so a stall (paused video, an interruption) shows as a gap.
public struct Sparkline: Widget {
    public static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    public var samples: [Int]
    /// The value drawn as a full block; the largest sample when nil.
    public var maximum: Int?

    public init(samples: [Int], maximum: Int? = nil) {
        self.samples = samples
        self.maximum = maximum
    }

    /// The characters for the newest `width` samples.
    public func characters(width: Int) -> [Character] {
        let shown = samples.suffix(max(0, width))
        let top = max(1, maximum ?? shown.max() ?? 1)
        return shown.map { sample in
            guard sample > 0 else { return " " }
            let level = min(Self.levels.count - 1, (min(sample, top) * Self.levels.count - 1) / top)
            return Self.levels[max(0, level)]
        }
    }

    public func render(in area: Rect, into buffer: inout CellBuffer, theme: Theme) {
        guard !area.isEmpty else { return }
        let chars = characters(width: area.width)
        var column = area.maxX - chars.count
        for character in chars {
            buffer.put(character, x: column, y: area.y, style: theme[.sparkline], clip: area)
            column += 1
        }
    }
}
