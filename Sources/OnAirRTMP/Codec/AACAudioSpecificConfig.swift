/// The fields of an AAC AudioSpecificConfig (ISO/IEC 14496-3 §1.6.2.1) a player needs: object type,
/// sample rate and channel count. A sequence header carries it (FLV spec E.4.2.1, AACPacketType 0).
public struct AACAudioSpecificConfig: Sendable, Equatable {
    /// samplingFrequencyIndex → Hz (ISO/IEC 14496-3 Table 1.18); index 15 means an explicit 24-bit rate.
    public static let samplingFrequencies = [96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8_000, 7_350]
    static let explicitFrequencyIndex = 15

    public var audioObjectType: Int
    public var sampleRate: Int
    public var channels: Int

    /// Parses the first bits of `bytes`; `nil` when they are too short or use a reserved frequency index.
    public init?(_ bytes: [UInt8]) {
        var bits = BitReader(bytes)
        guard let objectType = bits.read(5), let index = bits.read(4) else { return nil }
        if index == Self.explicitFrequencyIndex {
            guard let rate = bits.read(24) else { return nil }
            sampleRate = rate
        } else {
            guard index < Self.samplingFrequencies.count else { return nil }
            sampleRate = Self.samplingFrequencies[index]
        }
        guard let channelConfiguration = bits.read(4) else { return nil }
        audioObjectType = objectType
        channels = channelConfiguration == 7 ? 8 : channelConfiguration
    }

    /// A big-endian bit reader over bytes.
    struct BitReader {
        let bytes: [UInt8]
        var position = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func read(_ count: Int) -> Int? {
            guard position + count <= bytes.count * 8 else { return nil }
            var value = 0
            for _ in 0..<count {
                let bit = (bytes[position >> 3] >> (7 - UInt8(position & 7))) & 1
                value = value << 1 | Int(bit)
                position += 1
            }
            return value
        }
    }
}
