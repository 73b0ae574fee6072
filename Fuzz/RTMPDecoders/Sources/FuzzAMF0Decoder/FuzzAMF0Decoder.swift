import FuzzDriver
import NIOCore
import OnAirRTMP

/// libFuzzer's entry point: decode any bytes as AMF0 values. A trap is a finding; so is a decoded value
/// list that, re-encoded and decoded again, is not the same list (compared by wire bytes, so NaN payloads
/// and the long-string/short-string choice of the encoder do not count as differences).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAMF0Decoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = ByteBuffer(bytes: UnsafeBufferPointer(start: size > 0 ? data : nil, count: size))
    let decoder = AMF0Decoder(limits: .init(maxStringLength: 1 << 16, maxDepth: 32, maxElements: 4096))

    // Incremental decoding: `nil` must leave the buffer untouched, a value must consume bytes.
    var incremental = input
    var prefix: [AMF0Value] = []
    do {
        while incremental.readableBytes > 0 {
            let before = incremental.readerIndex
            guard let value = try decoder.decode(from: &incremental) else {
                precondition(incremental.readerIndex == before, "decode returned nil but consumed bytes")
                break
            }
            precondition(incremental.readerIndex > before, "decode returned a value without consuming bytes")
            prefix.append(value)
        }
    } catch {
        _ = error.description
    }

    let values: [AMF0Value]
    do {
        values = try decoder.decodeAll(input)
    } catch {
        _ = error.description
        return 0
    }
    precondition(values.count == prefix.count, "decodeAll and decode(from:) disagree on the value count")

    let encoded = AMF0Encoder.encode(values)
    let again: [AMF0Value]
    do {
        again = try decoder.decodeAll(encoded)
    } catch {
        preconditionFailure("re-encoded values do not decode: \(error)")
    }
    precondition(again.count == values.count, "round trip changed the value count")
    let reencoded = AMF0Encoder.encode(again)
    precondition(reencoded == encoded, "round trip changed the values")
    for (a, b) in zip(values, again) where !hasNaN(a) {
        precondition(a == b, "round trip changed a value")
    }
    return 0
}

/// NaN never equals itself, so values holding one are compared by their bytes only.
private func hasNaN(_ value: AMF0Value) -> Bool {
    switch value {
    case .number(let number): number.isNaN
    case .date(let milliseconds, _): milliseconds.isNaN
    case .object(let properties), .ecmaArray(let properties): properties.contains { hasNaN($0.value) }
    case .strictArray(let elements): elements.contains(where: hasNaN)
    case .boolean, .string, .null, .undefined: false
    }
}

/// SwiftPM points the program's `main` at `<module>_main`.
@_cdecl("FuzzAMF0Decoder_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzAMF0Decoder)
}
