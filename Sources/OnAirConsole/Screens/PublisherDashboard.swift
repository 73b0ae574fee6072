import OnAirCore

/// The publisher's pane: state badge, app state, the seeds' flags, policy, publish type, URL, timer,
/// bitrate with a 60 s sparkline, fps, drops, queue/congestion, preview, event log, and toasts on top.
public struct PublisherDashboard: Widget {
    public var state: PublisherAppState
    public var telemetry: StreamTelemetry
    public var now: SessionTime
    public var isFocused: Bool
    public var showPreview: Bool
    /// Newest log entries scrolled out of view (PgUp), when this pane has the keys.
    public var logScroll = 0

    public init(state: PublisherAppState, telemetry: StreamTelemetry, now: SessionTime, isFocused: Bool = true, showPreview: Bool = true) {
        self.state = state
        self.telemetry = telemetry
        self.now = now
        self.isFocused = isFocused
        self.showPreview = showPreview
    }

    /// Renders the pane into `area` of `buffer`: the one call a front end needs per frame for this pane.
    public static func render(
        state: PublisherAppState, telemetry: StreamTelemetry, now: SessionTime,
        in area: Rect, into buffer: inout CellBuffer, theme: Theme, isFocused: Bool = true, showPreview: Bool = true
    ) {
        PublisherDashboard(state: state, telemetry: telemetry, now: now, isFocused: isFocused, showPreview: showPreview)
            .render(in: area, into: &buffer, theme: theme)
    }

    /// The session timer: time on air since the broadcast first went live (automatic reconnects keep
    /// counting), or dashes when there is no broadcast.
    public var sessionTimer: String {
        guard let since = state.onAirSince, state.status != .idle else { return "--:--:--" }
        return ConsoleFormat.clock(now.since(since))
    }

    /// The time on air in large digits beside the preview: `MM:SS`, `HH:MM:SS` from an hour on; nil when
    /// not on air (the picture then has nothing to time).
    public var largeTimecode: String? {
        guard state.onAirSince != nil, state.status != .idle else { return nil }
        let clock = sessionTimer
        return clock.hasPrefix("00:") ? String(clock.dropFirst(3)) : clock
    }

    /// `retry in 1.2 s` while an automatic reconnect waits, `drops in 3.4 s` while a call suspends a
    /// background-audio session; nil otherwise.
    public var countdown: String? { countdownField?.long }

    /// The countdown with its short form (RowFit): `stalled 5.9 s, retry in 9.2 s` for the send stall.
    var countdownField: RowField? {
        if let stall = state.sendStall {
            let quiet = ConsoleFormat.seconds(now.milliseconds - stall.since.milliseconds)
            let left = ConsoleFormat.seconds(stall.tearDownAt.milliseconds - now.milliseconds)
            return RowField("nothing sent for \(quiet), reconnect in \(left)", short: "none sent \(quiet), retry in \(left)", importance: 3)
        }
        if let at = state.timerDeadlines[.reconnect] {
            return RowField("retry in \(ConsoleFormat.seconds(at.milliseconds - now.milliseconds))", importance: 3)
        }
        if let at = state.timerDeadlines[.suspension] {
            return RowField("drops in \(ConsoleFormat.seconds(at.milliseconds - now.milliseconds))", importance: 3)
        }
        return nil
    }

