import CFFmpeg
import Glibc
import OnAirCore

/// H.264 through libavcodec's libx264, tuned for live: ultrafast, zerolatency, CBR with a VBV, fixed GOP,
/// no B-frames, keyframes on demand.
///
/// Owned by the encode thread (C pointers never cross threads). With zerolatency and no B-frames the packet
/// for a frame comes back from the same `encode` call (docs/platform-notes.md), so a frame's timestamps travel
/// with it; a small map keyed by pts covers the general case anyway.
final class VideoEncoder {
    struct Settings: Sendable, Equatable {
        var width: Int
        var height: Int
        var framesPerSecond: Double
        var bitrate: Int
        var keyframeIntervalSeconds: Double
        var preset: String
        var tune: String
        var threads: Int
    }

    let settings: Settings
    let track: VideoTrackDescription
    /// The context, its frame (the scaler's output, for pictures of another size) and its packet; internal
    /// so that tests can check a reconfiguration keeps the same context and global header.
    let codec: CodecContext
    /// Borrows a picture of the encoded size for one send (no copy); empty between sends.
    private var borrowed: UnsafeMutablePointer<AVFrame>?
    private let scaler = FrameScaler()
    private var nextPts: Int64 = 0
    /// The rate x264 works to now (`settings.bitrate` until `reconfigure`).
    private(set) var bitrate: Int
    private var pending: [Int64: (milliseconds: Int64, capture: UInt64)] = [:]
    /// Set when a picture was dropped after encoding: the next one must not refer to it.
    private var keyframeOwed = false
    /// Mapped pictures whose file lost pages under x264 (`MappedPicture.damaged`): encoded, never sent.
    private(set) var picturesLost = 0

