/// Where sound comes from.
public enum AudioSourceSpec: Sendable, Equatable, CustomStringConvertible {
    /// A sine tone.
    case tone(frequency: Double)
    /// A PCM s16 .wav file, looped.
    case wavFile(String)
    /// An ALSA PCM name: hw:0, default, plughw:1,0, …
    case alsa(String)

    public var description: String {
        switch self {
        case let .tone(frequency): return "\(Int(frequency)) Hz tone"
        case let .wavFile(path): return path
        case let .alsa(name): return "ALSA \(name)"
        }
    }
}
