import OnAirCore

/// The destinations of `onair publish URL URL …`, a row each under the publisher's info rows:
/// `output 2  ingest-b.example.com  STALLED  sent 0 b/s  queue 212  reconnects 3`.
///
/// Each row is laid out by `RowFit` (docs/demo-truth.md): at 80 columns the words shorten, then the host
/// goes before any figure, so a number is never cut — "queue 21…" could be 21 or 2100. The row's colour
/// says how the output is at a glance (a stalled one stands out among healthy ones); the words say it too,
/// for a colourless theme. Rows that do not fit the area end in one `+N more` row: never a silent cut.
public struct OutputRowsView: Widget {
    public var rows: [OutputRow]

    public init(_ rows: [OutputRow]) {
        self.rows = rows
    }

    /// The label column, as the info rows above (`policy`, `url`, `bitrate`): the values line up.
    static let labelWidth = 9

    public func render(in area: Rect, into buffer: inout CellBuffer, theme: Theme) {
        guard !area.isEmpty, !rows.isEmpty else { return }
        let shown = rows.count <= area.height ? rows.count : max(0, area.height - 1)
        for (offset, text) in Self.texts(Array(rows.prefix(shown)), width: area.width - Self.labelWidth).enumerated() {
            let row = rows[offset]
            LabelledField(Self.label(row.index, focused: row.focused), text, labelWidth: Self.labelWidth, valueRole: Self.role(row.state))
                .render(in: area.row(offset), into: &buffer, theme: theme)
        }
        if shown < rows.count {
            let more = rows.count - shown
            buffer.write("+\(more) more output\(more == 1 ? "" : "s") (outputStats in --log)", in: area.row(shown), style: theme[.muted])
        }
    }

    /// The rows' texts at `width` columns, as a table: each field padded to the widest of its column (long
    /// and short forms apart), so every row has the same widths and `RowFit` picks the same form for all —
    /// the columns line up, and a field that must go goes from every row.
    public static func texts(_ rows: [OutputRow], width: Int) -> [String] {
        let table = rows.map(fields)
        guard let columns = table.first?.count else { return [] }
        let longWidths = (0..<columns).map { column in table.map { DisplayWidth.of($0[column].long) }.max() ?? 0 }
        let shortWidths = (0..<columns).map { column in table.map { DisplayWidth.of($0[column].short) }.max() ?? 0 }
        return table.map { row in
            let padded = row.enumerated().map { column, field in
                RowField(pad(field.long, to: longWidths[column]), short: pad(field.short, to: shortWidths[column]), importance: field.importance)
            }
            var text = RowFit.text(padded, width: width)
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
    }

    private static func pad(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - DisplayWidth.of(text)))
    }

    /// `output 2`, `out 12`: whole in the label column.
    /// The focused output's label starts with `▸` (the column has room for it: `▸output 2`, `▸out 12`).
    static func label(_ index: Int, focused: Bool = false) -> String {
        (focused ? "▸" : "") + (index < 10 ? "output \(index)" : "out \(index)")
    }

    /// The row's fields, long and short (RowFit): the state stays longest, the host goes first.
    public static func fields(_ row: OutputRow) -> [RowField] {
        [
            RowField(row.host, importance: 1),
            RowField(row.state, importance: 5),
            RowField("sent " + ConsoleFormat.bitrate(row.sentBitsPerSecond), short: "sent " + PublisherDashboard.shortRate(row.sentBitsPerSecond), importance: 4),
            RowField("queue \(row.queueDepth)", short: "q \(row.queueDepth)", importance: 3),
            RowField("reconnects \(row.reconnects)", short: "rc \(row.reconnects)", importance: 2),
        ]
    }

    /// Healthy, on its way, or failing — the badge's colours, by the dashboard's state words.
    static func role(_ state: String) -> ThemeRole {
        if state.hasPrefix("PUBLISHING") || state.hasPrefix("LIVE") { return .value }
        if state.hasPrefix("STALLED") || state.hasPrefix("ERROR") { return .logError }
        if state.hasPrefix("IDLE") || state.hasPrefix("STOPPED") { return .muted }
        return .meterWarning
    }
}
