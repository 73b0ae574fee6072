import CALSA
import CFFmpeg
import Glibc

/// The one funnel every C call in OnAirMedia goes through (docs/conventions.md §5, after swift-nio's `System.swift`).
///
/// Why a funnel: signals interrupt blocking calls (`read`, `ioctl`, `poll`, `clock_nanosleep`) at any time, and a
/// failure without the function name and errno is undiagnosable on an operator's machine. Every call site
/// gets EINTR retried and a typed `MediaError` for free.
enum CCall {
    /// A POSIX call that returns -1 and sets `errno` on failure; EINTR is retried.
    @discardableResult
    static func posix<Result: BinaryInteger>(_ function: String, _ body: () -> Result) throws(MediaError) -> Result {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = errno
            if code == EINTR { continue }
            throw .system(function: function, errno: code)
        }
    }

    /// A POSIX call that returns the error number itself (0 on success), like `clock_nanosleep`; EINTR is retried.
    static func posixReturningError(_ function: String, _ body: () -> Int32) throws(MediaError) {
        while true {
            let result = body()
            if result == 0 { return }
            if result == EINTR { continue }
            throw .system(function: function, errno: result)
        }
    }
}

/// libav return codes: negative AVERROR values are errors, anything else passes through.
@discardableResult
func check(_ result: Int32, _ function: String) throws(MediaError) -> Int32 {
    guard result < 0 else { return result }
    throw .libav(function: function, code: result, message: avErrorMessage(result))
}

/// ALSA return codes: negative errno values are errors, anything else passes through.
@discardableResult
func check<Result: BinaryInteger>(alsa result: Result, _ function: String) throws(MediaError) -> Result {
    guard result < 0 else { return result }
    let code = Int32(truncatingIfNeeded: result)
    throw .alsa(function: function, code: code, message: String(cString: snd_strerror(code)))
}

/// The text of an AVERROR code (`av_err2str` is a macro Swift cannot import).
func avErrorMessage(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 128)
    return buffer.withUnsafeMutableBufferPointer { pointer in
        String(cString: onair_av_err2str(code, pointer.baseAddress, pointer.count))
    }
}
