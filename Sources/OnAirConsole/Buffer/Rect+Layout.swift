/// Splitting an area into rows or columns by `LayoutConstraint`s.
extension Rect {
    /// Splits the area into rows, top to bottom.
    public func rows(_ constraints: [LayoutConstraint]) -> [Rect] {
        Self.sizes(constraints, total: height).reduce(into: (rects: [Rect](), offset: y)) { result, size in
            result.rects.append(Rect(x: x, y: result.offset, width: width, height: size))
            result.offset += size
        }.rects
    }

    /// Splits the area into columns, left to right.
    public func columns(_ constraints: [LayoutConstraint]) -> [Rect] {
        Self.sizes(constraints, total: width).reduce(into: (rects: [Rect](), offset: x)) { result, size in
            result.rects.append(Rect(x: result.offset, y: y, width: size, height: height))
            result.offset += size
        }.rects
    }

    /// Sizes that never sum past `total`: fixed pieces first (in order, truncated when space runs out),
    /// then the flexible ones share the rest, the first ones taking the remainder.
    static func sizes(_ constraints: [LayoutConstraint], total: Int) -> [Int] {
        var remaining = max(0, total)
        var sizes = Array(repeating: 0, count: constraints.count)
        var flexible: [Int] = []
        for (index, constraint) in constraints.enumerated() {
            let wanted: Int
            switch constraint {
            case .length(let n): wanted = max(0, n)
            case .percentage(let p): wanted = max(0, total * min(max(p, 0), 100) / 100)
            case .min(let n):
                wanted = max(0, n)
                flexible.append(index)
            case .fill:
                wanted = 0
                flexible.append(index)
            }
            let granted = min(wanted, remaining)
            sizes[index] = granted
            remaining -= granted
        }
        guard !flexible.isEmpty, remaining > 0 else { return sizes }
        let share = remaining / flexible.count
        var extra = remaining % flexible.count
        for index in flexible {
            sizes[index] += share + (extra > 0 ? 1 : 0)
            extra -= 1
        }
        return sizes
    }
}
