import OnAirCore
import OnAirRTMP

/// Tells whether a server relays custom AMF0 data messages from a publisher to its players — the
/// self-test of docs/design.md §3. Stock nginx-rtmp drops them silently (only `onMetaData` passes), so
/// Red5-style `publisherBackground` notices would be lost without anyone noticing.
///
/// The publisher sends ``message`` (a nonce under ``handler``) while a player is already playing the same
/// stream; the player feeds its events to ``observe(_:)``. RTMP runs over one TCP connection per hop and
/// servers relay a stream in order, so once the player has seen media stamped clearly *after* the probe
/// (``margin``, to allow for audio/video interleaving) without the probe itself, the probe is not coming:
/// the verdict is ``Verdict/dropped``. A value type with no clock or I/O, so every rule is testable.
public struct RTMPDataRelayCheck: Sendable, Equatable {
    /// The outcome.
    public enum Verdict: Sendable, Equatable {
        /// The probe reached the player: `send()` notices will reach subscribers.
        case relayed
        /// Media sent after the probe arrived without it: the server drops custom data messages.
        case dropped
    }

    /// The data message handler name of the probe.
    public static let handler = "onAirRelayCheck"
    /// How far past the probe's timestamp media must be before its absence counts.
    public static let margin: Int64 = 1000
    /// How many such packets must arrive first, so that one stray late packet does not decide.
    public static let packetsPastMargin = 5

    public let nonce: String
    /// The media timestamp (ms) the publisher stamped the probe with.
    public let sentAtTimestamp: Int64
    public private(set) var verdict: Verdict?
    private var packetsPast = 0

    public init(nonce: String, sentAtTimestamp: Int64) {
        self.nonce = nonce
        self.sentAtTimestamp = sentAtTimestamp
    }

    /// A fresh check with a random nonce.
    public static func random(sentAtTimestamp: Int64) -> RTMPDataRelayCheck {
        RTMPDataRelayCheck(nonce: String(UInt64.random(in: .min ... .max), radix: 36), sentAtTimestamp: sentAtTimestamp)
    }

    /// The probe's arguments for ``RTMPPublisher/send(handler:_:)`` with ``handler``.
    public var arguments: [AMF0Value] { [.string(nonce)] }

    /// Feeds one player event; returns the verdict once it is known (and keeps returning it).
    @discardableResult
    public mutating func observe(_ event: RTMPPlayer.Event) -> Verdict? {
        guard verdict == nil else { return verdict }
        switch event {
        case .message(Self.handler, let arguments) where arguments.first?.stringValue == nonce:
            verdict = .relayed
        case .packet(let packet) where packet.decodeTimestamp > sentAtTimestamp + Self.margin:
            packetsPast += 1
            if packetsPast >= Self.packetsPastMargin { verdict = .dropped }
        default:
            break
        }
        return verdict
    }
}
