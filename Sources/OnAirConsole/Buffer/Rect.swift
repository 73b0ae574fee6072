/// A rectangle of terminal cells: the area a widget may draw in.
///
/// Widgets never draw outside the `Rect` they are given, so every layout fits the screen by
/// construction: a parent splits its own area and hands out the pieces (ratatui's model).
public struct Rect: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    /// Negative sizes are clamped to zero so that arithmetic on small screens never yields a bogus area.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var isEmpty: Bool { width == 0 || height == 0 }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var area: Int { width * height }

    public var description: String { "Rect(x: \(x), y: \(y), \(width)×\(height))" }

    /// Whether the cell at (column, row) is inside.
    public func contains(x column: Int, y row: Int) -> Bool {
        column >= x && column < maxX && row >= y && row < maxY
    }

    /// The overlap of two rectangles (empty when they do not meet).
    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The area left after removing `horizontal` columns and `vertical` rows from each side.
    public func inset(horizontal: Int = 1, vertical: Int = 1) -> Rect {
        Rect(x: x + horizontal, y: y + vertical, width: width - 2 * horizontal, height: height - 2 * vertical)
    }

    /// A `width`×`height` area centred in this one, shrunk to fit.
    public func centered(width w: Int, height h: Int) -> Rect {
        let cw = min(w, width)
        let ch = min(h, height)
        return Rect(x: x + (width - cw) / 2, y: y + (height - ch) / 2, width: cw, height: ch)
    }

    /// The top `count` rows (clamped).
    public func top(_ count: Int) -> Rect { Rect(x: x, y: y, width: width, height: min(count, height)) }

    /// The bottom `count` rows (clamped).
    public func bottom(_ count: Int) -> Rect {
        let h = min(count, height)
        return Rect(x: x, y: maxY - h, width: width, height: h)
    }

    /// Everything below the top `count` rows.
    public func droppingTop(_ count: Int) -> Rect {
        let h = min(count, height)
        return Rect(x: x, y: y + h, width: width, height: height - h)
    }

    /// Everything above the bottom `count` rows.
    public func droppingBottom(_ count: Int) -> Rect {
        Rect(x: x, y: y, width: width, height: height - min(count, height))
    }

    /// One row of this area, or an empty rect when `index` is outside it.
    public func row(_ index: Int) -> Rect {
        guard index >= 0, index < height else { return Rect(x: x, y: y + height, width: width, height: 0) }
        return Rect(x: x, y: y + index, width: width, height: 1)
    }
}
