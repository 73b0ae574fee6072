import OnAirCore

/// The `onMetaData` object (FLV spec E.5) built from OnAir's track descriptions, and read back by players.
///
/// Field names and units are the ones FLV spec E.5 defines and nginx-rtmp/ffmpeg read: sizes in pixels,
/// rates in kbit/s, codec IDs from E.4.2.1/E.4.3.1. Written as an ECMA array, as FFmpeg and OBS do.
public enum FLVMetadata {
    /// Property names of E.5.
    public enum Key {
        public static let duration = "duration"
        public static let width = "width"
        public static let height = "height"
        public static let frameRate = "framerate"
        public static let videoDataRate = "videodatarate"
        public static let videoCodecID = "videocodecid"
        public static let audioDataRate = "audiodatarate"
        public static let audioSampleRate = "audiosamplerate"
        public static let audioSampleSize = "audiosamplesize"
        public static let stereo = "stereo"
        public static let audioCodecID = "audiocodecid"
        public static let encoder = "encoder"
    }

    static let bitsPerKilobit = 1000.0
    static let aacSampleSize = 16.0

    /// The metadata for a stream with these tracks.
    public static func onMetaData(video: VideoTrackDescription?, audio: AudioTrackDescription?, encoder: String = "OnAir") -> AMF0Value {
        var properties: [AMF0Value.Property] = [.init(Key.duration, .number(0))]
        if let video {
            properties += [
                .init(Key.width, .number(Double(video.width))),
                .init(Key.height, .number(Double(video.height))),
                .init(Key.videoDataRate, .number(Double(video.bitrate) / bitsPerKilobit)),
                .init(Key.frameRate, .number(video.framesPerSecond)),
                .init(Key.videoCodecID, .number(Double(FLVVideoTag.CodecID.avc.rawValue))),
            ]
        }
        if let audio {
            properties += [
                .init(Key.audioDataRate, .number(Double(audio.bitrate) / bitsPerKilobit)),
                .init(Key.audioSampleRate, .number(Double(audio.sampleRate))),
                .init(Key.audioSampleSize, .number(aacSampleSize)),
                .init(Key.stereo, .boolean(audio.channels > 1)),
                .init(Key.audioCodecID, .number(Double(FLVAudioTag.SoundFormat.aac.rawValue))),
            ]
        }
        properties.append(.init(Key.encoder, .string(encoder)))
        return .ecmaArray(properties)
    }
}
