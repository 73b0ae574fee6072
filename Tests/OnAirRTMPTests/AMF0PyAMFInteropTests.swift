import Foundation
import NIOCore
import OnAirRTMP
import Testing

/// Cross-checks AMF0 against py3amf (the `pyamf` module), an independent implementation, in both directions.
@Suite("AMF0 against py3amf")
struct AMF0PyAMFInteropTests {
    /// The same table as `pythonTable`, in the same order: every AMF0 type OnAir supports.
    static let table: [AMF0Value] = [
        .number(0), .number(-1.5), .number(1.7976931348623157e308), .boolean(true), .boolean(false),
        .string(""), .string("héllo ✓"), .string(String(repeating: "x", count: 70_000)),
        .null, .undefined, .date(millisecondsSinceEpoch: 1_577_934_245_000, timeZone: 0),
        .object(["a": .number(1), "b": .object(["c": .string("d")])]),
        .ecmaArray(["width": .number(640), "stereo": .boolean(true)]),
        .strictArray([.number(1), .string("two"), .null, .strictArray([])]),
    ]

    static let pythonPrelude = """
    import sys, datetime, pyamf
    def enc(v):
        e = pyamf.get_encoder(pyamf.AMF0)
        e.writeElement(v)
        return e.stream.getvalue().hex()
    """

    static let pythonTable = pythonPrelude + """

    table = [0.0, -1.5, 1.7976931348623157e308, True, False, '', 'h\\u00e9llo \\u2713', 'x' * 70000, None,
             pyamf.Undefined, datetime.datetime(2020, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc),
             {'a': 1.0, 'b': {'c': 'd'}}, pyamf.MixedArray(width=640.0, stereo=True), [1.0, 'two', None, []]]
    for v in table:
        print(enc(v))
    l = [1.0]
    print(enc([l, l]))
    """

    static let pythonReencode = pythonPrelude + """

    for line in sys.stdin:
        d = pyamf.get_decoder(pyamf.AMF0, bytes.fromhex(line.strip()))
        print(enc(d.readElement()))
    """

    @Test("pyamf's encodings decode to our values and re-encode byte-identically")
    func pyamfToOnAir() throws {
        let lines = try Self.python(Self.pythonTable)
        try #require(lines.count == Self.table.count + 1)
        for (value, hex) in zip(Self.table, lines) {
            var buffer = ByteBuffer(bytes: Self.bytes(hex))
            #expect(try AMF0Decoder().decode(from: &buffer) == value)
            let ours = Array(AMF0Encoder.encode([value]).readableBytesView)
            #expect(Self.normalized(ours, for: value) == Self.normalized(Self.bytes(hex), for: value))
        }
        // pyamf writes a repeated object as an AMF0 reference (§2.9), which OnAir refuses with a typed error.
        var reference = ByteBuffer(bytes: Self.bytes(lines[Self.table.count]))
        #expect(throws: AMF0Decoder.Error.referenceNotSupported(index: 1)) { try AMF0Decoder().decode(from: &reference) }
    }

    @Test("our encodings decode in pyamf and come back byte-identical")
    func onAirToPyamf() throws {
        let ours = Self.table.map { Array(AMF0Encoder.encode([$0]).readableBytesView) }
        let input = ours.map { $0.map { String(format: "%02x", $0) }.joined() }.joined(separator: "\n") + "\n"
        let lines = try Self.python(Self.pythonReencode, input: input)
        try #require(lines.count == Self.table.count)
        for ((value, mine), hex) in zip(zip(Self.table, ours), lines) {
            #expect(Self.normalized(mine, for: value) == Self.normalized(Self.bytes(hex), for: value))
        }
    }

    /// The one documented difference: an ECMA array's count (AMF0 §2.10) is a hint. OnAir writes the
    /// number of properties (as FFmpeg and nginx-rtmp do); pyamf writes the highest integer key (0 here).
    static func normalized(_ bytes: [UInt8], for value: AMF0Value) -> [UInt8] {
        guard case .ecmaArray = value, bytes.count >= 5 else { return bytes }
        var copy = bytes
        copy.replaceSubrange(1..<5, with: [0, 0, 0, 0])
        return copy
    }

    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(hex.utf8.count / 2)
        var iterator = hex.utf8.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            out.append(UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) ?? 0)
        }
        return out
    }

    static func python(_ script: String, input: String = "") throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let writer = Thread {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "python3 failed: \(String(decoding: errors, as: UTF8.self))")
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
