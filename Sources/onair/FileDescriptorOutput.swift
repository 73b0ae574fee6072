#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes whole lines straight to a file descriptor: Swift 6 refuses to read C's `stderr` global.
struct FileDescriptorOutput: Sendable {
    let descriptor: Int32

    static let standardError = FileDescriptorOutput(descriptor: 2)

    func writeLine(_ text: String) {
        var line = Array((text + "\n").utf8)
        var offset = 0
        while offset < line.count {
            let written = line.withUnsafeMutableBytes { buffer in
                write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
        line.removeAll()
    }
}
