import CFFmpeg
import Glibc

/// A libavcodec decoder: its context, frame and packet are a `CodecContext`'s; confined to one thread.
final class DecoderContext {
    private let codec: CodecContext
    private var context: UnsafeMutablePointer<AVCodecContext> { codec.context }
    private var frame: UnsafeMutablePointer<AVFrame> { codec.frame }
    private var packet: UnsafeMutablePointer<AVPacket> { codec.packet }

    /// Opens decoder `id` with `extradata` (copied into libav-owned, padded memory), after `configure`.
    init(_ id: AVCodecID, name: String, extradata: [UInt8], configure: (UnsafeMutablePointer<AVCodecContext>) -> Void = { _ in }) throws {
        guard let decoder = avcodec_find_decoder(id) else { throw MediaError.codecNotFound(name) }
        codec = try CodecContext(decoder)
        let context = codec.context
        if !extradata.isEmpty {
            let padded = Int(AV_INPUT_BUFFER_PADDING_SIZE)
            guard let buffer = av_mallocz(extradata.count + padded) else { throw MediaError.system(function: "av_mallocz", errno: ENOMEM) }
            let bytes = buffer.assumingMemoryBound(to: UInt8.self)
            bytes.update(from: extradata, count: extradata.count)
            context.pointee.extradata = bytes
            context.pointee.extradata_size = Int32(extradata.count)
        }
        configure(context)
        try codec.open(decoder, name: name)
    }

    /// Sends one compressed unit and calls `body` for every frame that comes out.
    func decode(_ payload: [UInt8], pts: Int64, name: String, _ body: (UnsafeMutablePointer<AVFrame>) throws -> Void) throws {
        try check(av_new_packet(packet, Int32(payload.count)), "av_new_packet")
        defer { av_packet_unref(packet) }
        payload.withUnsafeBufferPointer { packet.pointee.data.update(from: $0.baseAddress!, count: $0.count) }
        packet.pointee.pts = pts
        packet.pointee.dts = pts
        try check(avcodec_send_packet(context, packet), "avcodec_send_packet(\(name))")
        try receiveAll(name: name, body)
    }

    /// Signals the end of the stream (`avcodec_send_packet` with no packet) and calls `body` for every frame
    /// still held — the reordering delay of a B-frame stream — then makes the decoder ready for a new stream.
    func drain(name: String, _ body: (UnsafeMutablePointer<AVFrame>) throws -> Void) throws {
        defer { avcodec_flush_buffers(context) }
        let sent = avcodec_send_packet(context, nil)
        guard sent != onair_AVERROR_EOF() else { return }
        try check(sent, "avcodec_send_packet(\(name), drain)")
        try receiveAll(name: name, body)
    }

    private func receiveAll(name: String, _ body: (UnsafeMutablePointer<AVFrame>) throws -> Void) throws {
        while true {
            let result = avcodec_receive_frame(context, frame)
            if result == onair_AVERROR_EAGAIN() || result == onair_AVERROR_EOF() { break }
            try check(result, "avcodec_receive_frame(\(name))")
            defer { av_frame_unref(frame) }
            try body(frame)
        }
    }
}
