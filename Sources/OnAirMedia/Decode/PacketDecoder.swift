import CFFmpeg
import OnAirCore

/// The subscriber side: H.264 and AAC/MP3/PCM `EncodedPacket`s in, a small RGB preview and an audio level out.
///
/// One decoder per track, each rebuilt only when *its* configuration really changes: stock servers repeat
/// sequence headers (nginx-rtmp sends each track's header just before its first frame, after the other
/// track's keyframe), and rebuilding the video decoder for an audio header threw away the keyframe it held.
/// A decoder being replaced, or a stream ending, is drained first (``drain()``), so the frames a B-frame
/// stream still holds in its reordering delay are decoded, not lost.
///
/// Red5's `pauseRender`/`resumeRender` semantics: while `renderPaused`, video packets are counted and
/// skipped without decoding (the app is in the background: no display, no CPU); on resume decoding waits
/// for the next keyframe, because the P-frames after a gap reference pictures the decoder never saw.
/// Blocking decode work belongs on its own thread: use `DecoderThread`, or own this from one thread.
public final class PacketDecoder {
    /// What one packet produced.
    public enum Output: Sendable, Equatable {
        case picture(DecodedPicture)
        case audio(AudioLevel)
        /// Nothing to show: skipped (paused, waiting for a keyframe) or the decoder needs more input.
        case nothing
    }

    public struct DecodedPicture: Sendable, Equatable {
        public var decodeTimestamp: Int64
        public var preview: PreviewImage
        /// The full-size picture, when the decoder was made with `keepsFullFrames` (for tests and quality checks).
        public var frame: VideoFrame?
        /// The frame number and capture instant the picture carries (the test pattern's), and when it was decoded.
        public var marker: FrameMarker? = nil
        public var decodedAtWallMicroseconds: UInt64 = 0
        /// The publisher's camera-loss slate (`CameraSlate.isSlate`), read only from pictures with a marker.
        public var isSlate = false
    }

    /// Loudness of one decoded audio frame, in dB relative to full scale (0 dBFS = full-scale square wave).
    public struct AudioLevel: Sendable, Equatable {
        public var decodeTimestamp: Int64
        public var rmsDBFS: Double
        public var peakDBFS: Double
        /// Stream time (ms) at which the test tone's once-a-second gap began in this frame, if it did.
        public var toneMarkMilliseconds: Double? = nil
    }

    public struct Counters: Sendable, Equatable {
        public var videoPacketsReceived = 0
        public var videoFramesDecoded = 0
        public var videoSkippedWhilePaused = 0
        public var videoSkippedAwaitingKeyframe = 0
        public var audioFramesDecoded = 0
        /// Times a track's decoder was drained (stream end, stall, rebuild, exit) and rebuilt.
        public var drains = 0
        public var rebuilds = 0
        public init() {}
    }

    /// The largest picture the subscriber decodes (``OnAirCore/PictureBound``): its preview never needs
    /// more, and a hostile SPS (16368×8000) otherwise makes libavcodec allocate gigabytes (issue 14).
    public static let maxPictureWidth = PictureBound.maxWidth
    public static let maxPictureHeight = PictureBound.maxHeight

    public let previewWidth: Int
    public let previewHeight: Int
    public private(set) var counters = Counters()
    /// While true, video packets are not decoded. Setting it back to false waits for the next keyframe.
    public var renderPaused = false {
        didSet { if oldValue && !renderPaused { awaitingKeyframe = true } }
    }

    private var video: DecoderContext?
    private var audio: DecoderContext?
    /// The configurations the open decoders were built from; a header equal to these changes nothing.
    private(set) var videoTrack: VideoTrackDescription?
    private(set) var audioTrack: AudioTrackDescription?
    /// The last configurations refused, so a header repeated by the server is one notice, not one per copy.
    private var refusedVideo: VideoTrackDescription?
    private var refusedAudio: AudioTrackDescription?
    private let keepsFullFrames: Bool
    private let scaler = FrameScaler()
    private var awaitingKeyframe = true
    /// The timestamp of the packet most recently sent to each decoder, for pictures that come out of a drain.
    private var lastVideoTimestamp: Int64 = 0
    private var lastAudioTimestamp: Int64 = 0
    private var toneGaps = ToneGapDetector()

