/// A key as both sessions take it: written to the event log, and when refused, the reason logged and
/// shown as a notice (docs/design.md §1.1: "does nothing except a short notice saying why").
extension LifecycleSimulator {
    /// Returns the notifications to deliver, in order; empty when the key is refused.
    mutating func press(
        _ action: OperatorAction,
        at now: SessionTime,
        log: inout EventLog,
        toasts: inout ToastQueue
    ) -> [AppNotification] {
        switch handle(action) {
        case .refused(let reason):
            CommandRefusal(asked: "key \(action.rawValue)", reason: reason).record(at: now, log: &log, toasts: &toasts)
            return []
        case .delivered(let notifications):
            log.append(now, .key, "key \(action.rawValue)")
            return notifications
        }
    }
}
