import NIOCore

/// The fan-out's fast path to a player that keeps up (GitHub issue 31).
///
/// Why: profiled at `--audio-merge-ms 0` with 100 players, most of the fan-out loop's own time was cache
/// misses — for each player, each message, the loop read the player, the handler's reference count, its
/// context, writability, queue, direct socket and counters, all on different cache lines that the kernel's
/// TCP work between two messages had evicted. So a player whose last batch went whole to its socket is
/// *armed*: its slot in its group (``RelayStream/Group/Slot``, an array beside the other players' slots)
/// holds the socket's number, and the next batch is sent from the slot alone, without touching the player
/// or the handler.
///
/// The one rule that keeps bytes in order and every bound of the hardening: a player stays armed only
/// while the handler would itself have sent straight to the socket — NIO holds none of its bytes, its queue
/// is empty, it is writable, open and not skipping to a keyframe. So the handler disarms its players
/// *before* anything that breaks that (a write through NIO's pipeline, a queued item, lost writability,
/// closing, closing the duplicate descriptor), and only the fan-out re-arms, after a batch went whole to the
/// socket through the handler's own checks. A disarmed player takes the handler's path, as before.
extension RelayConnectionHandler {
    /// What ``writeIfKeepingUp(_:for:)`` did with a batch.
    enum BatchWrite: Equatable {
        /// All of it went to the socket with `send(2)`: the player may be armed.
        case direct
        /// Written, `sentDirectly` bytes of it to the socket and the rest through NIO's pipeline.
        case throughNIO(sentDirectly: Int)
        /// Nothing written: the player is behind (the batch goes message by message through its queue).
        case notKeepingUp
    }

    /// Arms `player` after a batch of its went whole to the socket (``writeIfKeepingUp(_:for:)`` said `.direct`).
    func arm(_ player: RelayStream.Player) {
        guard let direct, direct.isOpen, context != nil, player.handler === self, let group = player.group,
              group.slots[player.slot].descriptor < 0 else { return }
        group.slots[player.slot].descriptor = direct.descriptor
        armedPlayers.append(player)
    }

    /// Disarms one player (it stops playing).
    func disarm(_ player: RelayStream.Player) {
        guard player.isArmed else { return }
        settle(player)
        armedPlayers.removeAll { $0 === player }
    }

    /// Disarms every player of this connection: the next batch goes through the handler's checks.
    func disarmAll() {
        guard !armedPlayers.isEmpty else { return }
        for player in armedPlayers { settle(player) }
        armedPlayers.removeAll(keepingCapacity: true)
    }

    /// Clears the player's slot, its bytes now counted by the player and this connection.
    private func settle(_ player: RelayStream.Player) {
        guard let group = player.group else { return }
        let bytes = group.slots[player.slot].bytes
        bytesOut += bytes
        player.countedBytes += bytes
        group.slots[player.slot] = RelayStream.Group.Slot()
    }

    /// What is left of `player`'s batch the fast path's `send(2)` did not take whole (socket full, or
    /// failed): it goes through NIO's pipeline and is flushed, as ``writeIfKeepingUp(_:for:)`` does with its rest.
    func writeRest(_ rest: ByteBuffer, for player: RelayStream.Player) {
        disarmAll()
        guard let context else { return }
        needsFlush = false
        writeThroughPipeline(rest, for: player, flush: true, context: context)
    }
}