    public init(
        video: VideoTrackDescription?, audio: AudioTrackDescription?,
        previewWidth: Int = 128, previewHeight: Int = 72, keepsFullFrames: Bool = false
    ) throws {
        self.previewWidth = previewWidth
        self.previewHeight = previewHeight
        self.keepsFullFrames = keepsFullFrames
        _ = try configureVideo(video)
        _ = try configureAudio(audio)
    }

    /// Opens the video decoder for `track`, unless it is already open with the same SPS and PPS. A decoder
    /// being replaced is drained first; its last picture is returned. Throws (leaving no video decoder)
    /// for a picture larger than ``maxPictureWidth``×``maxPictureHeight`` or a configuration libavcodec refuses.
    @discardableResult
    public func configureVideo(_ track: VideoTrackDescription?) throws -> Output {
        if let track, let current = videoTrack,
           current.sequenceParameterSets == track.sequenceParameterSets, current.pictureParameterSets == track.pictureParameterSets {
            return .nothing
        }
        if let track, track == refusedVideo { return .nothing }
        let drained = try drainVideo()
        video = nil
        videoTrack = nil
        awaitingKeyframe = true
        guard let track else { return drained }
        refusedVideo = track
        guard Self.pictureFits(width: track.width, height: track.height) else {
            throw MediaError.formatUnsupported(
                "picture \(track.width)×\(track.height) is larger than the \(Self.maxPictureWidth)×\(Self.maxPictureHeight) "
                    + "OnAir's subscriber decodes; video not decoded, audio goes on")
        }
        // Frames are allocated at the coded size: a cropped SPS must not hide a huge one (issue 29).
        guard Self.pictureFits(width: track.codedWidth, height: track.codedHeight) else {
            throw MediaError.formatUnsupported(
                "picture coded at \(track.codedWidth)×\(track.codedHeight) (shown cropped to \(track.width)×\(track.height)) is larger than "
                    + "the \(Self.maxPictureWidth)×\(Self.maxPictureHeight) OnAir's subscriber decodes; video not decoded, audio goes on")
        }
        video = try DecoderContext(
            AV_CODEC_ID_H264, name: "h264",
            extradata: AnnexB.join(track.sequenceParameterSets + track.pictureParameterSets)
        ) { context in
            // Output each picture as soon as it is decoded: no frame-threading delay for a live preview.
            context.pointee.thread_count = 1
            context.pointee.flags |= Int32(AV_CODEC_FLAG_LOW_DELAY)
            // The same bound for an SPS that arrives in-band, inside a keyframe, after the check above.
            context.pointee.max_pixels = Int64(PictureBound.maxPixels)
            // libavcodec checks max_pixels against the cropped size; the last line refuses any frame
            // buffer whose coded size is over the bound, wherever its SPS came from.
            onair_use_bounded_get_buffer2(context)
        }
        videoTrack = track
        refusedVideo = nil
        counters.rebuilds += 1
        return drained
    }

    /// Opens the audio decoder for `track` unless it is already open with the same configuration; a decoder
    /// being replaced is drained first. Throws (leaving no audio decoder) when libavcodec refuses it —
    /// video decoding is not affected.
    @discardableResult
    public func configureAudio(_ track: AudioTrackDescription?) throws -> Output {
        if let track, let current = audioTrack, Self.sameAudioConfiguration(current, track) { return .nothing }
        if let track, track == refusedAudio { return .nothing }
        let drained = try drainAudio()
        audio = nil
        audioTrack = nil
        guard let track else { return drained }
        refusedAudio = track
        let (id, name) = Self.libavCodec(for: track.codec)
        audio = try DecoderContext(id, name: name, extradata: track.codec == .aac ? track.audioSpecificConfig : []) { context in
            if track.sampleRate > 0 { context.pointee.sample_rate = Int32(track.sampleRate) }
            onair_channel_layout_default(&context.pointee.ch_layout, Int32(max(1, track.channels)))
        }
        audioTrack = track
        refusedAudio = nil
        counters.rebuilds += 1
        return drained
    }

