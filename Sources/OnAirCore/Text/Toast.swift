/// A transient notice centred on a pane, as the seeds' `ALToastView.toast(in:withText:)`:
/// "Tap to Re-Publish!", "Publish Background", "Publisher Foreground".
public struct Toast: Sendable, Equatable, Codable {
    public var text: String
    public var postedAt: SessionTime
    /// How long it stays on screen, in milliseconds.
    public var lifetimeMilliseconds: Int64

    public static let defaultLifetimeMilliseconds: Int64 = 3000

    public init(text: String, postedAt: SessionTime, lifetimeMilliseconds: Int64 = Toast.defaultLifetimeMilliseconds) {
        self.text = text
        self.postedAt = postedAt
        self.lifetimeMilliseconds = lifetimeMilliseconds
    }

    public func isVisible(at now: SessionTime) -> Bool {
        now.milliseconds >= postedAt.milliseconds && now.milliseconds < postedAt.milliseconds + lifetimeMilliseconds
    }
}
