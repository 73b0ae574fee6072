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
        log.append(now, .key, "key \(action.rawValue)")
        switch handle(action) {
        case .refused(let reason):
            log.append(now, .key, "refused: \(reason)")
            toasts.post(Toast(text: reason, postedAt: now))
            return []
        case .delivered(let notifications):
            return notifications
        }
    }
}
