import Glibc

/// One file for every input of a target that reads files by path (`--audio FILE.wav`, `--video FILE.y4m`),
/// unlinked at once: each input is written over it and opened again through `/proc/self/fd`, so nothing is
/// left to clean up and the reader opens it exactly as the engine opens a user's file.
public struct FuzzScratchFile: Sendable {
    private let descriptor: Int32

    /// A scratch file named after `stem` in /tmp; traps when none can be made (the fuzzer cannot run).
    public init(stem: String) {
        var template = Array("/tmp/onair-fuzz-\(stem)-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { fatalError("mkstemp failed: \(errno)") }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.descriptor = descriptor
    }

    /// Replaces the file's bytes with the input's and returns a path that opens them.
    public func hold(_ data: UnsafePointer<UInt8>?, _ size: Int) -> String {
        guard ftruncate(descriptor, 0) == 0, size == 0 || pwrite(descriptor, data, size, 0) == size else {
            fatalError("cannot write the scratch file: \(errno)")
        }
        return "/proc/self/fd/\(descriptor)"
    }
}
