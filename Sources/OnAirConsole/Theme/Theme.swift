/// Semantic roles mapped to styles, over a built-in default: a theme file only names what it changes.
public struct Theme: Sendable, Equatable {
    /// The theme's name (its file name without `.theme`).
    public var name: String
    /// A one-line description from the file's `description = "…"` line, for `onair themes`.
    public var summary: String
    /// Only the roles this theme sets; everything else comes from `Theme.builtInDefault`.
    public private(set) var overrides: [ThemeRole: Style]
    /// The terminal shows ASCII only (a locale that is not UTF-8, `LANG=C`): widgets that draw shapes in
    /// quadrant blocks, which ASCII cannot keep (the big digits), draw plain text instead.
    public var asciiOnly = false

    public init(name: String, summary: String = "", overrides: [ThemeRole: Style] = [:]) {
        self.name = name
        self.summary = summary
        self.overrides = overrides
    }

    /// The style of a role: this theme's own, or the built-in default's.
    public subscript(role: ThemeRole) -> Style {
        get { overrides[role] ?? Self.defaultStyles[role] ?? .plain }
        set { overrides[role] = newValue }
    }

    /// The styles every theme falls back to. Written for a dark 256-colour terminal, and readable on 8 colours
    /// because every colour is chosen near an ANSI one and the badges also differ by text.
    public static let builtInDefault = Theme(name: "default", summary: "built-in dark theme")

    static let defaultStyles: [ThemeRole: Style] = {
        func s(_ fg: TerminalColor, on bg: TerminalColor = .default, _ attributes: TextAttributes = []) -> Style {
            Style(foreground: fg, background: bg, attributes: attributes)
        }
        return [
            .text: .plain,
            .muted: s(.indexed(245)),
            .title: s(.default, [.bold]),
            .border: s(.indexed(240)),
            .borderFocused: s(.ansi(6), [.bold]),
            .focusMarker: s(.ansi(6), [.bold]),
            .label: s(.indexed(245)),
            .value: s(.default, [.bold]),
            .idleBadge: s(.ansi(0), on: .indexed(250), [.bold]),
            .previewBadge: s(.ansi(0), on: .ansi(6), [.bold]),
            .connectingBadge: s(.ansi(0), on: .ansi(3), [.bold]),
            .liveBadge: s(.ansi(15), on: .ansi(1), [.bold]),
            .pausedBadge: s(.ansi(0), on: .ansi(3), [.bold]),
            .interruptedBadge: s(.ansi(0), on: .ansi(5), [.bold]),
            .awaitingBadge: s(.ansi(0), on: .ansi(6), [.bold]),
            .reconnectingBadge: s(.ansi(0), on: .ansi(3), [.bold]),
            .errorBadge: s(.ansi(15), on: .indexed(124), [.bold]),
            .flagOn: s(.ansi(3), [.bold]),
            .flagOff: s(.indexed(242)),
            .sparkline: s(.ansi(2)),
            .meterWarning: s(.ansi(3), [.bold]),
            .toast: s(.ansi(0), on: .ansi(3), [.bold]),
            .notice: s(.ansi(3)),
            .logTime: s(.indexed(242)),
            .logKey: s(.ansi(6)),
            .logLifecycle: s(.ansi(5)),
            .logPolicy: s(.ansi(3)),
            .logRTMP: s(.ansi(2)),
            .logMessage: s(.ansi(4), [.bold]),
            .logEngine: s(.indexed(245)),
            .logError: s(.ansi(1), [.bold]),
            .footer: s(.indexed(250), on: .indexed(236)),
            .footerKey: s(.ansi(0), on: .ansi(6), [.bold]),
            .help: s(.default, on: .indexed(235)),
            .helpKey: s(.ansi(6), on: .indexed(235), [.bold]),
            .helpUnavailable: s(.indexed(242), on: .indexed(235)),
            .dialog: s(.ansi(15), on: .indexed(52), [.bold]),
            .previewPlaceholder: s(.indexed(242)),
        ]
    }()
}
