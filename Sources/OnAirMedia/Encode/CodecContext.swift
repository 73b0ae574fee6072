import CFFmpeg
import Glibc

/// The one owner of libavcodec memory for the encoders and the decoders: a codec context with the frame and
/// packet it works through, freed together in `deinit`; confined to one thread, as its users are.
///
/// Why one owner: each encoder and decoder used to allocate and free the three itself, and a failed
/// allocation of the second or third leaked the first.
final class CodecContext {
    let context: UnsafeMutablePointer<AVCodecContext>
    let frame: UnsafeMutablePointer<AVFrame>
    let packet: UnsafeMutablePointer<AVPacket>
    private var owned: (context: UnsafeMutablePointer<AVCodecContext>?, frame: UnsafeMutablePointer<AVFrame>?, packet: UnsafeMutablePointer<AVPacket>?)

    /// Allocates a context for `codec` (not opened yet: set its options, then `open`).
    init(_ codec: UnsafePointer<AVCodec>) throws {
        LibAVLogging.silence()
        var context = avcodec_alloc_context3(codec)
        var frame = av_frame_alloc()
        var packet = av_packet_alloc()
        guard let allocatedContext = context, let allocatedFrame = frame, let allocatedPacket = packet else {
            av_packet_free(&packet)
            av_frame_free(&frame)
            avcodec_free_context(&context)
            throw MediaError.system(function: "avcodec_alloc_context3", errno: ENOMEM)
        }
        self.context = allocatedContext
        self.frame = allocatedFrame
        self.packet = allocatedPacket
        owned = (allocatedContext, allocatedFrame, allocatedPacket)
    }

    deinit {
        av_packet_free(&owned.packet)
        av_frame_free(&owned.frame)
        avcodec_free_context(&owned.context)
    }

    /// Opens the codec with the options set on `context`.
    func open(_ codec: UnsafePointer<AVCodec>, name: String) throws {
        try check(avcodec_open2(context, codec, nil), "avcodec_open2(\(name))")
    }

    /// The global header the codec holds (H.264 SPS/PPS in Annex B, AAC's AudioSpecificConfig).
    var extradata: [UInt8] {
        guard let bytes = context.pointee.extradata else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(context.pointee.extradata_size)))
    }
}
