/// What a publisher policy reacts to: the simulated notifications, and the timers it scheduled.
public enum PolicyInput: Sendable, Equatable {
    case notification(AppNotification)
    case timerFired(PublisherTimer)
}
