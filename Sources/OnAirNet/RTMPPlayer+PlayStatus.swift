import OnAirCore

extension RTMPPlayer.Event {
    /// The `onStatus` code as the app acts on it (nil for any other event or a code it does not know),
    /// so the app reads a player's status without the wire's `RTMPStatus`.
    public var playStatus: PlayStatus? {
        guard case .status(let status) = self else { return nil }
        return PlayStatus(rawValue: status.code.rawValue)
    }
}
