import Glibc
import NIOCore

/// The file descriptor of one recording, with every POSIX call through one funnel that retries `EINTR`
/// and throws a typed error carrying the call, the path and `errno` (docs/conventions.md §5).
///
/// Opened with `O_NOFOLLOW`, so a symlink planted at `<record-dir>/<name>.flv` is refused rather than
/// followed out of the record directory. Confined to the relay's event loop; closed in `deinit` too.
final class RelayRecordingFile {
    enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case system(call: String, path: String, errno: Int32)
        /// The file (or its directory) was deleted while recording.
        case vanished(path: String)
        /// Another file now sits at the recording's path (the directory was replaced, or the file moved).
        case replaced(path: String)

        var description: String {
            switch self {
            case .system(let call, let path, let code): "\(call) \(path): \(String(cString: strerror(code)))"
            case .vanished(let path): "\(path) was deleted (or its directory removed) while recording"
            case .replaced(let path): "\(path) was replaced by another file (or its directory by another) while recording"
            }
        }
    }

    let path: String
    private var descriptor: Int32
    private(set) var bytesWritten: UInt64 = 0
    /// The file's length when it was opened (an `append` continues after it).
    private var startLength: Int64 = 0

    /// Opens `path` for writing: truncated (`record`) or positioned at its end (`append`).
    init(path: String, truncate: Bool) throws(Error) {
        self.path = path
        let flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | (truncate ? O_TRUNC : 0)
        descriptor = try Self.call("open", path) { open(path, flags, 0o644) }
        if !truncate {
            let end = lseek(descriptor, 0, SEEK_END)
            if end < 0 { throw .system(call: "lseek", path: path, errno: errno) }
            startLength = Int64(end)
        }
    }

    deinit {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
    }

    /// Writes all of `buffer` (whole FLV tags, after the file header when the file is new, so a crash leaves
    /// whole tags behind). When the write fails part way (a full disk), the file is cut back to the end of the
    /// last whole tag that reached it, so it never ends in a torn tag and keeps every tag the disk took (GitHub
    /// issue 14 item 8). Before, it was cut back to where this write began: a 256 KB flush onto a disk with
    /// 190 KB left kept none of them, and whether a full disk left any tag depended on when the flushes came.
    func write(_ buffer: ByteBuffer) throws(Error) {
        var offset = 0
        let total = buffer.readableBytes
        while offset < total {
            do {
                let written = try Self.call("write", path) {
                    buffer.withUnsafeReadableBytes { bytes in
                        Int32(truncatingIfNeeded: Glibc.write(descriptor, bytes.baseAddress! + offset, total - offset))
                    }
                }
                offset += Int(written)
            } catch {
                let kept = Self.wholeTagBytes(in: buffer, upTo: offset, opensFile: startLength == 0 && bytesWritten == 0)
                let wholeTags = off_t(startLength + Int64(bytesWritten) + Int64(kept))
                _ = ftruncate(descriptor, wholeTags)
                _ = lseek(descriptor, wholeTags, SEEK_SET)
                bytesWritten += UInt64(kept)
                throw error
            }
        }
        bytesWritten += UInt64(total)
    }

    /// How many of `buffer`'s first `written` bytes are whole: the FLV file header (when `opensFile`) and
    /// whole tags, each its 11-byte header, its data and its 4-byte back-pointer (FLV spec E.3).
    static func wholeTagBytes(in buffer: ByteBuffer, upTo written: Int, opensFile: Bool) -> Int {
        let fileHeader = 9 + 4
        var position = 0
        if opensFile {
            guard buffer.readableBytes >= 3, buffer.getString(at: buffer.readerIndex, length: 3) == "FLV" else { return 0 }
            guard written >= fileHeader else { return 0 }
            position = fileHeader
        }
        while let size = buffer.getInteger(at: buffer.readerIndex + position + 1, as: UInt32.self).map({ Int($0 >> 8) }) {
            let end = position + 11 + size + 4
            guard end <= written else { break }
            position = end
        }
        return position
    }

    /// Throws when the recording's path no longer leads to the file being written: deleted, or replaced
    /// (another inode there), as when the record directory is removed or swapped while recording.
    func checkInPlace() throws(Error) {
        guard descriptor >= 0 else { return }
        var open = stat()
        var named = stat()
        guard fstat(descriptor, &open) == 0 else { throw .system(call: "fstat", path: path, errno: errno) }
        guard lstat(path, &named) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw .vanished(path: path) }
            throw .system(call: "stat", path: path, errno: errno)
        }
        guard open.st_dev == named.st_dev, open.st_ino == named.st_ino else { throw .replaced(path: path) }
    }

    /// Takes the file's exclusive `flock(2)` lock, without waiting, for as long as it stays open: the mark of a
    /// recording being written, which another relay (`onair demo` and `onair serve` share the default record
    /// directory) reads with ``isBeingRecorded(path:)`` before it moves or appends to the file. False: another
    /// open file holds it.
    func lockExclusively() -> Bool {
        var result: Int32
        repeat { result = flock(descriptor, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
        return result == 0
    }

    /// Whether a recording (here or in another process) holds `path`'s lock now. A file that cannot be opened
    /// is not being recorded.
    static func isBeingRecorded(path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { _ = Glibc.close(fd) }
        var result: Int32
        repeat { result = flock(fd, LOCK_SH | LOCK_NB) } while result != 0 && errno == EINTR
        return result != 0 && errno == EWOULDBLOCK
    }

    func close() {
        guard descriptor >= 0 else { return }
        _ = Glibc.close(descriptor)
        descriptor = -1
    }

    /// Cuts `path` to `length` bytes (drops a partial tag a crash left at the end).
    static func truncate(path: String, to length: Int) throws(Error) {
        _ = try call("truncate", path) { Glibc.truncate(path, off_t(length)) }
    }

    /// Reads `path` in pieces, handing each to `body`; a missing file reads as nothing and returns false.
    static func read(path: String, pieceSize: Int = 1 << 20, _ body: (inout ByteBuffer) throws -> Void) throws -> Bool {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return false }
            throw Error.system(call: "open", path: path, errno: errno)
        }
        defer { _ = Glibc.close(fd) }
        var buffer = ByteBuffer()
        while true {
            buffer.reserveCapacity(minimumWritableBytes: pieceSize)
            let count = try call("read", path) {
                buffer.withUnsafeMutableWritableBytes { Int32(truncatingIfNeeded: Glibc.read(fd, $0.baseAddress!, pieceSize)) }
            }
            if count == 0 { return true }
            buffer.moveWriterIndex(forwardBy: Int(count))
            try body(&buffer)
            buffer.discardReadBytes()
        }
    }

    private static func call(_ name: String, _ path: String, _ body: () -> Int32) throws(Error) -> Int32 {
        while true {
            let result = body()
            if result >= 0 { return result }
            if errno == EINTR { continue }
            throw .system(call: name, path: path, errno: errno)
        }
    }
}
