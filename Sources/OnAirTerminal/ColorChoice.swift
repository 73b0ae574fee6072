import OnAirConsole

/// `--color auto|always|never`, as ls, grep and git spell it.
public enum ColorChoice: String, Sendable, Equatable, CaseIterable {
    /// Colour when the terminal has it, unless `NO_COLOR` is set or the theme has no colours.
    case auto
    /// Colour whenever the terminal has it, even with `NO_COLOR` set.
    case always
    /// No colour at all: attributes only, a 1-bit preview.
    case never

    /// The colour mode to force on the terminal, or nil to use what it reports.
    /// `themeDrawsColour` false (`--theme monochrome`) means no colour anywhere, the preview included.
    public func forcedMode(environment: [String: String], themeDrawsColour: Bool) -> TerminalColorMode? {
        switch self {
        case .never: .monochrome
        case .always: nil
        case .auto: themeDrawsColour ? TerminalColorMode.override(environment: environment) : .monochrome
        }
    }
}
