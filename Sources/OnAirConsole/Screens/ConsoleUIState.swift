import OnAirCore

/// What the console itself remembers between frames (focus, overlays, preview toggle, the last notice),
/// and how keys change it. A key's one result is the operator command it means (`OperatorCommand`, the
/// vocabulary stdin lines and scenario presses use, `quit` included), for the owner to route
/// (docs/conventions.md §1, §8): this type never performs anything itself.
public struct ConsoleUIState: Sendable, Equatable {
    /// A short line in the footer saying why a key did nothing; it fades after `Notice.lifetime`.
    public struct Notice: Sendable, Equatable {
        public var text: String
        public var postedAt: SessionTime
        public static let lifetimeMilliseconds: Int64 = 4000

        public init(text: String, postedAt: SessionTime) {
            self.text = text
            self.postedAt = postedAt
        }
    }

    public var focus: ConsolePane
    public var showPreview: Bool
    public var showHelp = false
    public var confirmingQuit = false
    public var notice: Notice?
    /// `l`: the focused pane's event log fills the screen.
    public var showFullLog = false
    /// How many of the newest log entries are scrolled out of view (PgUp/PgDn); 0 follows the newest.
    public var logScroll = 0
    /// The publisher's and the subscriber's link impairment stages as last read by the owner, nil without
    /// one: the link keys' legality and what `w` and `k` do next, for the focused pane.
    public var link: LinkImpairmentState?
    public var subscriberLink: LinkImpairmentState?
    /// Whether the demo's embedded relay takes the server keys (`ServerCommand`).
    public var hasRelay = false
    /// The devices the operator has taken away, as last read by the owner: what `C` and `A` do next.
    public var devicesTaken: Set<CaptureDevice> = []
    /// The terminal's height as last reported: a PgUp/PgDn moves about a page of the log on screen.
    public var screenHeight = 24

    /// About how many log rows are on screen: the whole screen less borders, footer and scroll line with
    /// `l`; a pane's log (a quarter to a third of the height, less at 80x24) otherwise.
    var visibleLogRows: Int { max(1, showFullLog ? screenHeight - 5 : screenHeight / 8) }

    public init(focus: ConsolePane = .publisher, showPreview: Bool = true) {
        self.focus = focus
        self.showPreview = showPreview
    }

    public var mode: ConsoleMode { confirmingQuit ? .confirmingQuit : showHelp ? .help : .normal }

    /// The notice to show at `now`, if it has not faded.
    public func visibleNotice(at now: SessionTime) -> String? {
        guard let notice, now.milliseconds - notice.postedAt.milliseconds < Notice.lifetimeMilliseconds else { return nil }
        return notice.text
    }

    /// The key context for the panes present; focus falls back to the pane that exists.
    public func keyContext(publisher: PublisherAppState?, subscriber: SubscriberAppState?) -> KeyContext {
        let paneCount = (publisher == nil ? 0 : 1) + (subscriber == nil ? 0 : 1)
        let focused = effectiveFocus(publisher: publisher, subscriber: subscriber)
        let logLines = (focused == .publisher ? publisher?.log.entries.count : subscriber?.log.entries.count) ?? 0
        let limit = max(0, logLines - visibleLogRows)
        var context = KeyContext(mode: mode, focus: focused, paneCount: paneCount, targets: CommandTargets(
            publisher: publisher, subscriber: subscriber, publisherLink: link, subscriberLink: subscriberLink, hasRelay: hasRelay))
        context.devicesTaken = devicesTaken
        context.logScroll = min(logScroll, limit)
        context.logScrollLimit = limit
        return context
    }

    func effectiveFocus(publisher: PublisherAppState?, subscriber: SubscriberAppState?) -> ConsolePane {
        switch focus {
        case .publisher where publisher == nil && subscriber != nil: .subscriber
        case .subscriber where subscriber == nil && publisher != nil: .publisher
        default: focus
        }
    }

    /// Applies one key: updates the console's own state and returns the operator command the key means —
    /// addressed to the focused pane's side (`sub home` on the subscriber pane), allowed or not: the one
    /// gate decides — or nil when the key only changed the console. A confirmed quit is `quit`: the owner's
    /// shutdown unpublishes in order, as for a stdin `quit`.
    public mutating func handle(
        _ key: ConsoleKey, publisher: PublisherAppState?, subscriber: SubscriberAppState?, now: SessionTime, keyMap: KeyMap = .standard
    ) -> OperatorCommand? {
        let context = keyContext(publisher: publisher, subscriber: subscriber)
        // As in htop, any key that means nothing in the help overlay closes it.
        if context.mode == .help, keyMap.intent(for: key, mode: .help).map({ keyMap.isAvailable($0, in: context) }) != true {
            showHelp = false
            return nil
        }
        guard let intent = keyMap.intent(for: key, mode: context.mode) else {
            if context.mode == .normal { notice = Notice(text: "\(key): not a key here (? shows the keys)", postedAt: now) }
            return nil
        }
        if context.mode == .normal, intent.reachesCore {
            // Whether it acts is the one gate's to say (`CommandRouter.perform`), as for a stdin line or a
            // scenario's press: it records and shows a refusal the same way for all three.
            guard let command = context.command(for: intent) else {
                notice = Notice(text: Self.refusal(of: intent, key: key, context: context), postedAt: now)
                return nil
            }
            notice = nil
            return command
        }
        guard keyMap.isAvailable(intent, in: context) else {
            notice = Notice(text: Self.refusal(of: intent, key: key, context: context), postedAt: now)
            return nil
        }
        notice = nil
        switch intent {
        case .command, .toggleLink, .cycleLinkCap, .toggleDevice: return context.command(for: intent)
        case .togglePreview: showPreview.toggle()
        case .toggleHelp: showHelp.toggle()
        case .toggleLog:
            // A scroll position belongs to the view it was made in: the other view follows the newest line.
            showFullLog.toggle()
            logScroll = 0
        case .scrollLog(let up):
            let page = max(1, visibleLogRows - 1)
            logScroll = up ? min(context.logScrollLimit, context.logScroll + page) : max(0, context.logScroll - page)
        case .switchPane:
            focus = context.focus == .publisher ? .subscriber : .publisher
            logScroll = 0
        case .quit:
            if publisher?.status.isBroadcasting == true, !confirmingQuit {
                showHelp = false
                confirmingQuit = true
                return nil
            }
            return .quit
        case .confirm:
            confirmingQuit = false
            return .quit
        case .cancel:
            confirmingQuit = false
            showHelp = false
        case .focusNextOutput, .toggleFocusedOutput:
            break
        }
        return nil
    }

    /// Why a known key does nothing now, in one short line: the core's reason for keys that reach a state
    /// machine, the console's own for the rest.
    static func refusal(of intent: ConsoleIntent, key: ConsoleKey, context: KeyContext) -> String {
        if let reason = context.refusal(of: intent) { return "\(key): \(reason)" }
        switch intent {
        case .scrollLog(let up): return up ? "\(key): the whole log is on screen" : "\(key): already at the newest event"
        case .switchPane: return "\(key): only one pane"
        case .focusNextOutput, .toggleFocusedOutput: return "\(key): one destination here (give more URLs to publish to several)"
        default: return "\(key): not now"
        }
    }
}
