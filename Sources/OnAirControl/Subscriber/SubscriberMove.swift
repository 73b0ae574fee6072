import OnAirCore
import OnAirNet

/// A play moving where a server's ReconnectRequest (Enhanced RTMP v2) sent it, make before break: the new
/// connection plays while the old one keeps the picture, and ``SubscriberController`` switches once the new
/// one has caught up with what the old one showed (a relay answers a new play with its cached GOP, frames the
/// old connection already delivered), then leaves the old one. Before, the old connection was closed first:
/// the picture stopped for the new connection's connect and play, then went back over the cached GOP.
struct SubscriberMove {
    /// The generation the new connection's reports carry.
    let id: Int
    let player: RTMPPlayer
    let target: StreamURL
    let since: SessionTime
    /// What the new connection announced before the switch, applied at the switch (a decoder is rebuilt only
    /// when a configuration differs, so the same tracks again cost nothing).
    var videoTrack: RTMPPlayer.Event?
    var audioTrack: RTMPPlayer.Event?
    var metadata: RTMPPlayer.Event?
    /// The timestamp of the last frame the old connection delivered (video; audio when the stream has none),
    /// across publish sessions: the new connection has caught up when it brings this one or a later one.
    /// (A publisher that moves keeps its timestamps, and the relay passes them on unchanged.)
    var oldNewest: Int64?
    /// Media packets of the new connection dropped before the switch: the old connection had delivered them.
    var skipped = 0
}
