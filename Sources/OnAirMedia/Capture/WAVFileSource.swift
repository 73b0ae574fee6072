/// A WAV file looped in real time: a microphone stand-in. PCM of 8 to 32 bits or 32/64-bit float, mono or stereo,
/// read as signed 16-bit (``WAVSampleFormat``).
///
/// RIFF/WAVE chunks are walked rather than assuming a 44-byte header: files from `ffmpeg` and editors carry
/// `LIST`/`fact` chunks before `data`. Format: https://www.mmsp.ece.mcgill.ca/Documents/AudioFormats/WAVE/WAVE.html
public final class WAVFileSource: AudioSource {
    public let format: AudioSourceFormat
    public private(set) var overruns = 0
    /// How many times the file has wrapped to its start.
    public private(set) var loops = 0
    /// Sample frames in one pass of the file.
    public let frameCount: Int

    private let file: FileDescriptor
    private let dataOffset: Int
    private let sampleFormat: WAVSampleFormat
    /// Bytes of one sample frame in the file (all channels).
    private let blockAlign: Int
    /// The file's bytes of one read, before conversion (kept between reads).
    private var raw: [UInt8] = []
    private var position = 0
    private var pacing: Pacing
    private var start: UInt64?
    private var framesDelivered: Int64 = 0
    /// The highest sample rate accepted (the highest rate studio PCM uses). The header's field is 32 bits:
    /// 0xFFFFFFFF Hz went on to the AAC encoder's `Int32(sampleRate)`, which trapped.
    static let maximumSampleRate = 384_000

    /// What the RIFF walk found.
    struct Layout: Equatable {
        var sampleRate: Int
        var channels: Int
        var dataOffset: Int
        var dataBytes: Int
        var sampleFormat: WAVSampleFormat
        var blockAlign: Int
    }

    public init(path: String, pacing: Pacing = .realTime) throws {
        file = try FileDescriptor(readingFrom: path)
        let layout = try WAVFileSource.parse(file)
        format = AudioSourceFormat(sampleRate: layout.sampleRate, channels: layout.channels)
        dataOffset = layout.dataOffset
        sampleFormat = layout.sampleFormat
        blockAlign = layout.blockAlign
        frameCount = layout.dataBytes / layout.blockAlign
        self.pacing = pacing
        guard frameCount > 0 else { throw MediaError.fileUnreadable(path: path, reason: "the WAV file has no samples") }
    }

    static func parse(_ file: FileDescriptor) throws -> Layout {
        let path = file.path
        let head = try file.read(count: 12, at: 0)
        guard head.count == 12, Array(head[0..<4]) == Array("RIFF".utf8), Array(head[8..<12]) == Array("WAVE".utf8) else {
            throw MediaError.fileWrongKind(path: path, expected: "a RIFF/WAVE (.wav) audio file")
        }
        let size = try file.size()
        var offset = 12
        var formatFound: (rate: Int, channels: Int, sample: WAVSampleFormat, blockAlign: Int)?
        while offset + 8 <= size {
            let chunk = try file.read(count: 8, at: offset)
            // The file may shrink between `size()` and this read: a short read is the end, not an index past it.
            guard chunk.count == 8 else { break }
            let id = String(decoding: chunk[0..<4], as: UTF8.self)
            let length = Int(littleEndian32(chunk, 4))
            let body = offset + 8
            if id == "fmt " {
                let fmt = try file.read(count: min(length, 40), at: body)
                guard fmt.count >= 16 else { throw MediaError.fileUnreadable(path: path, reason: "the WAV fmt chunk is truncated") }
                var tag = Int(littleEndian16(fmt, 0))
                if tag == 0xFFFE, fmt.count >= 26 { tag = Int(littleEndian16(fmt, 24)) } // WAVE_FORMAT_EXTENSIBLE sub-format
                let channels = Int(littleEndian16(fmt, 2))
                let rate = Int(littleEndian32(fmt, 4))
                let blockAlign = Int(littleEndian16(fmt, 12))
                let bits = Int(littleEndian16(fmt, 14))
                guard (1...2).contains(channels), (1...maximumSampleRate).contains(rate),
                      let sample = WAVSampleFormat(tag: tag, bitsPerSample: bits, blockAlign: blockAlign, channels: channels) else {
                    throw MediaError.formatUnsupported(
                        "\(path) is WAV format \(tag), \(bits)-bit, \(channels) ch at \(rate) Hz; OnAir reads PCM (8 to 32-bit) or float "
                            + "(32 or 64-bit), mono or stereo, up to \(maximumSampleRate) Hz: ffmpeg -i IN -c:a pcm_s16le -ac 2 -ar 48000 OUT.wav")
                }
                formatFound = (rate, channels, sample, blockAlign)
            } else if id == "data" {
                guard let formatFound else { throw MediaError.fileUnreadable(path: path, reason: "the WAV data chunk comes before its fmt chunk") }
                let bytes = min(length, size - body)
                return Layout(sampleRate: formatFound.rate, channels: formatFound.channels, dataOffset: body, dataBytes: bytes,
                              sampleFormat: formatFound.sample, blockAlign: formatFound.blockAlign)
            }
            offset = body + length + (length & 1)
        }
        throw MediaError.fileUnreadable(path: path, reason: "the WAV file has no data chunk")
    }

    public func read(frames: Int) throws -> AudioChunk {
        let now = MonotonicClock.now()
        let start = self.start ?? now
        self.start = start
        let firstSampleTime = start + UInt64(Double(framesDelivered) * 1e9 / Double(format.sampleRate))
        if raw.count != frames * blockAlign { raw = [UInt8](repeating: 0, count: frames * blockAlign) }
        var filled = 0
        try raw.withUnsafeMutableBytes { buffer throws in
            while filled < frames {
                let take = min(frames - filled, frameCount - position)
                let bytes = UnsafeMutableRawBufferPointer(rebasing: buffer[(filled * blockAlign)..<((filled + take) * blockAlign)])
                let got = try file.read(into: bytes, at: dataOffset + position * blockAlign)
                guard got == bytes.count else { throw MediaError.fileUnreadable(path: file.path, reason: "the WAV file shrank while playing") }
                filled += take
                position += take
                if position == frameCount {
                    position = 0
                    loops += 1
                }
            }
        }
        var samples = [Int16](repeating: 0, count: frames * format.channels)
        raw.withUnsafeBytes { raw in samples.withUnsafeMutableBufferPointer { sampleFormat.convert(raw, into: $0) } }
        framesDelivered += Int64(frames)
        if pacing == .realTime {
            // The chunk is "captured" when its last sample has played, as a microphone would deliver it.
            try MonotonicClock.sleep(until: start + UInt64(Double(framesDelivered) * 1e9 / Double(format.sampleRate)))
        }
        return AudioChunk(sampleRate: format.sampleRate, channels: format.channels, samples: samples, captureNanoseconds: firstSampleTime)
    }
}

func littleEndian16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
    UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
}

func littleEndian32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
}
