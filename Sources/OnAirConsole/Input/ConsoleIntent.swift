import OnAirCore

/// What the operator means by a key: keys map to intents through `KeyMap`, never straight to behaviour
/// (htop's `Action.c`, bottom's event table), so the same table can draw the footer and the help overlay.
/// A key either gives an operator command — the very `OperatorCommand` a stdin line or a scenario press
/// gives, decided by the core's one rule — or changes only what the console shows.
public enum ConsoleIntent: Sendable, Hashable {
    /// An operator command (c s d a h f space/t v m p x r W), written as on the publisher pane; on the
    /// subscriber pane a gesture or link command goes to the subscriber's phone (`OperatorCommand.onSubscriber`).
    case command(OperatorCommand)
    /// `w`: the link goes down (the elevator), or comes back up: `link-down` or `link-up` by the stage's state.
    case toggleLink
    /// `k`: the link's cap walks its presets (none, 2.5M, 500k, 250k): the next `link-cap`/`link-uncap`.
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
    /// `C` / `A`: the camera / microphone (audio input) is lost, or given back: `camera-lost` or `camera-back` by how it
    /// stands (docs/devices.md).
    case toggleDevice(CaptureDevice)
    /// `]`: the output keys move to the next destination of several (issue 30; output 1, 2, …, N, 1): `r`
    /// then reconnects that output (`reconnect N`) and `X` stops or starts it. The owner keeps which one
    /// (the output group), so the console's own state does not grow.
    case focusNextOutput
    /// `X`: the focused output leaves the broadcast or joins it again (`output-stop N` / `output-start N`).
    case toggleFocusedOutput

    /// `r`: start a broadcast — after `x`, or after an error, retry it; while one is under way, reconnect now.
    public static let startBroadcast = ConsoleIntent.command(.publisher(.start(nil)))

    /// True for keys whose legality is the core's rule, not the console's.
    var reachesCore: Bool {
        switch self {
        case .command, .toggleLink, .cycleLinkCap, .toggleDevice: true
        case .togglePreview, .toggleHelp, .quit, .switchPane, .confirm, .cancel, .toggleLog, .scrollLog, .focusNextOutput, .toggleFocusedOutput: false
        }
    }
}
