import OnAirCore

/// The subscriber's pane: connection badge, app state, the seeds' `publisherIsInBackground` and
/// `publisherIsDisconnected`, the reconnect countdown, render active/paused, received bitrate and fps,
/// the decoded preview, the event log, and toasts ("Publish Background", "Publisher Foreground") on top.
public struct SubscriberDashboard: Widget {
    public var state: SubscriberAppState
    public var telemetry: StreamTelemetry
    public var now: SessionTime
    public var isFocused: Bool
    public var showPreview: Bool
    /// Newest log entries scrolled out of view (PgUp), when this pane has the keys.
    public var logScroll = 0

    public init(state: SubscriberAppState, telemetry: StreamTelemetry, now: SessionTime, isFocused: Bool = true, showPreview: Bool = true) {
        self.state = state
        self.telemetry = telemetry
        self.now = now
        self.isFocused = isFocused
        self.showPreview = showPreview
    }

    /// Renders the pane into `area` of `buffer`.
    public static func render(
        state: SubscriberAppState, telemetry: StreamTelemetry, now: SessionTime,
        in area: Rect, into buffer: inout CellBuffer, theme: Theme, isFocused: Bool = true, showPreview: Bool = true
    ) {
        SubscriberDashboard(state: state, telemetry: telemetry, now: now, isFocused: isFocused, showPreview: showPreview)
            .render(in: area, into: &buffer, theme: theme)
    }

