import OnAirCore

/// The newest event-log lines that fit, oldest at the top: `mm:ss.mmm tag  text`, coloured by source,
/// so a reader can follow notification → policy decision → RTMP status at millisecond resolution.
public struct EventLogView: Widget {
    public var entries: ArraySlice<EventLogEntry>

    /// Shows the newest entries of `log` that fit.
    public init(_ log: EventLog) {
        entries = log.entries[...]
    }

    public init(entries: [EventLogEntry]) {
        self.entries = entries[...]
    }

    /// A four-letter tag per source, so the source reads without colour.
    public static func tag(for source: EventSource) -> String {
        switch source {
        case .key: "key "
        case .lifecycle: "life"
        case .policy: "pol "
        case .rtmp: "rtmp"
        case .message: "msg "
        case .engine: "eng "
        case .error: "ERR "
        }
    }

    /// The theme role that colours lines from `source`.
    public static func role(for source: EventSource) -> ThemeRole {
        switch source {
        case .key: .logKey
        case .lifecycle: .logLifecycle
        case .policy: .logPolicy
        case .rtmp: .logRTMP
        case .message: .logMessage
        case .engine: .logEngine
        case .error: .logError
        }
    }

    public func render(in area: Rect, into buffer: inout CellBuffer, theme: Theme) {
        guard !area.isEmpty else { return }
        if entries.isEmpty {
            buffer.write("(no events yet)", in: area.row(0), style: theme[.muted])
            return
        }
        for (index, entry) in entries.suffix(area.height).enumerated() {
            let row = area.row(index)
            let style = theme[Self.role(for: entry.source)]
            var column = buffer.write(entry.time.logStamp + " ", x: row.x, y: row.y, style: theme[.logTime], clip: row)
            column = buffer.write(Self.tag(for: entry.source) + " ", x: column, y: row.y, style: style, clip: row)
            buffer.write(entry.text, in: Rect(x: column, y: row.y, width: row.maxX - column, height: 1), style: style)
        }
    }
}
