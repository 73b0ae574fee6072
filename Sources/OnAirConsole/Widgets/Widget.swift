/// Something that draws itself into part of a cell buffer (ratatui's `Widget`).
///
/// A widget draws only inside `area` and asks the theme for roles, never for colours, so the same
/// widget works at any size and in any theme, and its tests read the buffer as text.
public protocol Widget {
    func render(in area: Rect, into buffer: inout CellBuffer, theme: Theme)
}
