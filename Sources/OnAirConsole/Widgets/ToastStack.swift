import OnAirCore

/// The toasts visible now, stacked oldest on top (the seeds' `ALToastView`), centred in their area or
/// hung from its top.
///
/// Each toast is a small box when there is room, a single highlighted line when the area is short; at
/// most `maxShown` at once, and when even those do not fit, the newest toasts win. Expiry is by time:
/// the caller passes `now`.
public struct ToastStack: Widget {
    public var toasts: [Toast]
    /// Hang the stack from the top of the area (over the oldest log lines) instead of centring it, and
    /// blank the rows it covers across the area's width: no cut log line beside a toast.
    public var anchoredTop = false

    /// A burst (`p` during a call, then `d`, posts three at once) must not fill the pane: the newest
    /// three say what just happened, and the event log keeps every one.
    public static let maxShown = 3

    /// The toasts of `queue` still visible at `now`: expiry is decided by the clock the caller passes.
    public init(_ queue: ToastQueue, now: SessionTime) {
        toasts = queue.visible(at: now)
    }

    public init(toasts: [Toast]) {
        self.toasts = toasts
    }

    public func render(in area: Rect, into buffer: inout CellBuffer, theme: Theme) {
        guard !toasts.isEmpty, area.width >= 3, area.height >= 1 else { return }
        let style = theme[.toast]
        let recent = Array(toasts.suffix(Self.maxShown))
        let boxed = area.height >= 3 * recent.count && area.width >= 8
        let rowsPerToast = boxed ? 3 : 1
        let shown = Array(recent.suffix(max(1, area.height / rowsPerToast)))
        let textWidth = min(area.width - (boxed ? 4 : 2), shown.map { DisplayWidth.of($0.text) }.max() ?? 0)
        let boxWidth = textWidth + (boxed ? 4 : 2)
        var stack = area.centered(width: boxWidth, height: shown.count * rowsPerToast)
        if anchoredTop {
            stack.y = area.y
            buffer.fill(Rect(x: area.x, y: stack.y, width: area.width, height: stack.height), style: theme[.text])
        }
        for (index, toast) in shown.enumerated() {
            let top = stack.y + index * rowsPerToast
            let text = DisplayWidth.pad(toast.text, to: textWidth)
            if boxed {
                let inner = String(repeating: "─", count: textWidth + 2)
                buffer.write("╭" + inner + "╮", x: stack.x, y: top, style: style, clip: stack)
                buffer.write("│ " + text + " │", x: stack.x, y: top + 1, style: style, clip: stack)
                buffer.write("╰" + inner + "╯", x: stack.x, y: top + 2, style: style, clip: stack)
            } else {
                buffer.write(" " + text + " ", x: stack.x, y: top, style: style, clip: stack)
            }
        }
    }
}
