/// A boolean flag from the seeds (`pauseVideo`, `publisherIsInBackground`, …) shown by name:
/// `● name` when set, `○ name` when clear, so the state reads without colour too.
public struct FlagIndicator: Widget {
    public var name: String
    public var isOn: Bool

    public init(_ name: String, isOn: Bool) {
        self.name = name
        self.isOn = isOn
    }

    /// Columns the indicator takes.
    public var width: Int { DisplayWidth.of(name) + 2 }

    public func render(in area: Rect, into buffer: inout CellBuffer, theme: Theme) {
        guard !area.isEmpty else { return }
        buffer.write((isOn ? "● " : "○ ") + name, in: area.row(0), style: theme[isOn ? .flagOn : .flagOff])
    }
}
