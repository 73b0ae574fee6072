/// `label  value` on one row, the label in a fixed column so a list of fields lines up.
public struct LabelledField: Widget {
    public var label: String
    public var value: String
    public var labelWidth: Int
    public var valueRole: ThemeRole

    public init(_ label: String, _ value: String, labelWidth: Int = 10, valueRole: ThemeRole = .value) {
        self.label = label
        self.value = value
        self.labelWidth = labelWidth
        self.valueRole = valueRole
    }

    public func render(in area: Rect, into buffer: inout CellBuffer, theme: Theme) {
        guard !area.isEmpty else { return }
        let parts = area.row(0).columns([.length(min(labelWidth, area.width / 2 + 1)), .fill])
        buffer.write(label, in: parts[0], style: theme[.label])
        buffer.write(value, in: parts[1], style: theme[valueRole])
    }
}