    /// Decodes what both decoders still hold (the end of a stream: unpublish, stall, exit) and readies them
    /// for the next stream, which starts at a keyframe. Returns the last picture, else the last audio level.
    @discardableResult
    public func drain() throws -> Output {
        let picture = try drainVideo()
        let level = try drainAudio()
        awaitingKeyframe = true
        return picture == .nothing ? level : picture
    }

    /// Decodes one packet (video packets while `renderPaused` are only counted).
    public func decode(_ packet: EncodedPacket) throws -> Output {
        switch packet.kind {
        case .video: return try decodeVideo(packet)
        case .audio: return try decodeAudio(packet)
        }
    }

    static func pictureFits(width: Int, height: Int) -> Bool {
        PictureBound.fits(width: width, height: height)
    }

    private static func sameAudioConfiguration(_ a: AudioTrackDescription, _ b: AudioTrackDescription) -> Bool {
        guard a.codec == b.codec else { return false }
        // AAC carries its configuration in the AudioSpecificConfig; the others in the FLV tag's format byte.
        return a.codec == .aac ? a.audioSpecificConfig == b.audioSpecificConfig : a.sampleRate == b.sampleRate && a.channels == b.channels
    }

    private static func libavCodec(for codec: AudioCodec) -> (AVCodecID, String) {
        switch codec {
        case .aac: (AV_CODEC_ID_AAC, "aac")
        case .mp3: (AV_CODEC_ID_MP3, "mp3")
        case .pcm(let bits) where bits == 8: (AV_CODEC_ID_PCM_U8, "pcm_u8")
        case .pcm: (AV_CODEC_ID_PCM_S16LE, "pcm_s16le")
        case .g711ALaw: (AV_CODEC_ID_PCM_ALAW, "pcm_alaw")
        case .g711MuLaw: (AV_CODEC_ID_PCM_MULAW, "pcm_mulaw")
        }
    }

    private func drainVideo() throws -> Output {
        guard let video else { return .nothing }
        var output = Output.nothing
        counters.drains += 1
        try video.drain(name: "h264") { frame in output = try picture(from: frame, timestamp: lastVideoTimestamp) }
        return output
    }

    private func drainAudio() throws -> Output {
        guard let audio, let name = audioTrack.map({ Self.libavCodec(for: $0.codec).1 }) else { return .nothing }
        var output = Output.nothing
        counters.drains += 1
        try audio.drain(name: name) { frame in
            counters.audioFramesDecoded += 1
            output = .audio(PacketDecoder.level(of: frame, timestamp: lastAudioTimestamp))
        }
        return output
    }

    private func decodeVideo(_ packet: EncodedPacket) throws -> Output {
        guard let video else { return .nothing }
        counters.videoPacketsReceived += 1
        if renderPaused {
            counters.videoSkippedWhilePaused += 1
            return .nothing
        }
        if awaitingKeyframe {
            guard packet.isKeyframe else {
                counters.videoSkippedAwaitingKeyframe += 1
                return .nothing
            }
            awaitingKeyframe = false
        }
        var output = Output.nothing
        lastVideoTimestamp = packet.decodeTimestamp
        try video.decode(packet.payload, pts: packet.presentationTimestamp, name: "h264") { frame in
            output = try picture(from: frame, timestamp: packet.decodeTimestamp)
        }
        return output
    }

