/// The `NetStream.Play.*` status codes a player acts on (docs/design.md §3).
public enum PlayStatus: String, Sendable, Equatable, CaseIterable, Codable {
    case start = "NetStream.Play.Start"
    case reset = "NetStream.Play.Reset"
    case stop = "NetStream.Play.Stop"
    case publishNotify = "NetStream.Play.PublishNotify"
    case unpublishNotify = "NetStream.Play.UnpublishNotify"
    case streamNotFound = "NetStream.Play.StreamNotFound"
}
