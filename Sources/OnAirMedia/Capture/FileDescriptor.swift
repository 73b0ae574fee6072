import Glibc

/// An open file, closed in `deinit`; used by the Y4M and WAV readers on their capture thread.
final class FileDescriptor {
    let path: String
    private let fd: Int32
    /// The descriptor itself, for `mmap` (`MappedPicture`); it stays open while this object lives.
    var descriptor: Int32 { fd }

    /// Opens `path` read-only; a missing or unreadable file becomes `fileUnreadable`.
    init(readingFrom path: String) throws {
        self.path = path
        do {
            fd = try CCall.posix("open") { open(path, O_RDONLY | O_CLOEXEC) }
        } catch {
            if case let MediaError.system(_, code) = error {
                throw MediaError.fileUnreadable(path: path, reason: String(cString: strerror(code)))
            }
            throw error
        }
    }

    deinit { close(fd) }

    /// Reads up to `count` bytes at `offset`; fewer only at end of file.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws -> Int {
        var done = 0
        while done < buffer.count {
            let got = try CCall.posix("pread") {
                pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            }
            if got == 0 { break }
            done += got
        }
        return done
    }

    /// Reads `count` bytes at `offset` into a new array; shorter at end of file.
    func read(count: Int, at offset: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = try bytes.withUnsafeMutableBytes { buffer throws in try read(into: buffer, at: offset) }
        bytes.removeLast(count - got)
        return bytes
    }

    /// The file's size in bytes.
    func size() throws -> Int {
        var info = stat()
        try CCall.posix("fstat") { fstat(fd, &info) }
        return Int(info.st_size)
    }
}
