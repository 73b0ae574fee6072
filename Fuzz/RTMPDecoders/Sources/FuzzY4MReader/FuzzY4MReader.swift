import FuzzDriver
import Glibc

/// libFuzzer's entry point: any bytes as a `--video FILE.y4m` — the header line (size, rate, colour space,
/// interlacing), the frame count, the FRAME markers, and each frame mapped, read into the pool, or converted
/// to 4:2:0 by libswscale, through the end of the clip and around the loop. The bytes are written to one
/// scratch file and opened by path, as the engine opens a clip. A trap is a finding; so is an accepted clip
/// outside the reader's bounds, or a frame whose picture is not exactly the 4:2:0 size of the clip.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzY4MReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let file = memoryFile else { fatalError("mkstemp failed: \(errno)") }
    guard ftruncate(file, 0) == 0, size == 0 || pwrite(file, data, size, 0) == size else { fatalError("cannot write the memory file") }
    for mapsFrames in [true, false] {
        guard let source = try? Y4MFileSource(path: "/proc/self/fd/\(file)", pacing: .unpaced, mapsFrames: mapsFrames) else { return 0 }
        let format = source.granted
        precondition((1...Y4MFileSource.maximumSide).contains(format.width), "accepted width \(format.width)")
        precondition((1...Y4MFileSource.maximumSide).contains(format.height), "accepted height \(format.height)")
        precondition(
            (Y4MFileSource.minimumFramesPerSecond...Y4MFileSource.maximumFramesPerSecond).contains(format.framesPerSecond),
            "accepted \(format.framesPerSecond) fps")
        precondition(source.frameCount > 0, "accepted a clip without a whole frame")
        // Every frame once and the first again after the wrap; a bad marker ends the clip with an error.
        for _ in 0...min(source.frameCount, 8) {
            guard let frame = try? source.read() else { break }
            let expected = VideoFrame.byteCount(width: format.width, height: format.height)
            let sum = frame.withUnsafePictureBytes { picture -> Int in
                precondition(picture.count == expected, "a \(format.width)x\(format.height) frame of \(picture.count) bytes, not \(expected)")
                return picture.reduce(0) { $0 &+ Int($1) }
            }
            precondition(sum >= 0)
        }
    }
    return 0
}

/// One file for every input, unlinked at once: opened again through `/proc/self/fd`, nothing left to clean up.
private let memoryFile: Int32? = {
    var template = Array("/tmp/onair-fuzz-y4m-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { return nil }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    return descriptor
}()

/// SwiftPM points the program's `main` at `<module>_main`.
@_cdecl("FuzzY4MReader_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzY4MReader)
}
