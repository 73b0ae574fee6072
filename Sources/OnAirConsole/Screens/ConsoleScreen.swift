import OnAirCore

/// A whole console frame: one or two dashboards, the footer, and the overlays (help, quit confirmation).
///
/// `onair demo` shows both panes (side by side from `sideBySideMinimumWidth` columns, stacked below it);
/// `onair publish` and `onair subscribe` show one. A front end builds one of these per frame from its state
/// and calls `render(width:height:theme:)`; the terminal backend blits the result.
public struct ConsoleScreen: Sendable {
    public var publisher: PublisherAppState?
    public var publisherTelemetry: StreamTelemetry
    public var subscriber: SubscriberAppState?
    public var subscriberTelemetry: StreamTelemetry
    public var ui: ConsoleUIState
    public var now: SessionTime
    public var keyMap: KeyMap

    /// Below this width the two panes are stacked; at and above it they sit side by side.
    public static let sideBySideMinimumWidth = 160
    /// The smallest screen the console draws into; below it a one-line message asks for more room.
    public static let minimumSize = (width: 40, height: 10)
    public static let quitQuestion = "Stop broadcasting and quit? y/n"

    public init(
        publisher: PublisherAppState? = nil, publisherTelemetry: StreamTelemetry = .none,
        subscriber: SubscriberAppState? = nil, subscriberTelemetry: StreamTelemetry = .none,
        ui: ConsoleUIState = ConsoleUIState(), now: SessionTime, keyMap: KeyMap = .standard
    ) {
        self.publisher = publisher
        self.publisherTelemetry = publisherTelemetry
        self.subscriber = subscriber
        self.subscriberTelemetry = subscriberTelemetry
        self.ui = ui
        self.now = now
        self.keyMap = keyMap
    }

    /// The frame as a new buffer.
    public func render(width: Int, height: Int, theme: Theme) -> CellBuffer {
        var buffer = CellBuffer(width: width, height: height, fill: Cell(" ", style: theme[.text]))
        render(in: buffer.area, into: &buffer, theme: theme)
        return buffer
    }

    /// The areas of the panes present, in order publisher, subscriber.
    public static func paneAreas(in body: Rect, count: Int) -> [Rect] {
        guard count > 1 else { return [body] }
        return body.width >= sideBySideMinimumWidth ? body.columns([.percentage(50), .fill]) : body.rows([.percentage(50), .fill])
    }

    /// Draws the frame into `area`: panes, footer, then the overlays on top.
    public func render(in area: Rect, into buffer: inout CellBuffer, theme: Theme) {
        guard area.width >= Self.minimumSize.width, area.height >= Self.minimumSize.height else {
            buffer.fill(area, style: theme[.text])
            let message = "terminal too small (\(area.width)×\(area.height)); need \(Self.minimumSize.width)×\(Self.minimumSize.height)"
            WrappedText(message, role: .notice).render(in: area, into: &buffer, theme: theme)
            return
        }
        let context = ui.keyContext(publisher: publisher, subscriber: subscriber)
        // A notice (why a key was refused) gets status rows of its own above the footer, whole, so the
        // footer keeps every key that does something now.
        let notice = ui.visibleNotice(at: now).flatMap { $0.isEmpty ? nil : $0 }
        let noticeLines = min(notice.map { WrappedText.lines(" " + $0, width: area.width).count } ?? 0, 3)
        let keys = keyMap.available(in: context)
        let footerRows = Footer.rows(for: keys, width: area.width)
        let body = area.droppingBottom(footerRows + noticeLines)
        let areas = Self.paneAreas(in: body, count: context.paneCount)
        var next = areas.makeIterator()
        let many = context.paneCount > 1
        if ui.showFullLog {
            renderFullLog(in: body, context: context, into: &buffer, theme: theme)
        } else {
            if let publisher, let paneArea = next.next() {
                var pane = PublisherDashboard(
                    state: publisher, telemetry: publisherTelemetry, now: now,
                    isFocused: many && context.focus == .publisher, showPreview: ui.showPreview
                )
                pane.logScroll = context.focus == .publisher ? context.logScroll : 0
                pane.render(in: paneArea, into: &buffer, theme: theme)
            }
            if let subscriber, let paneArea = next.next() {
                var pane = SubscriberDashboard(
                    state: subscriber, telemetry: subscriberTelemetry, now: now,
                    isFocused: many && context.focus == .subscriber, showPreview: ui.showPreview
                )
                pane.logScroll = context.focus == .subscriber ? context.logScroll : 0
                pane.render(in: paneArea, into: &buffer, theme: theme)
            }
        }
        if publisher == nil, subscriber == nil {
            buffer.write("nothing to show", in: body.centered(width: 15, height: 1), style: theme[.muted])
        }
        if let notice {
            let rows = area.droppingBottom(footerRows).bottom(noticeLines)
            buffer.fill(rows, style: theme[.text])
            WrappedText(" " + notice, role: .notice).render(in: rows, into: &buffer, theme: theme)
        }
        Footer(bindings: keys).render(in: area.bottom(footerRows), into: &buffer, theme: theme)
        if ui.showHelp && !ui.confirmingQuit {
            var normal = context
            normal.mode = .normal
            let available = Set(keyMap.helpBindings.map(\.intent).filter { keyMap.isAvailable($0, in: normal) })
            HelpOverlay(bindings: keyMap.helpBindings, available: available).render(in: body, into: &buffer, theme: theme)
        }
        if ui.confirmingQuit {
            ConfirmDialog(Self.quitQuestion).render(in: body, into: &buffer, theme: theme)
        }
    }
}
