/// When a wait for a tmux screen is over: the condition must hold on two consecutive captures, the second
/// taken ``confirmation`` after the first, and the wait returns the second.
///
/// Why: tmux reads the program's output in chunks, so a capture can land between two of them and show a frame
/// drawn half-way — after a clear, the top of the new screen with its footer not drawn yet (seen twice in
/// TruthConsoleTests). The condition a test waits for is often at the top; what it then checks of the
/// returned screen may be lower down. Drawing a frame takes milliseconds; the confirming capture comes
/// ``confirmation`` later, when that frame is whole. Between frames only changed cells are rewritten, so a
/// later capture caught mid-frame still shows the unchanged footer.
///
/// Why not "the screen is unchanged across two captures": the console refreshes up to 30 times a second (its
/// preview, timers and rates), so two equal captures may never come, and on a loaded machine less often still
/// — a wait would depend on the load. Two holds in a row need no quiet screen, and a state the tests wait for
/// deliberately lasts long enough for two captures: a toast 3 s, a notice 4 s, a countdown or a badge while
/// its condition lasts.
///
/// A value that returns what to do next; the owner (``TmuxSession``) captures and sleeps.
public struct ScreenSettle: Sendable {
    /// How long after a first hold the confirming capture is taken: far longer than drawing a frame takes,
    /// far shorter than a state the tests wait for lasts.
    public static let confirmation: Duration = .milliseconds(50)
    /// How often the screen is captured while the condition does not hold.
    public static let poll: Duration = .milliseconds(100)

    /// What the owner does after a capture.
    public enum Step: Equatable, Sendable {
        /// The condition held twice in a row: the wait is over, with this (the second) screen.
        case matched(String)
        /// The condition held once: capture again after ``confirmation`` (even past the deadline, so that a
        /// hold found just in time is not lost).
        case confirm(after: Duration)
        /// Capture again after ``poll``, if the deadline allows.
        case poll(after: Duration)
    }

    private var heldOnLastCapture = false

    public init() {}

    /// Whether the owner must take the next capture even past its deadline (a hold waits for confirmation).
    public var confirming: Bool { heldOnLastCapture }

    /// Takes one capture and whether the condition held on it.
    public mutating func handle(screen: String, holds: Bool) -> Step {
        defer { heldOnLastCapture = holds }
        if holds && heldOnLastCapture { return .matched(screen) }
        return holds ? .confirm(after: Self.confirmation) : .poll(after: Self.poll)
    }
}
