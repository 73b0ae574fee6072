/// How a WAV file stores one sample, and how it becomes the engine's signed 16-bit sample.
///
/// Files from editors and DAWs are often 24-bit or 32-bit float, not the 16-bit a recorder writes; reading
/// them here spares the operator a conversion. The conversions are libswresample's (`audioconvert.c`), so a
/// file reads to the same samples as `ffmpeg -i IN -c:a pcm_s16le`: integers keep their top 16 bits, floats
/// are scaled by 2^15, rounded to nearest and clipped.
/// Format tags and the extensible header: https://www.mmsp.ece.mcgill.ca/Documents/AudioFormats/WAVE/WAVE.html
struct WAVSampleFormat: Equatable, Sendable, CustomStringConvertible {
    enum Encoding: Equatable, Sendable {
        /// 8-bit PCM, offset binary (128 is silence).
        case unsignedInteger
        /// 16-, 24- or 32-bit PCM, two's complement; fewer valid bits sit in the container's top bits.
        case signedInteger
        /// IEEE float, full scale ±1.0.
        case float
    }

    /// `WAVE_FORMAT_PCM` and `WAVE_FORMAT_IEEE_FLOAT` (also as an extensible header's sub-format).
    static let pcmTag = 1, floatTag = 3

    let encoding: Encoding
    /// Bytes a sample takes in the file (its container), from the block alignment.
    let bytes: Int

    /// The format a fmt chunk describes, or nil when OnAir does not read it (another codec, a container size
    /// that matches no sample type, a block alignment that is not a whole number of samples per channel).
    init?(tag: Int, bitsPerSample: Int, blockAlign: Int, channels: Int) {
        guard channels > 0, blockAlign > 0, blockAlign % channels == 0 else { return nil }
        let container = blockAlign / channels
        guard bitsPerSample > 0, bitsPerSample <= container * 8 else { return nil }
        switch (tag, container) {
        case (Self.pcmTag, 1): encoding = .unsignedInteger
        case (Self.pcmTag, 2...4): encoding = .signedInteger
        case (Self.floatTag, 4), (Self.floatTag, 8):
            guard bitsPerSample == container * 8 else { return nil }
            encoding = .float
        default: return nil
        }
        bytes = container
    }

    var description: String {
        switch encoding {
        case .unsignedInteger: "PCM u8"
        case .signedInteger: "PCM s\(bytes * 8)"
        case .float: "float \(bytes * 8)-bit"
        }
    }

    /// Converts the little-endian samples in `raw` (a whole number of samples) into `samples`, in order.
    func convert(_ raw: UnsafeRawBufferPointer, into samples: UnsafeMutableBufferPointer<Int16>) {
        let count = min(raw.count / bytes, samples.count)
        switch (encoding, bytes) {
        case (.unsignedInteger, _):
            for index in 0..<count { samples[index] = Int16(truncatingIfNeeded: (Int(raw[index]) - 128) << 8) }
        case (.signedInteger, _):
            // The top two bytes of each container: the sample's 16 most significant bits.
            for index in 0..<count {
                let top = index * bytes + bytes - 2
                samples[index] = Int16(bitPattern: UInt16(raw[top]) | UInt16(raw[top + 1]) << 8)
            }
        case (.float, 4):
            for index in 0..<count {
                let bits = raw.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)
                samples[index] = Self.clipped(Double(Float(bitPattern: UInt32(littleEndian: bits))))
            }
        case (.float, _):
            for index in 0..<count {
                let bits = raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
                samples[index] = Self.clipped(Double(bitPattern: UInt64(littleEndian: bits)))
            }
        }
    }

    /// A float sample at 2^15 per unit, rounded to nearest (ties to even, as `lrint`) and clipped; NaN is silence.
    static func clipped(_ value: Double) -> Int16 {
        guard !value.isNaN else { return 0 }
        let scaled = (value * 32_768).rounded(.toNearestOrEven)
        return Int16(max(-32_768, min(32_767, scaled)))
    }
}
