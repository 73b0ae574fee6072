/// Where a dashboard's parts go inside its pane: the info rows on top, then the preview (below the info
/// when the pane is tall, beside it when it is only wide, left out when there is no room), then the log.
public struct DashboardLayout: Sendable, Equatable {
    /// The first info row (badge, app state, countdown or reason, timer): always the pane's full width, so
    /// a reason or countdown is never cut by a preview beside the info.
    public var headline: Rect
    public var info: Rect
    /// A row per destination under the info rows, full width (`onair publish URL URL …`); nil with one.
    public var outputs: Rect?
    public var preview: Rect?
    public var logTitle: Rect?
    public var log: Rect

    /// Rows of `label value` lines every dashboard shows.
    public static let infoRows = 6

    /// Where the toasts go: over the event log (its title too), which only repeats them, never over the
    /// badge, the flags or the url/bitrate/fps rows. A pane too short for a log gives them its flag and
    /// policy rows, which the toasts' own words stand in for while they show.
    public var toasts: Rect {
        if log.height > 0 { return logTitle.map { Rect(x: log.x, y: $0.y, width: log.width, height: log.height + 1) } ?? log }
        return Rect(x: info.x, y: headline.y, width: headline.width, height: info.height).droppingTop(1).top(2)
    }

    /// `outputRows`: how many destination rows the pane wants; they get at most half of what the info
    /// rows leave (the log keeps the rest; `OutputRowsView` says how many more there are).
    public init(inner: Rect, showPreview: Bool, outputRows: Int = 0) {
        let infoHeight = min(Self.infoRows, inner.height)
        var info = inner.top(infoHeight)
        var rest = inner.droppingTop(infoHeight)
        let outputHeight = min(max(0, outputRows), rest.height / 2)
        outputs = outputHeight > 0 ? rest.top(outputHeight) : nil
        rest = rest.droppingTop(outputHeight)
        var preview: Rect?
        if showPreview {
            if rest.height >= 14 {
                let wanted = min(rest.height / 2, max(4, inner.width * 9 / 32 + 1))
                preview = rest.top(wanted)
                rest = rest.droppingTop(wanted)
            } else if inner.width >= 60 {
                let parts = info.columns([.fill, .length(1), .percentage(34)])
                info = parts[0]
                preview = parts[2].droppingTop(1)
            }
        }
        if rest.height >= 4 {
            logTitle = rest.top(1)
            rest = rest.droppingTop(1)
        } else {
            logTitle = nil
        }
        headline = inner.top(min(1, inner.height))
        self.info = info
        self.preview = preview
        self.log = rest
    }
}
