import OnAirCore

/// The newest event-log lines that fit, oldest at the top: `mm:ss.mmm tag  text`, coloured by source,
/// so a reader can follow notification → policy decision → RTMP status at millisecond resolution.
///
/// Scrolled back (`scrollBack` newest entries out of view, PgUp), the bottom row says how many newer
/// entries are hidden, so a scrolled log is never mistaken for a quiet one.
public struct EventLogView: Widget {
    public var entries: ArraySlice<EventLogEntry>
    public var scrollBack: Int

    /// Shows the newest entries of `log` that fit, or those `scrollBack` entries older.
    public init(_ log: EventLog, scrollBack: Int = 0) {
        entries = log.entries[...]
        self.scrollBack = scrollBack
    }

    public init(entries: [EventLogEntry], scrollBack: Int = 0) {
        self.entries = entries[...]
        self.scrollBack = scrollBack
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

    /// The entry's text after its tag: a key line's text (`key accept`) already starts with the tag's
    /// word, which the screen shows once (`key  accept`, not `key  key accept`).
    public static func text(of entry: EventLogEntry) -> String {
        let word = String(tag(for: entry.source).prefix { $0 != " " }) + " "
        return entry.text.hasPrefix(word) ? String(entry.text.dropFirst(word.count)) : entry.text
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
        // Never scrolled so far that the view is not full: the oldest entry stops at the top row.
        let hidden = min(max(0, scrollBack), max(0, entries.count - (area.height - 1)))
        var rows = area
        if hidden > 0, area.height > 1 {
            rows = area.droppingBottom(1)
            buffer.write("v \(hidden) newer (PgDn)", in: area.bottom(1), style: theme[.muted].patched(with: Style(attributes: [.reverse])))
        }
        let visible = entries.dropLast(hidden).suffix(rows.height)
        for (index, entry) in visible.enumerated() {
            let row = rows.row(index)
            let style = theme[Self.role(for: entry.source)]
            var column = buffer.write(entry.time.logStamp + " ", x: row.x, y: row.y, style: theme[.logTime], clip: row)
            column = buffer.write(Self.tag(for: entry.source) + " ", x: column, y: row.y, style: style, clip: row)
            buffer.write(Self.text(of: entry), in: Rect(x: column, y: row.y, width: row.maxX - column, height: 1), style: style)
        }
    }
}
