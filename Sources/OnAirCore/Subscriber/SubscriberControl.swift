/// The subscriber's console controls.
public enum SubscriberControl: String, Sendable, Equatable, CaseIterable, Codable {
    case play
    case stop
}
