/// One row of the key table: keys, the intent they map to, and how the footer and help overlay name it.
public struct KeyBinding: Sendable, Hashable {
    public var keys: [ConsoleKey]
    public var intent: ConsoleIntent
    /// The footer's short word ("call", "tap").
    public var label: String
    /// The help overlay's sentence.
    public var help: String

    public init(keys: [ConsoleKey], intent: ConsoleIntent, label: String, help: String) {
        self.keys = keys
        self.intent = intent
        self.label = label
        self.help = help
    }

    /// The keys as the footer shows them: `space/t`.
    public var keyText: String { keys.map(\.description).joined(separator: "/") }
}
