/// Where the subscriber's connection is, with what belongs to that phase alone: the reconnect loop's
/// count of plays only while the loop runs, its retry time only while it waits. `SubscriberSession`
/// changes it in one function (`enter(_:at:timerRanOut:)`), which also starts and cancels the reconnect
/// timer, so the loop, its timer and the dashboard can never disagree.
public enum SubscriberPhase: Sendable, Equatable {
    case idle
    /// A play is under way. `loopPlays` is the reconnect loop's count of plays, this one included; nil
    /// for the operator's play.
    case connecting(loopPlays: Int?)
    /// Media of the current play is arriving.
    case playing
    /// Frames arrive, but each was captured before the newest one already shown: a relay's cache answering
    /// a new play, or held bytes let through — not live media. `loopPlays` as in `connecting`: the loop
    /// goes on when they stop.
    case replaying(loopPlays: Int?)
    /// Connected, no media of the current play yet (Play.Start, StreamNotFound or an unpublish).
    case waitingForPublisher
    /// Media was arriving and has stopped while the connection stays open.
    case stalled
    /// The reconnect loop waits for its timer to play again at `at`, after `plays` plays of its own.
    case reconnecting(plays: Int, at: SessionTime)
    case error(String)

    /// What the dashboard shows.
    public var connection: SubscriberConnection {
        switch self {
        case .idle: .idle
        case .connecting: .connecting
        case .playing: .playing
        case .replaying: .replaying
        case .waitingForPublisher: .waitingForPublisher
        case .stalled: .stalled
        case .reconnecting(_, let at): .reconnecting(at: at)
        case .error(let message): .error(message)
        }
    }

    /// The reconnect loop runs: from losing the stream until it is back or the operator stops.
    public var inReconnectLoop: Bool { loopPlays != nil }

    /// Plays the loop has started so far; nil outside the loop.
    public var loopPlays: Int? {
        switch self {
        case .connecting(let plays): plays
        case .replaying(let plays): plays
        case .reconnecting(let plays, _): plays
        case .idle, .playing, .waitingForPublisher, .stalled, .error: nil
        }
    }

    /// The loop waits for its timer.
    public var isWaitingToReplay: Bool {
        if case .reconnecting = self { return true }
        return false
    }
}
