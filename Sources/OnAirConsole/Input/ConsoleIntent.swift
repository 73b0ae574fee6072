import OnAirCore

/// What the operator means by a key: keys map to intents through `KeyMap`, never straight to behaviour
/// (htop's `Action.c`, bottom's event table), so the same table can draw the footer and the help overlay.
public enum ConsoleIntent: Sendable, Hashable {
    /// Something that happens to the simulated phone app (c s d a h f space/t).
    case phone(OperatorAction)
    /// `v`: toggle Red5's `pauseVideo` on the publisher.
    case togglePauseVideo
    /// `m`: toggle `pauseAudio` on the publisher.
    case togglePauseAudio
    /// `p`: switch to the next interrupt policy.
    case nextPolicy
    /// `x`: stop the broadcast.
    case stopBroadcast
    /// `r`: start a broadcast — after `x`, or after an error, retry it; while one is under way, reconnect now.
    case startBroadcast
    /// `w`: the link goes down (the elevator), or comes back up.
    case toggleLink
    /// `W`: Wi-Fi → cellular: the stage resets the connections and opens a new path.
    case handoff
    /// `k`: the link's cap walks its presets (none, 2.5M, 800k, 300k).
    case cycleLinkCap
    /// `l`: the focused pane's event log on the whole screen, or back.
    case toggleLog
    /// PgUp / PgDn: scroll the focused pane's event log back or forward by a page.
    case scrollLog(up: Bool)
    /// `o`: show or hide the half-block preview.
    case togglePreview
    /// `?`: show or hide the help overlay.
    case toggleHelp
    /// `q`: quit (asks first while live).
    case quit
    /// Tab: give the keys to the other pane.
    case switchPane
    /// `y` in a confirmation.
    case confirm
    /// `n` / Esc in a confirmation or the help overlay.
    case cancel
}
