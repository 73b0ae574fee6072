import FuzzDriver
import Glibc

/// libFuzzer's entry point: any bytes as a `--audio FILE.wav` — the RIFF walk, the fmt chunk (every PCM width,
/// float, the extensible header) and reading sample frames through the end of the data and around the loop.
/// The bytes are written to one scratch file and opened by path, as the engine opens a WAV. A trap is a
/// finding; so is an accepted file whose format is outside what the encoder takes, or a read that returns
/// other than the frames asked for.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWAVReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let path = scratch.hold(data, size)
    guard let source = try? WAVFileSource(path: path, pacing: .unpaced) else { return 0 }
    precondition((1...2).contains(source.format.channels), "accepted \(source.format.channels) channels")
    precondition((1...WAVFileSource.maximumSampleRate).contains(source.format.sampleRate), "accepted \(source.format.sampleRate) Hz")
    precondition(source.frameCount > 0, "accepted a file without a sample frame")
    // Reads of an encoder's frame and of odd sizes, the last one longer than the data: across the loop.
    for frames in [1024, 1, 333, min(source.frameCount, 65_536) + 1] {
        guard let chunk = try? source.read(frames: frames) else { return 0 }
        precondition(chunk.samples.count == frames * source.format.channels, "a read of \(frames) frames returned \(chunk.samples.count) samples")
    }
    return 0
}

private let scratch = FuzzScratchFile(stem: "wav")

/// SwiftPM points the program's `main` at `<module>_main`.
@_cdecl("FuzzWAVReader_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzWAVReader)
}
