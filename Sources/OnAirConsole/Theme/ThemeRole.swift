/// What a piece of the screen means, so a theme can colour it: widgets ask for roles, never raw colours
/// (btop's `theme[...]` keys, htop's colour-scheme elements). Raw values are the names used in theme files.
public enum ThemeRole: String, Sendable, Hashable, CaseIterable {
    // Text and chrome.
    case text
    case muted
    case title
    case border
    case borderFocused
    case focusMarker
    case label
    case value
    // State badges.
    case idleBadge
    case previewBadge
    case connectingBadge
    case liveBadge
    case pausedBadge
    case interruptedBadge
    case awaitingBadge
    case reconnectingBadge
    case errorBadge
    // Flags and numbers.
    case flagOn
    case flagOff
    case sparkline
    case meterWarning
    // Transient notices.
    case toast
    case notice
    // Event log, one role per `EventSource`.
    case logTime
    case logKey
    case logLifecycle
    case logPolicy
    case logRTMP
    case logMessage
    case logEngine
    case logError
    // Footer, help, dialogs.
    case footer
    case footerKey
    case help
    case helpKey
    case helpUnavailable
    case dialog
    case previewPlaceholder
}
