/// One compressed access unit on its way from an encoder to a muxer, or from a demuxer to a decoder.
///
/// This is the only media type that crosses from `OnAirMedia` to `OnAirRTMP` / `OnAirNet` and back
/// (docs/design.md §2): the wire code never sees libav types, and the codecs never see RTMP.
///
/// Video payloads are always **Annex-B** (start-code delimited NAL units), the form libx264 emits and
/// libavcodec's H.264 decoder accepts; the FLV layer converts to and from length-prefixed NAL units at the
/// boundary. Audio payloads are raw AAC frames (no ADTS header).
public struct EncodedPacket: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable, Codable {
        case video
        case audio
    }

    public var kind: Kind
    /// Decode timestamp on the stream clock, in milliseconds (RTMP's resolution, RTMP spec §5.3.1.1).
    public var decodeTimestamp: Int64
    /// Presentation minus decode time, in milliseconds (FLV's CompositionTime, E.4.3.1). Zero without B-frames.
    public var compositionOffset: Int32
    /// A video keyframe (IDR): decoding can start here. Always true for audio.
    public var isKeyframe: Bool
    /// The compressed bytes (see the type's note on Annex-B).
    public var payload: [UInt8]
    /// Monotonic time the source captured this media, in nanoseconds, when known.
    /// Used for capture → socket latency; never sent on the wire.
    public var captureNanoseconds: UInt64?

    public init(
        kind: Kind,
        decodeTimestamp: Int64,
        compositionOffset: Int32 = 0,
        isKeyframe: Bool,
        payload: [UInt8],
        captureNanoseconds: UInt64? = nil
    ) {
        self.kind = kind
        self.decodeTimestamp = decodeTimestamp
        self.compositionOffset = compositionOffset
        self.isKeyframe = isKeyframe
        self.payload = payload
        self.captureNanoseconds = captureNanoseconds
    }

    /// Presentation timestamp in milliseconds.
    public var presentationTimestamp: Int64 { decodeTimestamp + Int64(compositionOffset) }
}
