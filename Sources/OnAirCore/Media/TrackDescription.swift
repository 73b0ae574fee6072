/// What a subscriber needs to set up its decoders, and what `onMetaData` and the
/// FLV sequence headers are built from.
public struct VideoTrackDescription: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var framesPerSecond: Double
    /// Target bitrate in bits per second.
    public var bitrate: Int
    /// H.264 sequence parameter sets, each a bare NAL unit (no start code).
    public var sequenceParameterSets: [[UInt8]]
    /// H.264 picture parameter sets, each a bare NAL unit (no start code).
    public var pictureParameterSets: [[UInt8]]
    /// The largest coded (uncropped) size among the sequence parameter sets, when a player read them;
    /// 0 when unknown. Decoders allocate at this size, so picture bounds are checked against it.
    public var codedWidth = 0
    public var codedHeight = 0

    public init(
        width: Int,
        height: Int,
        framesPerSecond: Double,
        bitrate: Int,
        sequenceParameterSets: [[UInt8]],
        pictureParameterSets: [[UInt8]]
    ) {
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.bitrate = bitrate
        self.sequenceParameterSets = sequenceParameterSets
        self.pictureParameterSets = pictureParameterSets
    }
}

public struct AudioTrackDescription: Sendable, Equatable {
    /// AAC unless a stock peer sends MP3 or PCM (the rest of the fields describe that codec then).
    public var codec: AudioCodec
    public var sampleRate: Int
    public var channels: Int
    /// Target bitrate in bits per second.
    public var bitrate: Int
    /// The AAC AudioSpecificConfig (ISO 14496-3 §1.6.2.1), usually two bytes; empty for other codecs.
    public var audioSpecificConfig: [UInt8]

    public init(sampleRate: Int, channels: Int, bitrate: Int, audioSpecificConfig: [UInt8], codec: AudioCodec = .aac) {
        self.codec = codec
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitrate = bitrate
        self.audioSpecificConfig = audioSpecificConfig
    }
}
