/// A frame number and capture instant written into the picture itself, as a row of black and white blocks
/// along the top edge, so that a subscriber can tell which frame it decoded and how long ago it was captured.
///
/// Why in the picture and not in metadata: glass-to-glass latency has to include everything the picture goes
/// through (encoder lookahead, the wire, relays, the decoder), and a picture marker survives all of them —
/// including an encoder that is not OnAir's (the ffmpeg CLI sending a Y4M made by `onair pattern`).
/// Why blocks: 80 blocks over the width are 16×16 pixels at 1280×720 — whole macroblocks of pure black or
/// white, which x264 keeps at any bitrate; positions are proportional to the width, so a scaled picture
/// reads the same. A CRC-16 rejects anything damaged.
///
/// Layout, left to right: a white and a black sync block (they set the threshold), 24 bits of frame number,
/// 1 bit of clock kind, 37 bits of microseconds, 16 bits of CRC-16/CCITT over the 62 payload bits.
public struct FrameMarker: Sendable, Equatable {
    /// What the 37-bit time field counts.
    public enum Clock: Sendable, Equatable {
        /// CLOCK_REALTIME microseconds, modulo 2^37 (38 hours): a live capture instant. Publisher and
        /// subscriber must share a clock (one machine, or clocks synchronised by NTP/PTP).
        case wallMicroseconds(UInt64)
        /// Microseconds since the first frame of a file (`onair pattern`): the subscriber needs to know when
        /// the sender started (`--pattern-epoch`) to turn it into an instant.
        case streamMicroseconds(UInt64)
    }

    public static let blockCount = 80
    static let frameNumberBits = 24
    static let timeBits = 37
    static let checksumBits = 16
    static let payloadBits = frameNumberBits + 1 + timeBits
    public static let frameNumberModulus: UInt32 = 1 << 24
    public static let timeModulus: UInt64 = 1 << 37

    /// The frame number, modulo 2^24.
    public var frameNumber: UInt32
    public var clock: Clock

    public init(frameNumber: UInt32, clock: Clock) {
        self.frameNumber = frameNumber % FrameMarker.frameNumberModulus
        switch clock {
        case let .wallMicroseconds(value): self.clock = .wallMicroseconds(value % FrameMarker.timeModulus)
        case let .streamMicroseconds(value): self.clock = .streamMicroseconds(value % FrameMarker.timeModulus)
        }
    }

    /// Height of the block row for a picture `height` rows tall: 1/45 of it (16 rows at 720p), even, at least 4.
    public static func bandHeight(pictureHeight height: Int) -> Int { max(4, height / 45) & ~1 }

    /// The left edge of block `index` in a picture `width` wide (index `blockCount` is the right edge).
    static func blockLeft(_ index: Int, width: Int) -> Int { index * width / blockCount }

    /// The blocks, white = true, left to right.
    public var blocks: [Bool] {
        let payload = payloadValue
        var bits = [true, false]
        bits += FrameMarker.bits(of: payload, count: FrameMarker.payloadBits)
        bits += FrameMarker.bits(of: UInt64(FrameMarker.crc16(payload)), count: FrameMarker.checksumBits)
        return bits
    }

    /// The marker these blocks carry, or nil when the sync blocks or the checksum do not match.
    public init?(blocks: [Bool]) {
        guard blocks.count == FrameMarker.blockCount, blocks[0], !blocks[1] else { return nil }
        let payload = FrameMarker.value(of: blocks[2..<(2 + FrameMarker.payloadBits)])
        let checksum = FrameMarker.value(of: blocks[(2 + FrameMarker.payloadBits)...])
        guard checksum == UInt64(FrameMarker.crc16(payload)) else { return nil }
        let time = payload & (FrameMarker.timeModulus - 1)
        let isStream = (payload >> UInt64(FrameMarker.timeBits)) & 1 == 1
        frameNumber = UInt32(payload >> UInt64(FrameMarker.timeBits + 1))
        clock = isStream ? .streamMicroseconds(time) : .wallMicroseconds(time)
    }

    private var payloadValue: UInt64 {
        let (isStream, time): (UInt64, UInt64) = switch clock {
        case let .wallMicroseconds(value): (0, value)
        case let .streamMicroseconds(value): (1, value)
        }
        return UInt64(frameNumber) << UInt64(FrameMarker.timeBits + 1) | isStream << UInt64(FrameMarker.timeBits) | time
    }

    static func bits(of value: UInt64, count: Int) -> [Bool] {
        (0..<count).map { value >> UInt64(count - 1 - $0) & 1 == 1 }
    }

    static func value(of bits: ArraySlice<Bool>) -> UInt64 {
        bits.reduce(0) { $0 << 1 | ($1 ? 1 : 0) }
    }

    /// CRC-16/CCITT-FALSE over the 62 payload bits, most significant first.
    static func crc16(_ payload: UInt64) -> UInt16 {
        var crc: UInt16 = 0xFFFF
        for index in (0..<payloadBits).reversed() {
            let bit = UInt16(truncatingIfNeeded: payload >> UInt64(index) & 1)
            let top = crc >> 15 & 1
            crc <<= 1
            if top ^ bit == 1 { crc ^= 0x1021 }
        }
        return crc
    }

    /// The full wall-clock instant (µs) a 37-bit field stands for: the one nearest to `reference` (the
    /// reader's now), since a frame is never 19 hours old.
    public static func unwrap(_ truncated: UInt64, near reference: UInt64) -> UInt64 {
        let base = reference - reference % timeModulus
        let candidates = [base &- timeModulus, base, base &+ timeModulus].map { $0 &+ truncated }
        return candidates.min { distance($0, reference) < distance($1, reference) } ?? truncated
    }

    private static func distance(_ a: UInt64, _ b: UInt64) -> UInt64 { a > b ? a - b : b - a }
}
