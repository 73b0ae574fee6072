import OnAirCore

/// A state shown as a solid block of colour with its name in capitals (" PUBLISHING ").
public struct StatusBadge: Widget {
    public var text: String
    public var role: ThemeRole

    public init(text: String, role: ThemeRole) {
        self.text = text
        self.role = role
    }

    /// The publisher's badge, coloured by what the state means to the operator.
    public init(_ status: PublisherStatus) {
        self.init(text: status.badge, role: Self.role(for: status))
    }

    /// The publisher's badge as its state shows it (`PAUSED A+V` when audio is paused too).
    public init(_ state: PublisherAppState) {
        self.init(text: state.badge, role: Self.role(for: state.status))
    }

    /// The subscriber's connection as a badge.
    public init(_ connection: SubscriberConnection) {
        let role: ThemeRole =
            switch connection {
            case .idle: .idleBadge
            case .connecting: .connectingBadge
            case .playing: .liveBadge
            case .replaying: .reconnectingBadge
            case .waitingForPublisher: .awaitingBadge
            case .stalled: .reconnectingBadge
            case .reconnecting: .reconnectingBadge
            case .error: .errorBadge
            }
        self.init(text: connection.label, role: role)
    }

    /// The theme role of a publisher status: live is the alarm colour, pauses and reconnects warn.
    public static func role(for status: PublisherStatus) -> ThemeRole {
        switch status {
        case .idle: .idleBadge
        case .preview: .previewBadge
        case .connecting: .connectingBadge
        case .publishing: .liveBadge
        case .pausedVideo: .pausedBadge
        case .interrupted: .interruptedBadge
        case .awaitingTap: .awaitingBadge
        case .stalled: .reconnectingBadge
        case .reconnecting: .reconnectingBadge
        case .error: .errorBadge
        }
    }

    /// Columns the badge takes.
    public var width: Int { DisplayWidth.of(text) + 2 }

    public func render(in area: Rect, into buffer: inout CellBuffer, theme: Theme) {
        guard !area.isEmpty else { return }
        buffer.write(" \(text) ", in: area.row(0).top(1).columns([.length(width)])[0], style: theme[role])
    }
}
