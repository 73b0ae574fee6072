import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// glibc's `openpty` (in libc since 2.34) is declared in <pty.h>, which the Glibc module does not include.
@_silgen_name("openpty")
private func openpty(
    _ master: UnsafeMutablePointer<Int32>, _ slave: UnsafeMutablePointer<Int32>,
    _ name: UnsafeMutablePointer<CChar>?, _ termios: UnsafeRawPointer?, _ size: UnsafeRawPointer?
) -> Int32

/// A pseudo-terminal for ncurses tests: the screen writes to the slave side, a thread drains the master
/// (a full pty buffer would block ncurses), and the test reads what was written.
final class PseudoTerminal: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let master: Int32
    let slave: Int32
    private let received = Mutex<[UInt8]>([])
    private let stopped = Atomic<Bool>(false)

    init(width: Int, height: Int) throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw Failure(description: "openpty failed: errno \(errno)") }
        self.master = master
        self.slave = slave
        try resize(width: width, height: height)
        let thread = Thread { [self] in drain() }
        thread.start()
    }

    /// Sets the window size the slave reports (what ncurses reads at `newterm` and on KEY_RESIZE).
    func resize(width: Int, height: Int) throws {
        var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
        guard ioctl(master, UInt(TIOCSWINSZ), &size) == 0 else { throw Failure(description: "TIOCSWINSZ failed: errno \(errno)") }
    }

    private func drain() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !stopped.load(ordering: .relaxed) {
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 20) > 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            received.withLock { $0 += chunk.prefix(count) }
        }
    }

    /// Everything written to the terminal so far, and forgets it.
    func take(settle: Duration = .milliseconds(100)) -> [UInt8] {
        Thread.sleep(forTimeInterval: Double(settle.components.seconds) + Double(settle.components.attoseconds) / 1e18)
        return received.withLock { bytes in
            defer { bytes.removeAll() }
            return bytes
        }
    }

    /// Types into the terminal, as a user would.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    func close() {
        stopped.store(true, ordering: .relaxed)
        Thread.sleep(forTimeInterval: 0.05)
        _ = Glibc.close(slave)
        _ = Glibc.close(master)
    }
}
