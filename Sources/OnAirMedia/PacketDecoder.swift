import CFFmpeg
import OnAirCore

/// The subscriber side: H.264 and AAC `EncodedPacket`s in, a small RGB preview and an audio level out.
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
    }

    /// Loudness of one decoded AAC frame, in dB relative to full scale (0 dBFS = full-scale square wave).
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
        public init() {}
    }

    public let previewWidth: Int
    public let previewHeight: Int
    public private(set) var counters = Counters()
    /// While true, video packets are not decoded. Setting it back to false waits for the next keyframe.
    public var renderPaused = false {
        didSet { if oldValue && !renderPaused { awaitingKeyframe = true } }
    }

    private let video: DecoderContext?
    private let audio: DecoderContext?
    private let keepsFullFrames: Bool
    private let scaler = FrameScaler()
    private var awaitingKeyframe = true
    private var toneGaps = ToneGapDetector()

    public init(
        video: VideoTrackDescription?, audio: AudioTrackDescription?,
        previewWidth: Int = 64, previewHeight: Int = 36, keepsFullFrames: Bool = false
    ) throws {
        self.previewWidth = previewWidth
        self.previewHeight = previewHeight
        self.keepsFullFrames = keepsFullFrames
        if let video {
            self.video = try DecoderContext(
                AV_CODEC_ID_H264, name: "h264",
                extradata: AnnexB.join(video.sequenceParameterSets + video.pictureParameterSets)
            ) { context in
                // Output each picture as soon as it is decoded: no frame-threading delay for a live preview.
                context.pointee.thread_count = 1
                context.pointee.flags |= Int32(AV_CODEC_FLAG_LOW_DELAY)
            }
        } else {
            self.video = nil
        }
        if let audio {
            self.audio = try DecoderContext(AV_CODEC_ID_AAC, name: "aac", extradata: audio.audioSpecificConfig) { context in
                context.pointee.sample_rate = Int32(audio.sampleRate)
                onair_channel_layout_default(&context.pointee.ch_layout, Int32(audio.channels))
            }
        } else {
            self.audio = nil
        }
    }

    /// Decodes one packet (video packets while `renderPaused` are only counted).
    public func decode(_ packet: EncodedPacket) throws -> Output {
        switch packet.kind {
        case .video: return try decodeVideo(packet)
        case .audio: return try decodeAudio(packet)
        }
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
        try video.decode(packet.payload, pts: packet.presentationTimestamp, name: "h264") { frame in
            counters.videoFramesDecoded += 1
            let width = Int(frame.pointee.width)
            let height = Int(frame.pointee.height)
            let marker = PacketDecoder.marker(in: frame)
            // The marker row changes every frame: left in the preview it would repaint a row of cells each
            // refresh, bytes to the terminal that show nothing a viewer can read.
            let skip = marker == nil ? 0 : FrameMarker.bandHeight(pictureHeight: height)
            let strides = [frame.pointee.linesize.0, frame.pointee.linesize.1, frame.pointee.linesize.2]
            let source = FrameScaler.Picture(
                format: AVPixelFormat(frame.pointee.format), width: width, height: height - skip,
                planes: [
                    UnsafePointer(frame.pointee.data.0.map { $0 + skip * Int(strides[0]) }),
                    UnsafePointer(frame.pointee.data.1.map { $0 + skip / 2 * Int(strides[1]) }),
                    UnsafePointer(frame.pointee.data.2.map { $0 + skip / 2 * Int(strides[2]) }),
                ],
                strides: strides)
            var rgb = [UInt8](repeating: 0, count: previewWidth * previewHeight * 3)
            try rgb.withUnsafeMutableBufferPointer { buffer in
                try scaler.scale(
                    source, into: [buffer.baseAddress], strides: [Int32(previewWidth * 3)], format: AV_PIX_FMT_RGB24,
                    width: previewWidth, height: previewHeight, flags: SWS_AREA)
            }
            let full = keepsFullFrames ? PacketDecoder.copyI420(frame, timestamp: packet.presentationTimestamp) : nil
            output = .picture(DecodedPicture(
                decodeTimestamp: packet.decodeTimestamp,
                preview: PreviewImage(width: previewWidth, height: previewHeight, rgb: rgb), frame: full,
                marker: marker, decodedAtWallMicroseconds: WallClock.nowMicroseconds()))
        }
        return output
    }

    private func decodeAudio(_ packet: EncodedPacket) throws -> Output {
        guard let audio else { return .nothing }
        var output = Output.nothing
        try audio.decode(packet.payload, pts: packet.decodeTimestamp, name: "aac") { frame in
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

    /// RMS and peak over all channels of a planar-float (the AAC decoder's) frame.
    private static func level(of frame: UnsafeMutablePointer<AVFrame>, timestamp: Int64) -> AudioLevel {
        let samples = Int(frame.pointee.nb_samples)
        let channels = Int(frame.pointee.ch_layout.nb_channels)
        let planes = [frame.pointee.data.0, frame.pointee.data.1]
        var sumOfSquares = 0.0
        var peak = 0.0
        var count = 0
        if frame.pointee.format == AV_SAMPLE_FMT_FLTP.rawValue {
            for channel in 0..<min(channels, 2) {
                guard let plane = planes[channel] else { continue }
                let values = UnsafeRawPointer(plane).assumingMemoryBound(to: Float.self)
                for index in 0..<samples {
                    let value = Double(values[index])
                    sumOfSquares += value * value
                    peak = max(peak, abs(value))
                    count += 1
                }
            }
        }
        let rms = count > 0 ? (sumOfSquares / Double(count)).squareRoot() : 0
        func decibels(_ value: Double) -> Double { value > 0 ? max(-120, 20 * log10(value)) : -120 }
        return AudioLevel(decodeTimestamp: timestamp, rmsDBFS: decibels(rms), peakDBFS: decibels(peak))
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

    /// The decoded picture as a tightly packed I420 `VideoFrame`.
    private static func copyI420(_ frame: UnsafeMutablePointer<AVFrame>, timestamp: Int64) -> VideoFrame? {
        guard frame.pointee.format == AV_PIX_FMT_YUV420P.rawValue || frame.pointee.format == AV_PIX_FMT_YUVJ420P.rawValue else { return nil }
        var picture = VideoFrame(width: Int(frame.pointee.width), height: Int(frame.pointee.height), sequenceNumber: Int(timestamp))
        let layout = [
            (frame.pointee.data.0, frame.pointee.linesize.0, picture.width, picture.height, 0),
            (frame.pointee.data.1, frame.pointee.linesize.1, picture.chromaWidth, picture.chromaHeight, picture.lumaCount),
            (frame.pointee.data.2, frame.pointee.linesize.2, picture.chromaWidth, picture.chromaHeight, picture.lumaCount + picture.chromaCount),
        ]
        picture.planes.withUnsafeMutableBufferPointer { planes in
            for (data, stride, width, height, offset) in layout {
                guard let data else { continue }
                for row in 0..<height {
                    (planes.baseAddress! + offset + row * width).update(from: data + row * Int(stride), count: width)
                }
            }
        }
        return picture
    }
}
