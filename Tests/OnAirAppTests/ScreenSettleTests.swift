import OnAirTestSupport
import Testing

/// The tmux waits' rule (`TmuxSession.waitForScreen`, `ScreenSettle`): a screen counts only when the condition
/// holds on two consecutive captures, and the wait returns the second — so a frame caught half drawn (its
/// footer not there yet) is never the one a test checks.
@Suite("Screen settle")
struct ScreenSettleTests {
    /// Feeds captures `(screen, holds)` in order; returns each step.
    static func steps(_ captures: [(String, Bool)]) -> [ScreenSettle.Step] {
        var settle = ScreenSettle()
        return captures.map { settle.handle(screen: $0.0, holds: $0.1) }
    }

    @Test("a first hold is confirmed by a capture a moment later, and the wait returns that second, whole screen")
    func halfDrawnFrameIsNotReturned() {
        let halfDrawn = " PUBLISHING \n\n", whole = " PUBLISHING \n\nq quit  r retry"
        #expect(Self.steps([("", false), (halfDrawn, true), (whole, true)])
            == [.poll(after: ScreenSettle.poll), .confirm(after: ScreenSettle.confirmation), .matched(whole)])
    }

    @Test("a hold that does not last to the next capture starts over: two holds must be consecutive")
    func holdsMustBeConsecutive() {
        #expect(Self.steps([("a", true), ("b", false), ("c", true), ("d", true)])
            == [.confirm(after: ScreenSettle.confirmation), .poll(after: ScreenSettle.poll),
                .confirm(after: ScreenSettle.confirmation), .matched("d")])
    }

    @Test("a hold at the deadline still gets its confirming capture; the confirmation is far shorter than a toast")
    func confirmationOutlivesTheDeadline() {
        var settle = ScreenSettle()
        #expect(!settle.confirming)
        _ = settle.handle(screen: "x", holds: true)
        #expect(settle.confirming, "the owner must capture once more even past its deadline")
        _ = settle.handle(screen: "y", holds: false)
        #expect(!settle.confirming)
        // A toast lasts 3 s, a notice 4 s: a wait for either sees it on two captures.
        #expect(ScreenSettle.confirmation <= .milliseconds(100))
    }
}