    init(_ settings: Settings) throws {
        self.settings = settings
        bitrate = settings.bitrate
        guard let encoder = avcodec_find_encoder_by_name("libx264") else { throw MediaError.codecNotFound("libx264") }
        codec = try CodecContext(encoder)
        let context = codec.context
        let frame = codec.frame
        let rate = av_d2q(settings.framesPerSecond, 1_000_000)
        context.pointee.width = Int32(settings.width)
        context.pointee.height = Int32(settings.height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.framerate = rate
        context.pointee.time_base = av_inv_q(rate)
        context.pointee.gop_size = Int32(max(1, (settings.framesPerSecond * settings.keyframeIntervalSeconds).rounded()))
        context.pointee.max_b_frames = 0
        // CBR for a live uplink: the target is also the ceiling, with a one-second VBV buffer, so a
        // congested link sees a steady rate instead of bursts after every scene change.
        context.pointee.bit_rate = Int64(settings.bitrate)
        context.pointee.rc_max_rate = Int64(settings.bitrate)
        context.pointee.rc_min_rate = Int64(settings.bitrate)
        context.pointee.rc_buffer_size = Int32(clamping: settings.bitrate)
        context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        context.pointee.thread_count = Int32(settings.threads)
        try VideoEncoder.setOption(context, "preset", settings.preset)
        try VideoEncoder.setOption(context, "tune", settings.tune)
        // A forced keyframe must be an IDR (decodable from scratch by a player that just joined).
        try VideoEncoder.setOption(context, "forced-idr", "1")
        try codec.open(encoder, name: "libx264")

        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.width = Int32(settings.width)
        frame.pointee.height = Int32(settings.height)
        try check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer")

        let units = AnnexB.nalUnits(codec.extradata)
        let sps = units.filter { ($0.first ?? 0) & 0x1F == AnnexB.NALType.sequenceParameterSet.rawValue }
        let pps = units.filter { ($0.first ?? 0) & 0x1F == AnnexB.NALType.pictureParameterSet.rawValue }
        guard !sps.isEmpty, !pps.isEmpty else {
            throw MediaError.formatUnsupported("libx264 returned no SPS/PPS in its global header; this FFmpeg build is unusual")
        }
        track = VideoTrackDescription(
            width: settings.width, height: settings.height, framesPerSecond: settings.framesPerSecond,
            bitrate: settings.bitrate, sequenceParameterSets: sps, pictureParameterSets: pps)
        // Last, once nothing else can throw: `deinit` (which frees it) runs only for a whole object.
        guard let borrowed = av_frame_alloc() else { throw MediaError.system(function: "av_frame_alloc", errno: ENOMEM) }
        self.borrowed = borrowed
    }

    deinit {
        av_frame_free(&borrowed)
    }

    private static func setOption(_ context: UnsafeMutablePointer<AVCodecContext>, _ name: String, _ value: String) throws {
        do {
            try check(av_opt_set(context.pointee.priv_data, name, value, 0), "av_opt_set(\(name))")
        } catch {
            throw MediaError.formatUnsupported("libx264 rejects \(name)=\(value) (\(error)); use an x264 preset such as ultrafast and a tune such as zerolatency")
        }
    }

    /// Encodes one picture stamped `milliseconds` on the stream clock; scales it first if its size differs.
    /// Returns the packets that came out (one, with zerolatency).
    func encode(_ picture: VideoFrame, milliseconds: Int64, forceKeyframe: Bool) throws -> [EncodedPacket] {
        guard let borrowed else { return [] }
        let context = codec.context
        let frame = codec.frame
        let input: UnsafeMutablePointer<AVFrame>
        if picture.width == settings.width, picture.height == settings.height {
            // Already the encoded size and format: x264 reads the picture's own bytes (it copies them into
            // its frame pool itself), saving a 1.4 MB copy per 720p frame.
            try lend(picture, to: borrowed)
            input = borrowed
        } else {
            try scale(picture, into: frame)
            input = frame
        }
        input.pointee.pts = nextPts
        input.pointee.pict_type = forceKeyframe || keyframeOwed ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        keyframeOwed = false
        pending[nextPts] = (milliseconds, picture.captureNanoseconds)
        nextPts += 1
        let sent = avcodec_send_frame(context, input)
        if input == borrowed { av_frame_unref(borrowed) }
        try check(sent, "avcodec_send_frame(libx264)")
        let packets = try drain(context)
        if picture.mappedPicture?.damaged == true {
            // The clip shrank while x264 read it: part of this picture was zeros, not the file. Nothing of it
            // is sent, and the next picture is a keyframe, so no later frame refers to it.
            keyframeOwed = true
            picturesLost += 1
            return []
        }
        return packets
    }

    private func scale(_ picture: VideoFrame, into frame: UnsafeMutablePointer<AVFrame>) throws {
        try check(av_frame_make_writable(frame), "av_frame_make_writable")
        try picture.withUnsafePictureBytes { planes in
            let base = planes.baseAddress!
            let source = FrameScaler.Picture(
                format: AV_PIX_FMT_YUV420P, width: picture.width, height: picture.height,
                planes: [base, base + picture.lumaCount, base + picture.lumaCount + picture.chromaCount],
                strides: [Int32(picture.width), Int32(picture.chromaWidth), Int32(picture.chromaWidth)],
                readableBytesAfter: picture.readableBytesAfterPicture)
            let destination = [frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2]
            let strides = [frame.pointee.linesize.0, frame.pointee.linesize.1, frame.pointee.linesize.2]
            try scaler.scale(
                source, into: destination, strides: strides, format: AV_PIX_FMT_YUV420P, width: settings.width, height: settings.height,
                destinationIsPadded: true)
        }
    }

    /// Points `frame` at `picture`'s planes through a read-only, reference-counted AVBuffer that keeps the
    /// bytes alive until libavcodec lets go of them (right after the send, since libx264 copies its input).
    /// A mapped picture is lent as it is: x264's copy reads the clip's pages, the only copy of its bytes.
    private func lend(_ picture: VideoFrame, to frame: UnsafeMutablePointer<AVFrame>) throws {
        let owner: AnyObject
        let base: UnsafeMutablePointer<UInt8>
        if let mapped = picture.mappedPicture {
            owner = mapped
            base = UnsafeMutablePointer(mutating: mapped.bytes.baseAddress!)
        } else {
            let storage = PlaneStorage(picture.planes)
            owner = storage
            base = storage.baseAddress
        }
        let retained = Unmanaged.passRetained(owner)
        guard let buffer = av_buffer_create(
            base, VideoFrame.byteCount(width: picture.width, height: picture.height),
            { opaque, _ in if let opaque { Unmanaged<AnyObject>.fromOpaque(opaque).release() } },
            retained.toOpaque(), Int32(AV_BUFFER_FLAG_READONLY))
        else {
            retained.release()
            throw MediaError.system(function: "av_buffer_create", errno: ENOMEM)
        }
        frame.pointee.buf.0 = buffer
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.width = Int32(picture.width)
        frame.pointee.height = Int32(picture.height)
        frame.pointee.data.0 = base
        frame.pointee.data.1 = base + picture.lumaCount
        frame.pointee.data.2 = base + picture.lumaCount + picture.chromaCount
        frame.pointee.linesize.0 = Int32(picture.width)
        frame.pointee.linesize.1 = Int32(picture.chromaWidth)
        frame.pointee.linesize.2 = Int32(picture.chromaWidth)
    }

    /// Changes the rate control of the open encoder; applies from the next `encode`.
    ///
    /// libavcodec's libx264 wrapper (`reconfig_encoder`, called for every frame sent, FFmpeg 5.1 as in
    /// Debian 12) compares `rc_buffer_size`/`rc_max_rate` and, in ABR mode, `bit_rate` with what x264 runs
    /// and calls `x264_encoder_reconfig` when they differ. x264 accepts a new bitrate and VBV mid-stream
    /// only when a VBV was set at open — ours always is — so there is no reopen, no new SPS/PPS, and no
    /// keyframe: the next P-frame is already sized for the new rate.
    func reconfigure(bitrate newBitrate: Int) {
        guard newBitrate > 0, newBitrate != bitrate else { return }
        let context = codec.context
        bitrate = newBitrate
        context.pointee.bit_rate = Int64(newBitrate)
        context.pointee.rc_max_rate = Int64(newBitrate)
        context.pointee.rc_min_rate = Int64(newBitrate)
        context.pointee.rc_buffer_size = Int32(clamping: newBitrate)
    }

    /// A captured picture not encoded (frame-rate decimation): its tick still counts in the time base, so
    /// x264's rate control sees the longer frame duration of the next picture instead of a faster clock.
    func skipFrame() {
        nextPts += 1
    }

    /// Flushes frames still inside the encoder (none with zerolatency, but correct either way).
    func flush() throws -> [EncodedPacket] {
        let context = codec.context
        let result = avcodec_send_frame(context, nil)
        if result != onair_AVERROR_EOF() { try check(result, "avcodec_send_frame(flush)") }
        return try drain(context)
    }

    private func drain(_ context: UnsafeMutablePointer<AVCodecContext>) throws -> [EncodedPacket] {
        let packet = codec.packet
        var packets: [EncodedPacket] = []
        while true {
            let result = avcodec_receive_packet(context, packet)
            if result == onair_AVERROR_EAGAIN() || result == onair_AVERROR_EOF() { break }
            try check(result, "avcodec_receive_packet(libx264)")
            defer { av_packet_unref(packet) }
            let stamp = pending.removeValue(forKey: packet.pointee.pts) ?? (0, 0)
            packets.append(EncodedPacket(
                kind: .video, decodeTimestamp: stamp.milliseconds,
                isKeyframe: packet.pointee.flags & AV_PKT_FLAG_KEY != 0,
                payload: Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size))),
                captureNanoseconds: stamp.capture))
        }
        return packets
    }
}

/// A picture's bytes, retained by the AVBuffer that lends them to libavcodec.
private final class PlaneStorage {
    let planes: [UInt8]
    /// Stable while this object lives: `planes` is never mutated, so its storage never moves.
    let baseAddress: UnsafeMutablePointer<UInt8>

    init(_ planes: [UInt8]) {
        self.planes = planes
        baseAddress = UnsafeMutablePointer(mutating: planes.withUnsafeBufferPointer { $0.baseAddress! })
    }
}