    public func render(in area: Rect, into buffer: inout CellBuffer, theme: Theme) {
        guard !area.isEmpty else { return }
        Panel(title: "Publisher · \(Redaction.streamName(state.streamName))", isFocused: isFocused).render(in: area, into: &buffer, theme: theme)
        let inner = Panel.inner(of: area)
        guard !inner.isEmpty else { return }
        let layout = DashboardLayout(inner: inner, showPreview: showPreview, outputRows: telemetry.outputs.count)
        renderInfo(in: layout.info, headline: layout.headline, into: &buffer, theme: theme)
        if let rows = layout.outputs { OutputRowsView(telemetry.outputs).render(in: rows, into: &buffer, theme: theme) }
        if let preview = layout.preview {
            PreviewView(
                telemetry.preview, placeholder: ConsoleFormat.longestFitting(["camera preview: no frame yet", "no frame yet"], width: preview.width),
                timecode: largeTimecode
            ).render(in: preview, into: &buffer, theme: theme)
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

    private func renderInfo(in info: Rect, headline top: Rect, into buffer: inout CellBuffer, theme: Theme) {
        // Row 0 (full width): badge, app state, countdown or reason, timer on the right.
        let badge = StatusBadge(state)
        var fields = [RowField("app " + state.lifecycle.label, short: state.lifecycle.label, importance: 1)]
        if let countdownField { fields.append(countdownField) }
        // Text, not ⏱: that glyph is missing from common fonts and two cells wide in emoji fonts. The
        // timer keeps its words only while the countdown beside it fits whole.
        let room = top.width - badge.width - 1
        let longTimer = "on air " + sessionTimer
        let timer = RowFit.fitsWhole(fields, width: room - DisplayWidth.of(longTimer) - 1) ? longTimer : sessionTimer
        let parts = top.columns([.length(badge.width + 1), .fill, .length(DisplayWidth.of(timer))])
        badge.render(in: parts[0], into: &buffer, theme: theme)
        var appText = RowFit.text(fields, width: parts[1].width - 1)
        var errorRows = 0
        if case .error(let message) = state.status {
            // The whole reason, wrapped over the rows below when it is long; never cut.
            let lines = Self.wrap(message + "  (r retries)", firstWidth: parts[1].width, width: info.width, maxLines: 4)
            appText = lines.first ?? ""
            for (index, line) in lines.dropFirst().enumerated() {
                buffer.write(line, in: info.row(index + 1), style: theme[.logError])
            }
            errorRows = lines.count - 1
        }
        buffer.write(appText, in: parts[1], style: theme[isError ? .logError : .value])
        buffer.write(timer, in: parts[2], style: theme[.value])

        // Row 1: the flags of the seeds, or a lost device, which matters more while it lasts.
        if errorRows < 1, let alert = telemetry.deviceAlert {
            buffer.write(alert, in: info.row(1), style: theme[.logError])
        } else if errorRows < 1 {
            FlagRow([
                FlagIndicator("pauseVideo", isOn: state.pauseVideo), FlagIndicator("pauseAudio", isOn: state.pauseAudio),
                FlagIndicator("tapArmed", isOn: state.tapArmed),
            ]).render(in: info.row(1), into: &buffer, theme: theme)
        }
        if errorRows < 2 {
            // A switch that waits for the interruption's end shows beside the policy still in force.
            let name = state.pendingPolicy.map { RowField("\(state.policy.rawValue) → \($0.rawValue)", short: "\(state.policy.rawValue)→\($0.rawValue)", importance: 2) }
                ?? RowField(state.policy.rawValue, importance: 2)
            let policy = [name, RowField("type \(state.publishType.rawValue)", importance: 1)]
                + [Self.linkField(telemetry)].compactMap { $0 }
            LabelledField("policy", RowFit.text(policy, width: info.width - 9, gap: "   "), labelWidth: 9)
                .render(in: info.row(2), into: &buffer, theme: theme)
        }
        if errorRows < 3 {
            LabelledField("url", state.redactedURL, labelWidth: 9).render(in: info.row(3), into: &buffer, theme: theme)
        }
        Self.renderBitrate(telemetry, in: info.row(4), into: &buffer, theme: theme)
        let congestionRole: ThemeRole = telemetry.congestion >= 0.75 ? .meterWarning : .value
        var frames = [
            RowField(ConsoleFormat.decimal(telemetry.framesPerSecond, places: 1), importance: 5),
            RowField("dropped \(telemetry.droppedFrames)", short: "drop \(telemetry.droppedFrames)", importance: 3),
        ]
        // The send queue's figures belong to a broadcast: left over on IDLE they would be stale.
        if state.status.isBroadcasting {
            frames += [
                RowField("queue \(telemetry.queueDepth)", short: "q \(telemetry.queueDepth)", importance: 2),
                RowField("congestion \(ConsoleFormat.percent(telemetry.congestion))", short: "cong \(ConsoleFormat.percent(telemetry.congestion))", importance: 4),
            ]
        }
        LabelledField("fps", RowFit.text(frames, width: info.width - 9), labelWidth: 9, valueRole: congestionRole)
            .render(in: info.row(5), into: &buffer, theme: theme)
    }

    private var isError: Bool {
        if case .error = state.status { return true }
        return false
    }

    /// Greedy word wrap: the first line `firstWidth` columns, the rest `width`; a word longer than a line
    /// is split. At most `maxLines` lines — the last takes whatever remains.
    static func wrap(_ text: String, firstWidth: Int, width: Int, maxLines: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        var limit = max(1, firstWidth)
        for word in text.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            let candidate = current.isEmpty ? word : current + " " + word
            if DisplayWidth.of(candidate) <= limit || current.isEmpty || lines.count == maxLines - 1 {
                current = candidate
            } else {
                lines.append(current)
                current = word
                limit = max(1, width)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// `bitrate  2.50 Mb/s  enc 2.61 Mb/s  ▂▃▅▆▇`: what the socket took, the encoder's own output beside
    /// it, then the sparkline (socket) in the rest of the row. The text is laid out first (RowFit), so a
    /// figure is never cut for the sparkline.
    static func renderBitrate(_ telemetry: StreamTelemetry, in row: Rect, into buffer: inout CellBuffer, theme: Theme) {
        guard !row.isEmpty else { return }
        let text = RowFit.text(bitrateFields(telemetry), width: max(0, row.width - 9))
        let parts = row.columns([.length(9), .length(DisplayWidth.of(text) + 2), .fill])
        buffer.write("bitrate", in: parts[0], style: theme[.label])
        buffer.write(text, in: parts[1], style: theme[.value])
        Sparkline(samples: telemetry.bitrateHistory).render(in: parts[2], into: &buffer, theme: theme)
    }

    /// The bitrate row's fields: with ABR, `abr 1.2M → sent 790k / cap 800k` (what ABR asks, what went,
    /// the link's cap) first; the encoder's own rate goes first when room is short.
    public static func bitrateFields(_ telemetry: StreamTelemetry) -> [RowField] {
        let sent = sentBitrate(telemetry)
        var fields: [RowField] = []
        if let target = telemetry.abrTarget {
            let asked = target.audioOnly ? "audio-only" : shortRate(target.videoBitrate)
            let cap = telemetry.link?.capBitsPerSecond.map(shortRate)
            fields.append(RowField(
                "abr \(asked) → sent \(shortRate(sent))" + (cap.map { " / cap \($0)" } ?? ""),
                short: "abr \(asked) sent \(shortRate(sent))" + (cap.map { " cap \($0)" } ?? ""), importance: 5))
        } else {
            fields.append(RowField(ConsoleFormat.bitrate(sent), short: shortRate(sent), importance: 5))
        }
        if let encoder = telemetry.encoderBitrate {
            fields.append(RowField("enc " + ConsoleFormat.bitrate(encoder), short: "enc " + shortRate(encoder), importance: 1))
        }
        return fields
    }

    /// What the link carried: the socket's rate, never above the link's cap — what the socket took past
    /// the cap waits in the stage's and the kernel's buffers (the queue), it has not gone.
    public static func sentBitrate(_ telemetry: StreamTelemetry) -> Int {
        guard let cap = telemetry.link?.capBitsPerSecond else { return telemetry.bitrate }
        return min(telemetry.bitrate, cap)
    }

    /// `   link DOWN`, `   link 800k 150ms`: the impairment stage's state beside the policy; empty
    /// without a stage.
    public static func linkText(_ telemetry: StreamTelemetry) -> String {
        linkField(telemetry).map { "   " + $0.long } ?? ""
    }

    /// The link's state as a row field: it outranks the words beside it.
    public static func linkField(_ telemetry: StreamTelemetry) -> RowField? {
        telemetry.link.map { RowField("link " + $0.dashboardText, importance: 3) }
    }

    /// `abr 1.2M → sent 790k / cap 800k`: what ABR asks of the encoder, what the link carried, and the
    /// link's cap when one is set.
    static func abrText(_ target: AdaptiveBitrateTarget, telemetry: StreamTelemetry) -> String {
        var copy = telemetry
        copy.abrTarget = target
        return bitrateFields(copy)[0].long
    }

    /// `1.2M`, `790k`: two or three figures are enough beside a sparkline.
    static func shortRate(_ bitsPerSecond: Int) -> String {
        LinkCommand.rateText(bitsPerSecond >= 1_000_000 ? bitsPerSecond / 100_000 * 100_000 : bitsPerSecond / 1000 * 1000)
    }
}
