/// Reading an `onair demo` screen captured from tmux.
enum DemoScreen {
    /// The left half of a 160-column screen is the publisher's pane, the right half the subscriber's.
    static func pane(_ screen: String, publisher: Bool) -> String {
        screen.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                let characters = Array(line)
                let half = min(characters.count, 80)
                return String(publisher ? characters[..<half] : characters[half...])
            }
            .joined(separator: "\n")
    }
}
