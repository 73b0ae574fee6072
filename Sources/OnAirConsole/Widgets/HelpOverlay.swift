/// The `?` overlay: every key of the table with what it does; keys that would do nothing right now are
/// dimmed and marked `✗` (visible without colour), so the operator learns both the keys and why one is refused.
public struct HelpOverlay: Widget {
    public var bindings: [KeyBinding]
    public var available: Set<ConsoleIntent>

    public init(bindings: [KeyBinding], available: Set<ConsoleIntent>) {
        self.bindings = bindings
        self.available = available
    }

    public func render(in area: Rect, into buffer: inout CellBuffer, theme: Theme) {
        let keyWidth = (bindings.map { DisplayWidth.of($0.keyText) }.max() ?? 1) + 3
        let helpWidth = bindings.map { DisplayWidth.of($0.help) }.max() ?? 10
        let box = area.centered(width: keyWidth + helpWidth + 8, height: bindings.count + 4)
        guard box.width >= 12, box.height >= 3 else { return }
        buffer.fill(box, style: theme[.help])
        Panel(title: "Keys (✗ = not now) — any key closes").render(in: box, into: &buffer, theme: theme)
        buffer.restyle(box) { $0.patched(with: Style(background: theme[.help].background)) }
        let inner = box.inset(horizontal: 2, vertical: 1)
        for (index, binding) in bindings.prefix(max(0, inner.height - 1)).enumerated() {
            let row = inner.row(index + 1)
            let isAvailable = available.contains(binding.intent)
            let parts = row.columns([.length(keyWidth), .fill])
            buffer.write(binding.keyText + (isAvailable ? "" : " ✗"), in: parts[0], style: theme[isAvailable ? .helpKey : .helpUnavailable])
            buffer.write(binding.help, in: parts[1], style: theme[isAvailable ? .help : .helpUnavailable])
        }
    }
}
