import FuzzDriver
import NIOCore
import OnAirCore
import OnAirRTMP

/// libFuzzer's entry point: any bytes as what a publisher puts in an AVC sequence header (FLV spec E.4.3.1):
/// an `avcC` record (ISO/IEC 14496-15 §5.2.4.1) whose SPSs go through the H.264 SPS parser (ITU-T H.264
/// §7.3.2.1.1), and the same bytes as one bare SPS, as an Annex-B stream (OnAirCore's scanner, which the
/// player runs over every keyframe for an in-band SPS) and as length-prefixed NAL units. A trap is a
/// finding; so is a parsed SPS whose size is not positive or exceeds its coded size or the parser's bound,
/// a record that does not read back equal after it is written, or a NAL range outside the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSPSParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: size > 0 ? data : nil, count: size)
    let array = Array(bytes)

    var sets: [[UInt8]] = [[AnnexB.NALType.sequenceParameterSet.rawValue] + array, array]
    if let record = try? AVCDecoderConfigurationRecord(parsing: ByteBuffer(bytes: bytes)) {
        precondition((1...4).contains(record.nalLengthSize), "a NAL length size outside 1...4")
        var written = ByteBuffer()
        record.write(into: &written)
        precondition((try? AVCDecoderConfigurationRecord(parsing: written)) == record, "a parsed record does not read back after it is written")
        sets += record.sequenceParameterSets
        _ = try? H264NALUnits.split(lengthPrefixed: ByteBuffer(bytes: bytes), lengthSize: record.nalLengthSize)
    }
    for set in sets {
        guard let sps = H264SequenceParameterSet(set) else { continue }
        precondition(sps.width > 0 && sps.height > 0, "a parsed SPS with no picture")
        precondition(sps.width <= sps.codedWidth && sps.height <= sps.codedHeight, "cropped beyond the coded size")
        // 1024 macroblocks a side (`maxMacroblocksPerSide`), twice the rows for field coding.
        precondition(sps.codedWidth <= 16_384 && sps.codedHeight <= 32_768, "a coded size past the parser's bound")
        _ = PictureBound.fits(width: sps.codedWidth, height: sps.codedHeight)
    }

    var end = 0
    for range in AnnexB.ranges(in: bytes) {
        precondition(!range.isEmpty && range.lowerBound >= end && range.upperBound <= size, "a NAL range outside the input or out of order")
        end = range.upperBound
    }
    for lengthSize in 1...4 { _ = try? H264NALUnits.split(lengthPrefixed: ByteBuffer(bytes: bytes), lengthSize: lengthSize) }
    _ = AACAudioSpecificConfig(array)
    return 0
}

/// SwiftPM points the program's `main` at `<module>_main`.
@_cdecl("FuzzSPSParser_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzSPSParser)
}
