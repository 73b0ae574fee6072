/// The audio codecs a subscriber decodes, as FLV's SoundFormat names them (FLV spec E.4.2.1).
///
/// Why more than AAC: stock encoders (ffmpeg `-c:a libmp3lame` or `pcm_s16le`, old Flash encoders) still
/// publish MP3 and linear PCM over RTMP, and libavcodec decodes both for almost nothing.
public enum AudioCodec: Sendable, Equatable {
    case aac
    case mp3
    /// Linear PCM: 8-bit unsigned or 16-bit signed little-endian samples (SoundSize).
    case pcm(bitsPerSample: Int)
    case g711ALaw
    case g711MuLaw

    /// The codec's name as an operator reads it.
    public var name: String {
        switch self {
        case .aac: "AAC"
        case .mp3: "MP3"
        case .pcm(let bits): "PCM \(bits)-bit"
        case .g711ALaw: "G.711 A-law"
        case .g711MuLaw: "G.711 µ-law"
        }
    }

    /// What the subscriber decodes, for notices about codecs it does not.
    public static let decodedNames = "AAC, MP3, PCM and G.711"
}
