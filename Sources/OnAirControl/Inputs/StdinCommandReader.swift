import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads headless commands from standard input, one per line, on a thread of its own (a blocking read
/// must not hold one of the cooperative pool's two threads). End of input just ends the reading: a
/// front end started with no stdin (CI, `ssh host onair … </dev/null`) keeps running until its duration.
/// Lines are bounded (``StdinLineSplitter``): a line past the bound is skipped as it arrives and reported
/// by `tooLong` with its length and first bytes, never echoed whole.
public enum StdinCommandReader {
    public static func start(tooLong: @escaping @Sendable (_ bytes: Int, _ prefix: String) -> Void = { _, _ in },
                             _ line: @escaping @Sendable (String) -> Void) {
        let thread = Thread {
            var splitter = StdinLineSplitter()
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            func deliver(_ piece: StdinLineSplitter.Line) {
                switch piece {
                case .text(let text):
                    let trimmed = text.trimmingCharacters(in: .whitespaces)
                    if trimmed.isEmpty || trimmed.hasPrefix("#") { return }
                    line(trimmed)
                case .tooLong(let bytes, let prefix):
                    tooLong(bytes, prefix)
                }
            }
            while true {
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                for piece in splitter.feed(buffer[0..<count]) { deliver(piece) }
            }
            if let last = splitter.finish() { deliver(last) }
        }
        thread.name = "onair-stdin"
        thread.start()
    }
}