    private func picture(from frame: UnsafeMutablePointer<AVFrame>, timestamp: Int64) throws -> Output {
        counters.videoFramesDecoded += 1
        let height = Int(frame.pointee.height)
        let marker = PacketDecoder.marker(in: frame)
        // The marker row changes every frame: left in the preview it would repaint a row of cells each
        // refresh, bytes to the terminal that show nothing a viewer can read. A picture no taller than the
        // band keeps it: it is all there is, and libswscale refuses a source 0 rows tall.
        let band = FrameMarker.bandHeight(pictureHeight: height)
        let skip = marker != nil && height > band ? band : 0
        let strides = [frame.pointee.linesize.0, frame.pointee.linesize.1, frame.pointee.linesize.2]
        let source = FrameScaler.Picture(
            format: AVPixelFormat(frame.pointee.format), width: Int(frame.pointee.width), height: height - skip,
            planes: [
                UnsafePointer(frame.pointee.data.0.map { $0 + skip * Int(strides[0]) }),
                UnsafePointer(frame.pointee.data.1.map { $0 + skip / 2 * Int(strides[1]) }),
                UnsafePointer(frame.pointee.data.2.map { $0 + skip / 2 * Int(strides[2]) }),
            ],
            strides: strides, readableBytesAfter: FrameScaler.sourcePadding)   // a libavcodec frame: padded
        var rgb = [UInt8](repeating: 0, count: previewWidth * previewHeight * 3)
        try rgb.withUnsafeMutableBufferPointer { buffer in
            try scaler.scale(
                source, into: [buffer.baseAddress], strides: [Int32(previewWidth * 3)], format: AV_PIX_FMT_RGB24,
                width: previewWidth, height: previewHeight, flags: SWS_AREA)
        }
        let full = keepsFullFrames ? PacketDecoder.copyI420(frame, timestamp: frame.pointee.pts) : nil
        return .picture(DecodedPicture(
            decodeTimestamp: timestamp, preview: PreviewImage(width: previewWidth, height: previewHeight, rgb: rgb), frame: full,
            marker: marker, decodedAtWallMicroseconds: WallClock.nowMicroseconds(),
            isSlate: marker != nil && PacketDecoder.isSlate(frame)))
    }

    private func decodeAudio(_ packet: EncodedPacket) throws -> Output {
        guard let audio, let name = audioTrack.map({ Self.libavCodec(for: $0.codec).1 }) else { return .nothing }
        var output = Output.nothing
        lastAudioTimestamp = packet.decodeTimestamp
        try audio.decode(packet.payload, pts: packet.decodeTimestamp, name: name) { frame in
            counters.audioFramesDecoded += 1
            var level = PacketDecoder.level(of: frame, timestamp: packet.decodeTimestamp)
            level.toneMarkMilliseconds = toneMark(in: frame, timestamp: packet.decodeTimestamp)
            output = .audio(level)
        }
        return output
    }

    /// The start of the tone's gap in the first channel of a planar-float frame, as stream time.
    private func toneMark(in frame: UnsafeMutablePointer<AVFrame>, timestamp: Int64) -> Double? {
        guard frame.pointee.format == AV_SAMPLE_FMT_FLTP.rawValue, let plane = frame.pointee.data.0 else { return nil }
        let samples = UnsafeBufferPointer(
            start: UnsafeRawPointer(plane).assumingMemoryBound(to: Float.self), count: Int(frame.pointee.nb_samples))
        return toneGaps.feed(samples, firstMilliseconds: Double(timestamp), sampleRate: Double(frame.pointee.sample_rate))
    }

    private static func isSlate(_ frame: UnsafeMutablePointer<AVFrame>) -> Bool {
        guard let luma = frame.pointee.data.0, frame.pointee.linesize.0 > 0 else { return false }
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height), stride = Int(frame.pointee.linesize.0)
        return CameraSlate.isSlate(luma: UnsafeBufferPointer(start: luma, count: height * stride), stride: stride, width: width, height: height)
    }

    /// The `FrameMarker` in the top rows of a decoded 8-bit YUV picture, if it carries one.
    private static func marker(in frame: UnsafeMutablePointer<AVFrame>) -> FrameMarker? {
        let format = frame.pointee.format
        guard format == AV_PIX_FMT_YUV420P.rawValue || format == AV_PIX_FMT_YUVJ420P.rawValue,
              let luma = frame.pointee.data.0, frame.pointee.linesize.0 > 0 else { return nil }
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height), stride = Int(frame.pointee.linesize.0)
        let rows = FrameMarker.bandHeight(pictureHeight: height)
        guard height >= rows else { return nil }
        return FrameMarker.read(
            luma: UnsafeBufferPointer(start: luma, count: (rows - 1) * stride + width), stride: stride, width: width, height: height)
    }
}
