import NIOCore
import OnAirCore

/// Names and decoding parameters for the codec fields of FLV tags other than AAC and H.264 (FLV spec
/// E.4.2.1 SoundFormat, E.4.3.1 CodecID; Enhanced RTMP v1 FourCC headers), so a subscriber can decode MP3
/// and PCM and name everything else in one line.
enum FLVCodecField {
    /// The codec the subscriber decodes for a format byte, or `nil`.
    static func codec(_ format: UInt8) -> AudioCodec? {
        let sixteenBits = format & 0b10 != 0
        switch format >> 4 {
        case 0, 3: return .pcm(bitsPerSample: sixteenBits ? 16 : 8)     // 0 is platform-endian: little on every host OnAir runs on
        case 2, 14: return .mp3
        case 7: return .g711ALaw
        case 8: return .g711MuLaw
        default: return nil
        }
    }

    /// SoundRate (5.5, 11, 22, 44 kHz); formats with a fixed rate use theirs.
    static func sampleRate(_ format: UInt8) -> Int {
        switch format >> 4 {
        case 7, 8, 14: 8000
        default: [5512, 11025, 22050, 44100][Int(format >> 2 & 0b11)]
        }
    }

    /// The operator's name of an audio format (an Enhanced RTMP FourCC when format 9 carries one).
    static func name(format: UInt8, body: ByteBuffer) -> String {
        switch format >> 4 {
        case 1: "ADPCM"
        case 4, 5, 6: "Nellymoser"
        case 9: fourCC(body).map { "\($0) (Enhanced RTMP)" } ?? "format 9"
        case 11: "Speex"
        case 15: "device-specific sound"
        default: "format \(format >> 4)"
        }
    }

    /// The operator's name of a video codec that is not H.264.
    static func videoCodecName(_ body: ByteBuffer) -> String {
        guard let first = body.getInteger(at: body.readerIndex, as: UInt8.self) else { return "unknown" }
        if first & 0x80 != 0 { return fourCC(body).map { "\($0) (Enhanced RTMP)" } ?? "Enhanced RTMP" }
        switch first & 0x0F {
        case 1: return "JPEG"
        case 2: return "Sorenson H.263"
        case 3: return "Screen Video"
        case 4: return "On2 VP6"
        case 5: return "On2 VP6 with alpha"
        case 6: return "Screen Video 2"
        case 12: return "HEVC (codec id 12)"
        default: return "codec id \(first & 0x0F)"
        }
    }

    /// The printable FourCC after an Enhanced RTMP header byte.
    private static func fourCC(_ body: ByteBuffer) -> String? {
        guard let bytes = body.getBytes(at: body.readerIndex + 1, length: 4), bytes.allSatisfy({ (0x20..<0x7F).contains($0) }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
