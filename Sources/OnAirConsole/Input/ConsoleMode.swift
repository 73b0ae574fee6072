/// What the console is showing on top of the dashboards: it decides which keys mean anything.
public enum ConsoleMode: Sendable, Hashable {
    case normal
    case help
    case confirmingQuit
}
