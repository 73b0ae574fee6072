#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// SIGINT / SIGTERM handling for the console.
///
/// Installed before `newterm`: if ncurses finds the default handler it installs its own, which restores the
/// terminal and calls `exit(1)` without running our cleanup (docs/platform-notes.md). Ours only sets a flag —
/// the one thing that is async-signal-safe — and the event loop sees it on its next `nextEvent`, then leaves
/// through the normal path that stops the broadcast and calls `endwin`.
public enum TerminalSignals {
    /// Set by SIGINT or SIGTERM.
    static let stopFlag = Atomic<Bool>(false)

    /// Whether a stop signal arrived since the last `reset()`.
    public static var stopRequested: Bool { stopFlag.load(ordering: .acquiring) }

    /// Forgets a stop request (tests; a front end that asked "really quit?").
    public static func reset() { stopFlag.store(false, ordering: .releasing) }

    /// Installs the flag-setting handler for SIGINT and SIGTERM. Idempotent.
    public static func install() {
        let handler: @convention(c) (Int32) -> Void = { _ in TerminalSignals.stopFlag.store(true, ordering: .releasing) }
        _ = signal(SIGINT, handler)
        _ = signal(SIGTERM, handler)
    }

    /// Puts the default handlers back once the terminal is restored, so a second Ctrl-C during a slow
    /// shutdown ends the process as the operator expects.
    public static func uninstall() {
        _ = signal(SIGINT, SIG_DFL)
        _ = signal(SIGTERM, SIG_DFL)
    }
}
