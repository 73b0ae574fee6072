/// The panes a console screen can hold; Tab moves the keys between them.
public enum ConsolePane: String, Sendable, Hashable, CaseIterable {
    case publisher
    case subscriber
}
