/// The publish type of RTMP's `publish(name, type)` command and Red5's `R5RecordType`.
///
/// The seeds rely on the difference: `append` continues a recording from the point of
/// interruption (red5pro-blog-ios-interruptions.txt), `live` re-publishes without a file
/// (red5pro-publish-subscribe-telephony-interrupt.md).
public enum PublishType: String, Sendable, Equatable, CaseIterable, Codable {
    case live
    case record
    case append
}
