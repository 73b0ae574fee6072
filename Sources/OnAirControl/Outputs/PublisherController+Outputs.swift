import OnAirCore

extension PublisherController {
    /// Tells outputs 2…N whether the broadcast wants to be on air: while it is connecting, live, stalled or
    /// reconnecting, and also after output 1 gave up (ERROR) — one output's failure never stops another.
    /// A stop (`x`, a policy's), a suspended app dropping off or an idle publisher stops them.
    func followedByOutputs() {
        guard let outputs else { return }
        let connection = session.connection
        var onAir = connection.isBroadcasting
        if case .failed = connection { onAir = true }
        outputs.follow(onAir: onAir, firstState: state.status.badge, firstConnections: state.connectionsOpened,
            firstLive: connection.isLive && connection.sendStall == nil)
    }
}
