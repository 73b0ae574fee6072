import Glibc

/// Makes sure the record directory exists and can take new files, with `mkdir(2)` and `access(2)` so a
/// failure names the system's reason ("Not a directory", "Read-only file system", "Permission denied")
/// rather than Foundation's "The operation could not be completed".
///
/// The relay calls it before each recording (on its event loop: an existing directory costs one `stat`);
/// `onair serve` calls it at start-up when recordings are certain to be wanted (`--record all`, or
/// `--record-dir` given) and `onair demo` before its embedded relay starts, so a directory that can never be
/// written is one line at start rather than a `recordingFailed` at every publish.
public enum RelayRecordDirectory {
    /// Why the directory cannot hold recordings.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        /// The directory asked for.
        public let path: String
        /// The path component the system refused (a parent of `path`, or `path` itself).
        public let failedAt: String
        public let reason: String

        public var description: String {
            failedAt == path ? "cannot create record directory \(path): \(reason)"
                : "cannot create record directory \(path): \(failedAt): \(reason)"
        }
    }

    /// Creates `path` and its missing parents (mode 0755), then checks the process may create files in it.
    public static func prepare(_ path: String) throws(Failure) {
        guard !path.isEmpty else { throw Failure(path: path, failedAt: path, reason: "empty path") }
        var info = stat()
        if stat(path, &info) != 0 || info.st_mode & S_IFMT != S_IFDIR {
            try makeWithParents(path)
        }
        guard access(path, W_OK | X_OK) == 0 else {
            throw Failure(path: path, failedAt: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Runs `body` holding the directory's exclusive `flock(2)` lock, so relays of other processes sharing it
    /// choose, move and open recordings one at a time (`RelayRecorder`): another relay holds it for a few
    /// system calls. Bounded, because it runs on the relay's event loop: a lock still held after
    /// 200 ms (another program sitting on it) or a directory that cannot be opened runs `body`
    /// unlocked, as before this lock existed.
    static func withLock<T, E: Swift.Error>(_ path: String, _ body: () throws(E) -> T) throws(E) -> T {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return try body() }
        defer { _ = close(fd) }
        var locked = false
        for _ in 0..<lockAttempts {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 {
                locked = true
                break
            }
            guard errno == EWOULDBLOCK || errno == EINTR else { break }
            usleep(lockPatienceStep)
        }
        defer { if locked { _ = flock(fd, LOCK_UN) } }
        return try body()
    }

    /// At most 40 tries 5 ms apart (200 ms) for the directory's lock.
    private static let lockAttempts = 40
    private static let lockPatienceStep: useconds_t = 5_000

    /// `mkdir(2)` of each component of `path` in turn, the way `mkdir -p` walks it.
    private static func makeWithParents(_ path: String) throws(Failure) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            try makeDirectory(prefix, for: path)
        }
    }

    /// One `mkdir(2)`; an existing directory is fine, an existing file is not.
    private static func makeDirectory(_ prefix: String, for path: String) throws(Failure) {
        let failedAt = path.hasPrefix("/") ? prefix : String(prefix.dropFirst(2))
        var result: Int32
        repeat { result = mkdir(prefix, 0o755) } while result != 0 && errno == EINTR
        if result == 0 { return }
        let code = errno
        var info = stat()
        if code == EEXIST, stat(prefix, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { return }
            throw Failure(path: path, failedAt: failedAt, reason: String(cString: strerror(ENOTDIR)))
        }
        throw Failure(path: path, failedAt: failedAt, reason: String(cString: strerror(code)))
    }
}
