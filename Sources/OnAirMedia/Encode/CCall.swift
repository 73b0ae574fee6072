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
