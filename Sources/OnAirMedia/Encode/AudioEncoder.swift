import CFFmpeg
import Glibc
import OnAirCore

/// AAC-LC through libavcodec's native `aac` encoder, timestamped from sample counts.
///
/// Why sample counts: a capture clock and an audio device clock drift apart by parts per million; stamping
/// each packet with "time of the first sample + samples so far / rate" keeps audio continuous and drift-free,
/// and anchoring the first sample on the monotonic clock keeps it in sync with video.
/// The encoder's priming stays before the first sample: its first packet has pts −`initial_padding` (1024
/// samples), and a decoder's output for packet k is the input from k − 1 frames on, so stamping each packet
/// at its own pts puts decoded audio at the instant it was captured. (Until issue 26 the priming was added
/// back, and every decoded sample played 21.3 ms later than its timestamp said: `avOffsetMs` read +21.)
/// A packet that would fall before the stream's zero is dropped: RTMP timestamps do not go below 0.
final class AudioEncoder {
    let track: AudioTrackDescription
    let frameSize: Int
    private let sampleRate: Int
    private let channels: Int
    private let originNanoseconds: UInt64
    private let codec: CodecContext
    /// Interleaved samples waiting for a whole encoder frame.
    private var fifo: [Int16] = []
    private var samplesSent: Int64 = 0
    private var firstSampleNanoseconds: UInt64?

    /// `originNanoseconds` is the stream's zero on the monotonic clock (shared with video).
    init(sampleRate: Int, channels: Int, bitrate: Int, originNanoseconds: UInt64) throws {
        self.sampleRate = sampleRate
        self.channels = channels
        self.originNanoseconds = originNanoseconds
        // libavcodec's fields are 32-bit: a rate or count from a file header beyond them would trap in `Int32(_:)`.
        guard let rate = Int32(exactly: sampleRate), rate > 0, let channelCount = Int32(exactly: channels), channelCount > 0 else {
            throw MediaError.formatUnsupported("the AAC encoder cannot take \(sampleRate) Hz × \(channels) ch; use 44100 or 48000 Hz, 1 or 2 channels")
        }
        guard let encoder = avcodec_find_encoder(AV_CODEC_ID_AAC) else { throw MediaError.codecNotFound("aac") }
        codec = try CodecContext(encoder)
        let context = codec.context
        let frame = codec.frame
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        context.pointee.sample_rate = rate
        onair_channel_layout_default(&context.pointee.ch_layout, channelCount)
        context.pointee.bit_rate = Int64(bitrate)
        context.pointee.time_base = AVRational(num: 1, den: rate)
        context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        do {
            try codec.open(encoder, name: "aac")
        } catch {
            throw MediaError.formatUnsupported("the AAC encoder refuses \(sampleRate) Hz × \(channels) ch at \(bitrate) bit/s (\(error)); use 44100 or 48000 Hz")
        }
        frameSize = Int(context.pointee.frame_size)
        frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        frame.pointee.nb_samples = Int32(frameSize)
        frame.pointee.sample_rate = rate
        try check(av_channel_layout_copy(&frame.pointee.ch_layout, &context.pointee.ch_layout), "av_channel_layout_copy")
        try check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer(audio)")
        let extradata = codec.extradata
        guard extradata.count >= 2 else { throw MediaError.formatUnsupported("the AAC encoder returned no AudioSpecificConfig") }
        track = AudioTrackDescription(
            sampleRate: sampleRate, channels: channels, bitrate: bitrate, audioSpecificConfig: Array(extradata.prefix(2)))
    }

    /// Queues `chunk` (silenced when `muted`) and encodes every whole AAC frame now available.
    ///
    /// A chunk of whole AAC frames with nothing left over from the last one (the engine reads one AAC frame
    /// per chunk) is converted straight into the encoder's frame: no pass through the FIFO, whose append and
    /// shift cost two copies of every sample (issue 31, the audio hand-off).
    func encode(_ chunk: AudioChunk, muted: Bool) throws -> [EncodedPacket] {
        if firstSampleNanoseconds == nil { firstSampleNanoseconds = max(chunk.captureNanoseconds, originNanoseconds) }
        var packets: [EncodedPacket] = []
        let frameSamples = frameSize * channels
        if fifo.isEmpty, !muted {
            try chunk.samples.withUnsafeBufferPointer { samples in
                var offset = 0
                while samples.count - offset >= frameSamples {
                    try fill(from: samples, at: offset)
                    offset += frameSamples
                    packets += try send(codec.frame)
                }
                fifo.append(contentsOf: samples[offset...])
            }
            return packets
        }
        if muted {
            fifo.append(contentsOf: repeatElement(0, count: chunk.samples.count))
        } else {
            fifo.append(contentsOf: chunk.samples)
        }
        var consumed = 0
        while fifo.count - consumed >= frameSamples {
            try fifo.withUnsafeBufferPointer { try fill(from: $0, at: consumed) }
            consumed += frameSamples
            packets += try send(codec.frame)
        }
        fifo.removeFirst(consumed)
        return packets
    }

    /// Flushes the encoder's delay: the last real samples, as packets.
    func flush() throws -> [EncodedPacket] {
        try send(nil)
    }

    /// Converts one AAC frame of interleaved samples, from `offset` in `samples`, into the planar float frame.
    private func fill(from samples: UnsafeBufferPointer<Int16>, at offset: Int) throws {
        let frame = codec.frame
        try check(av_frame_make_writable(frame), "av_frame_make_writable(audio)")
        precondition(offset + frameSize * channels <= samples.count, "a whole AAC frame of samples")
        for channel in 0..<min(channels, 2) {
            guard let plane = channel == 0 ? frame.pointee.data.0 : frame.pointee.data.1 else { continue }
            let output = UnsafeMutableRawPointer(plane).assumingMemoryBound(to: Float.self)
            var index = offset + channel
            for sample in 0..<frameSize {
                output[sample] = Float(samples[index]) / 32768
                index += channels
            }
        }
        frame.pointee.pts = samplesSent
        samplesSent += Int64(frameSize)
    }

    private func send(_ input: UnsafeMutablePointer<AVFrame>?) throws -> [EncodedPacket] {
        let context = codec.context
        let packet = codec.packet
        let result = avcodec_send_frame(context, input)
        if !(input == nil && result == onair_AVERROR_EOF()) { try check(result, "avcodec_send_frame(aac)") }
        var packets: [EncodedPacket] = []
        let base = firstSampleNanoseconds ?? originNanoseconds
        while true {
            let received = avcodec_receive_packet(context, packet)
            if received == onair_AVERROR_EAGAIN() || received == onair_AVERROR_EOF() { break }
            try check(received, "avcodec_receive_packet(aac)")
            defer { av_packet_unref(packet) }
            let offset = packet.pointee.pts * 1_000_000_000 / Int64(sampleRate)
            let signedCapture = Int64(base) + offset
            guard signedCapture >= Int64(originNanoseconds) else { continue }
            let capture = UInt64(signedCapture)
            packets.append(EncodedPacket(
                kind: .audio, decodeTimestamp: Int64((capture - originNanoseconds) / 1_000_000), isKeyframe: true,
                payload: Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size))),
                captureNanoseconds: capture))
        }
        return packets
    }
}