    /// The last four digits of the frame number read from the decoded picture's marker, in large digits
    /// beside the preview: the same digits the test pattern burns in huge, so a viewer sees at once that
    /// the picture is live and which frame it is. Nil before a marker has been read.
    public var largeFrameNumber: String? {
        guard let frame = telemetry.glassToGlass?.frameNumber else { return nil }
        let digits = String(max(0, frame) % 10_000)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// `retry in 1.2 s (attempt 3)` while the reconnect loop waits, nil otherwise.
    public var reconnectCountdown: String? {
        guard case .reconnecting(let at) = state.connection else { return nil }
        return "retry in \(ConsoleFormat.seconds(at.milliseconds - now.milliseconds)) (attempt \(state.reconnectAttempts + 1))"
    }

    public func render(in area: Rect, into buffer: inout CellBuffer, theme: Theme) {
        guard !area.isEmpty else { return }
        Panel(title: "Subscriber · \(Redaction.streamName(state.streamName))", isFocused: isFocused).render(in: area, into: &buffer, theme: theme)
        let inner = Panel.inner(of: area)
        guard !inner.isEmpty else { return }
        let layout = DashboardLayout(inner: inner, showPreview: showPreview)
        renderInfo(in: layout.info, headline: layout.headline, into: &buffer, theme: theme)
        if let preview = layout.preview {
            let placeholder = ConsoleFormat.longestFitting(
                !state.renderActive ? ["render paused (pauseRender)", "render paused"]
                    : telemetry.pictureAbsence?.texts ?? ["decoded video: no frame yet", "no frame yet"],
                width: preview.width)
            PreviewView(state.renderActive ? telemetry.preview : nil, placeholder: placeholder, timecode: largeFrameNumber)
                .render(in: preview, into: &buffer, theme: theme)
        }
        if let title = layout.logTitle {
            buffer.write("events", in: title, style: theme[.muted])
        }
        EventLogView(state.log, scrollBack: logScroll).render(in: layout.log, into: &buffer, theme: theme)
        // Over the event log: however many toasts there are, the badge and the figures stay in sight.
        var toasts = ToastStack(state.toasts, now: now)
        toasts.anchoredTop = true
        toasts.render(in: layout.toasts, into: &buffer, theme: theme)
    }

    /// `audio -23 dB ████████`: label, level, eight cells of bar.
    static let meterWidth = 6 + 8 + 8

    private func renderInfo(in info: Rect, headline top: Rect, into buffer: inout CellBuffer, theme: Theme) {
        let badge = StatusBadge(state.connection)
        var detail = "app " + state.lifecycle.label
        if let countdown = reconnectCountdown { detail += "  " + countdown }
        // Old frames: say what they are beside the badge (docs/demo-truth.md, "Subscriber states").
        if state.connection == .replaying { detail += "  old frames, not live" }
        if case .error(let message) = state.connection { detail = message }
        // The audio meter takes the right of the row only when the reason or countdown still fits whole.
        let meterWidth = top.width - badge.width - 1 - DisplayWidth.of(detail) - 2 >= Self.meterWidth ? Self.meterWidth : 0
        let parts = top.columns([.length(badge.width + 1), .fill, .length(meterWidth)])
        badge.render(in: parts[0], into: &buffer, theme: theme)
        buffer.write(detail, in: parts[1], style: theme[.value])
        if meterWidth > 0 {
            // What the subscriber hears, measured from the decoded audio (headless: `audioLevelDb`).
            let meter = parts[2].columns([.length(6), .fill])
            buffer.write("audio", in: meter[0], style: theme[.label])
            // Only live media has a level: a meter left from before a stall or an unpublish would be stale.
            LevelMeter(decibels: state.connection == .playing ? telemetry.audioLevelDBFS : nil)
                .render(in: meter[1], into: &buffer, theme: theme)
        }

        FlagRow([
            FlagIndicator("publisherIsInBackground", isOn: state.publisherIsInBackground),
            FlagIndicator("publisherIsDisconnected", isOn: state.publisherIsDisconnected),
        ]).render(in: info.row(1), into: &buffer, theme: theme)

        let render = [
            state.renderActive ? RowField("ACTIVE", importance: 2)
                : RowField("PAUSED (pauseRender): not decoded", short: "PAUSED: not decoded", importance: 2),
        ] + [PublisherDashboard.linkField(telemetry)].compactMap { $0 }
        LabelledField(
            "render", RowFit.text(render, width: info.width - 9, gap: "   "),
            labelWidth: 9, valueRole: state.renderActive ? .value : .flagOn
        ).render(in: info.row(2), into: &buffer, theme: theme)
        LabelledField("url", state.redactedURL, labelWidth: 9).render(in: info.row(3), into: &buffer, theme: theme)
        PublisherDashboard.renderBitrate(telemetry, in: info.row(4), into: &buffer, theme: theme)
        LabelledField("fps", Self.frameRow(telemetry, width: info.width - 9), labelWidth: 9)
            .render(in: info.row(5), into: &buffer, theme: theme)
    }

    /// The fps row, whole: where it does not fit (80 columns with the preview), `queue` goes first, then the
    /// words shorten — the frame number read from the picture is the last thing to go, since it is what
    /// shows the picture is live.
    static func frameRow(_ telemetry: StreamTelemetry, width: Int) -> String {
        let fps = ConsoleFormat.decimal(telemetry.framesPerSecond, places: 1)
        let g2g = telemetry.glassToGlass.map {
            (ms: "g2g \(ConsoleFormat.decimal($0.p50Milliseconds, places: 0))/\(ConsoleFormat.decimal($0.p99Milliseconds, places: 0))",
             frame: "#\($0.frameNumber)")
        }
        let candidates = [
            [fps, "dropped \(telemetry.droppedFrames)", "queue \(telemetry.queueDepth)", g2g.map { $0.ms + " ms" }, g2g?.frame],
            [fps, "dropped \(telemetry.droppedFrames)", g2g.map { $0.ms + " ms" }, g2g?.frame],
            [fps, "drop \(telemetry.droppedFrames)", g2g.map { $0.ms + "ms" }, g2g?.frame],
            [fps, "drop \(telemetry.droppedFrames)", g2g?.frame],
        ].map { $0.compactMap { $0 }.joined(separator: "  ") }
        return candidates.first { DisplayWidth.of($0) <= width } ?? candidates[candidates.count - 1]
    }
}
