import FuzzDriver
import Glibc

/// libFuzzer's entry point: any bytes as a `--video FILE.y4m` — the header line (size, rate, colour space,
/// interlacing), the frame count, the FRAME markers, and each frame mapped, read into the pool, or converted
/// to 4:2:0 by libswscale, through the end of the clip and around the loop. The bytes are written to one
/// scratch file (`FuzzScratchFile`) and opened by path, as the engine opens a clip. A trap is a finding; so
/// is an accepted clip outside the reader's bounds, or a frame whose picture is not exactly the 4:2:0 size of
/// the clip.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzY4MReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let path = scratch.hold(data, size)
    for mapsFrames in [true, false] {
        guard let source = try? Y4MFileSource(path: path, pacing: .unpaced, mapsFrames: mapsFrames) else { return 0 }
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

private let scratch = FuzzScratchFile(stem: "y4m")

/// SwiftPM points the program's `main` at `<module>_main`.
@_cdecl("FuzzY4MReader_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzY4MReader)
}
