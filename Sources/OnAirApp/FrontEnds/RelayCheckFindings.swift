import OnAirNet
import Synchronization

/// What the relay check saw of the server, so a check without a verdict says what it found instead of
/// only "no verdict": whether the player was accepted, the publish started, the player got a status or
/// media, and the breaks of the spec both clients tolerated (a record-only server such as pyrtmp's README
/// example accepts a publisher and never answers `play`).
final class RelayCheckFindings: Sendable {
    struct Seen: Sendable {
        var playerConnected = false
        var publishStarted = false
        var playerStatuses: [String] = []
        var mediaPackets = 0
        var warnings: [String] = []

        mutating func observe(_ event: RTMPPlayer.Event) {
            switch event {
            case .status(let status): if playerStatuses.count < 8 { playerStatuses.append(status.code.rawValue) }
            case .packet: mediaPackets += 1
            case .warning(let text): warnings.append(text)
            default: break
            }
        }
    }

    private let seen = Mutex(Seen())

    func update(_ body: (inout Seen) -> Void) { seen.withLock { body(&$0) } }

    /// Each distinct warning once (the player and the publisher meet the same server).
    var warnings: [String] {
        seen.withLock { seen in seen.warnings.enumerated().filter { !seen.warnings[..<$0.offset].contains($0.element) }.map(\.element) }
    }

    /// One clause: how far the check got.
    var summary: String {
        let seen = seen.withLock { $0 }
        guard seen.playerConnected else { return "the player never got a stream to play on" }
        guard seen.publishStarted else { return "the server accepted the player but the publish never started" }
        if seen.playerStatuses.isEmpty && seen.mediaPackets == 0 {
            return "the server accepted the publisher (NetStream.Publish.Start) but never answered the player's play "
                + "(no status, no media): it records or ingests and does not play streams back, so subscribers cannot watch here"
        }
        let statuses = seen.playerStatuses.isEmpty ? "no status" : seen.playerStatuses.joined(separator: ", ")
        return "the publish started; the player got \(statuses) and \(seen.mediaPackets) media packets"
    }
}
