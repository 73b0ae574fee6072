import NIOCore
import OnAirRTMP
import Testing

@Suite("AMF0")
struct AMF0Tests {
    static let samples: [AMF0Value] = [
        .number(0), .number(-1.5), .number(.greatestFiniteMagnitude), .boolean(true), .boolean(false),
        .string(""), .string("héllo ✓"), .string(String(repeating: "x", count: 70_000)),
        .null, .undefined, .date(millisecondsSinceEpoch: 1_577_934_245_000, timeZone: 0),
        .object(["a": .number(1), "b": .object(["c": .string("d")])]),
        .ecmaArray(["width": .number(640), "stereo": .boolean(true)]),
        .strictArray([.number(1), .string("two"), .null, .strictArray([])]),
    ]

    @Test("every sample round-trips through encoder and decoder")
    func roundTrip() throws {
        for value in Self.samples {
            var buffer = ByteBuffer()
            AMF0Encoder.encode(value, into: &buffer)
            let decoded = try AMF0Decoder().decode(from: &buffer)
            #expect(decoded == value)
            #expect(buffer.readableBytes == 0)
        }
    }

    @Test("strings over 65535 bytes use the long-string marker (AMF0 §2.14)")
    func longStringMarker() {
        var buffer = ByteBuffer()
        AMF0Encoder.encode(.string(String(repeating: "y", count: 65_536)), into: &buffer)
        #expect(buffer.getInteger(at: 0, as: UInt8.self) == AMF0Marker.longString.rawValue)
    }

    @Test("a partial value is need-more-data and leaves the buffer untouched, at every cut")
    func partial() throws {
        let whole = AMF0Encoder.encode(Self.samples)
        let bytes = Array(whole.readableBytesView)
        for cut in [0, 1, 5, 9, 40, bytes.count / 2] {
            var prefix = ByteBuffer(bytes: bytes[..<cut])
            var values: [AMF0Value] = []
            while let value = try AMF0Decoder().decode(from: &prefix) { values.append(value) }
            #expect(values.count < Self.samples.count)
            #expect(Array(Self.samples.prefix(values.count)) == values)
        }
    }

    @Test("decodeAll reports a truncated body as an error")
    func truncatedBody() {
        var buffer = AMF0Encoder.encode([.string("onStatus")])
        buffer.moveWriterIndex(to: buffer.writerIndex - 1)
        #expect(throws: AMF0Decoder.Error.truncated) { try AMF0Decoder().decodeAll(buffer) }
    }

    @Test("a 10 MB long string is refused from its 5-byte header")
    func hugeString() {
        var buffer = ByteBuffer()
        buffer.writeInteger(AMF0Marker.longString.rawValue)
        buffer.writeInteger(UInt32(10 << 20))
        #expect(throws: AMF0Decoder.Error.stringTooLong(length: 10 << 20, limit: 1 << 20)) {
            try AMF0Decoder().decode(from: &buffer)
        }
    }

    @Test("a strict array claiming 2^32-1 elements is refused")
    func hugeArray() {
        var buffer = ByteBuffer()
        buffer.writeInteger(AMF0Marker.strictArray.rawValue)
        buffer.writeInteger(UInt32.max)
        #expect(throws: AMF0Decoder.Error.tooManyElements(count: Int(UInt32.max), limit: 65_536)) {
            try AMF0Decoder().decode(from: &buffer)
        }
    }

    @Test("deep nesting stops at the depth limit")
    func deepNesting() {
        var buffer = ByteBuffer()
        for _ in 0..<100 {
            buffer.writeInteger(AMF0Marker.strictArray.rawValue)
            buffer.writeInteger(UInt32(1))
        }
        buffer.writeInteger(AMF0Marker.null.rawValue)
        #expect(throws: AMF0Decoder.Error.nestedTooDeep(limit: 32)) { try AMF0Decoder().decode(from: &buffer) }
    }

    @Test("references, unknown and unsupported markers are typed errors", arguments: [
        ([AMF0Marker.reference.rawValue, 0, 1], AMF0Decoder.Error.referenceNotSupported(index: 1)),
        ([0x42], .unknownMarker(0x42)),
        ([AMF0Marker.typedObject.rawValue], .unsupportedMarker(.typedObject)),
        ([AMF0Marker.avmPlusObject.rawValue], .unsupportedMarker(.avmPlusObject)),
        ([AMF0Marker.string.rawValue, 0, 2, 0xC3, 0x28], .invalidUTF8),
    ])
    func refused(bytes: [UInt8], expected: AMF0Decoder.Error) {
        var buffer = ByteBuffer(bytes: bytes)
        #expect(throws: expected) { try AMF0Decoder().decode(from: &buffer) }
        #expect(!expected.description.isEmpty)
    }

    @Test("subscript and accessors read objects and ECMA arrays")
    func accessors() {
        let value = AMF0Value.ecmaArray(["code": .string("x"), "n": .number(2)])
        #expect(value["code"]?.stringValue == "x")
        #expect(value["n"]?.numberValue == 2)
        #expect(value["missing"] == nil)
        #expect(AMF0Value.null["code"] == nil)
    }
}

/// Found by fuzzing: invalid UTF-8 used to decode as U+FFFD instead of failing.
@Suite("AMF0 string validation")
struct AMF0StringValidationTests {
    @Test("invalid UTF-8 in a string, a long string or an object key is refused with invalidUTF8", arguments: [
        [0x02, 0x00, 0x03, 0xF1, 0x80, 0x80] as [UInt8],           // string: a 4-byte sequence cut short
        [0x02, 0x00, 0x01, 0xFF],                                   // string: a byte that never occurs in UTF-8
        [0x0C, 0x00, 0x00, 0x00, 0x02, 0xC3, 0x28],                 // long string: bad continuation byte
        [0x03, 0x00, 0x01, 0xC0, 0x05, 0x00, 0x00, 0x09],           // object key: overlong encoding
    ])
    func refusesInvalidUTF8(bytes: [UInt8]) {
        let decoder = AMF0Decoder()
        var buffer = ByteBuffer(bytes: bytes)
        #expect(throws: AMF0Decoder.Error.invalidUTF8) { _ = try decoder.decode(from: &buffer) }
    }

    @Test("valid multi-byte UTF-8 still decodes")
    func acceptsValidUTF8() throws {
        let decoder = AMF0Decoder()
        let text = "Publish Background — café ✓"
        var buffer = ByteBuffer(bytes: [0x02, 0x00, UInt8(text.utf8.count)] + Array(text.utf8))
        #expect(try decoder.decode(from: &buffer) == .string(text))
    }
}
