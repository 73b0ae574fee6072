import OnAirCore

extension ConsoleScreen {
    /// `l`: the focused pane's whole event log, one bordered panel over both panes, scrollable with PgUp/PgDn.
    func renderFullLog(in body: Rect, context: KeyContext, into buffer: inout CellBuffer, theme: Theme) {
        let onPublisher = context.focus == .publisher
        guard let log = onPublisher ? publisher?.log : subscriber?.log else { return }
        let name = (onPublisher ? publisher?.streamName : subscriber?.streamName).map(Redaction.streamName) ?? ""
        let title = "\(onPublisher ? "Publisher" : "Subscriber") event log · \(name) · \(log.entries.count) events · l back"
        Panel(title: title, isFocused: true).render(in: body, into: &buffer, theme: theme)
        EventLogView(log, scrollBack: context.logScroll).render(in: Panel.inner(of: body), into: &buffer, theme: theme)
    }
}
