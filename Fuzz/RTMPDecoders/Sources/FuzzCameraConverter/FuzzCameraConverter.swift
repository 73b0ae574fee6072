import CV4L2
import FuzzDriver
import Glibc

/// libFuzzer's entry point: a camera driver's answer as any bytes — the granted format and size, the line
/// stride (VIDIOC_S_FMT's `bytesperline`) and one filled buffer — through `CameraFrameConverter` as
/// `V4L2Camera` calls it: YUYV, NV12 and YU12 through libswscale, MJPEG through libavcodec's decoder first.
/// The buffer is placed twice: its last byte before an unmapped page with nothing more said readable, and at a
/// page's start with the rest of its last page readable, as a driver's mapping is. A read past what was said
/// readable faults; a trap is a finding; so is a frame that is not exactly the granted size.
///
/// Input: byte 0 picks the format (mod 4), bytes 1–2 and 3–4 the width and height (little-endian, mod 512),
/// bytes 5–6 the stride, bytes 7–9 the buffer's `bytesused` (mod 2 MiB); the rest, repeated to that length, is
/// the buffer. libswscale and libavcodec are not instrumented, so the fuzzer cannot see a larger picture as
/// new coverage: repeating a short input makes every geometry cheap to reach.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCameraConverter(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size >= 10 else { return 0 }
    let formats = [onair_V4L2_PIX_FMT_YUYV(), onair_V4L2_PIX_FMT_NV12(), onair_V4L2_PIX_FMT_YUV420(), onair_V4L2_PIX_FMT_MJPEG()]
    func word(_ at: Int) -> Int { Int(data[at]) | Int(data[at + 1]) << 8 }
    let width = word(1) % 512, height = word(3) % 512
    guard let converter = try? CameraFrameConverter(
        device: "/dev/video-fuzz", pixelFormat: formats[Int(data[0]) % 4], width: width, height: height, bytesPerLine: word(5))
    else { return 0 }
    let used = (Int(data[7]) | Int(data[8]) << 8 | Int(data[9]) << 16) % (2 << 20)
    let pattern = UnsafeBufferPointer(start: data + 10, count: size - 10)
    let buffer = (0..<used).map { pattern.isEmpty ? 0 : pattern[$0 % pattern.count] }
    for atPageEnd in [true, false] {
        guard let frame = buffer.withUnsafeBytes({ buffer in guardedCopy(of: buffer, atPageEnd: atPageEnd) { bytes, readable in
            try? converter.convert(bytes, readableLength: readable, capture: 0, sequence: 0)
        } }) else { continue }
        precondition(frame.width == width && frame.height == height, "a \(frame.width)x\(frame.height) frame from a \(width)x\(height) camera")
        let count = frame.withUnsafePictureBytes { $0.count }
        precondition(count == VideoFrame.byteCount(width: width, height: height), "a \(width)x\(height) frame of \(count) bytes")
    }
    return 0
}

/// `bytes` copied into fresh pages followed by a `PROT_NONE` one: ending right before it (readable: the
/// bytes alone) or starting a page (readable: to the end of the last page, as `mmap` maps a driver's buffer).
private func guardedCopy<Result>(
    of bytes: UnsafeRawBufferPointer, atPageEnd: Bool, _ body: (UnsafeRawBufferPointer, Int) -> Result?
) -> Result? {
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let pages = max(1, (bytes.count + page - 1) / page) * page
    guard let region = mmap(nil, pages + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), region != MAP_FAILED else {
        fatalError("mmap failed: \(errno)")
    }
    defer { munmap(region, pages + page) }
    precondition(mprotect(region + pages, page, PROT_NONE) == 0)
    let start = atPageEnd ? region + pages - bytes.count : region
    if let base = bytes.baseAddress { start.copyMemory(from: base, byteCount: bytes.count) }
    return body(UnsafeRawBufferPointer(start: start, count: bytes.count), atPageEnd ? bytes.count : pages)
}

/// SwiftPM points the program's `main` at `<module>_main`.
@_cdecl("FuzzCameraConverter_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzCameraConverter)
}
