/// A command that does nothing now, and why: how every refusal is recorded, whichever way the command came
/// (a console key, a stdin line, a scenario's `press`) and whichever side it names. The side's event log
/// gets what was asked and then the reason, and the reason is shown as a toast (docs/design.md §1.1: "does
/// nothing except a short notice saying why"). The sessions write refusals through ``record(at:log:toasts:)``
/// and nowhere else.
public struct CommandRefusal: Sendable, Equatable {
    /// What was asked, as the log says it: `key decline`, `control stop`, `key link-down`.
    public var asked: String
    /// The rule's reason, as the sessions and the link stage give it.
    public var reason: String

    public init(asked: String, reason: String) {
        self.asked = asked
        self.reason = reason
    }

    func record(at now: SessionTime, log: inout EventLog, toasts: inout ToastQueue) {
        log.append(now, .key, asked)
        log.append(now, .key, "refused: \(reason)")
        toasts.post(Toast(text: reason, postedAt: now))
    }
}
