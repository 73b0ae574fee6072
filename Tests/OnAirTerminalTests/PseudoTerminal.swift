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
    /// Bytes the drain thread has read from the master in all (grows while the screen's output comes in).
    private let receivedCount = Atomic<Int>(0)
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
            receivedCount.add(count, ordering: .relaxed)
        }
    }

    /// Everything written to the terminal so far, and forgets it: once the master has nothing left to read and
    /// no byte has come in for `settle`. It was a fixed 100 ms sleep, which a loaded machine could outlast
    /// before the drain thread ran, splitting a frame's output between two takes (issue 24).
    func take(settle: Duration = .milliseconds(100)) -> [UInt8] {
        let step = 0.01
        let quietSteps = max(1, Int((Double(settle.components.seconds) + Double(settle.components.attoseconds) / 1e18) / step))
        let deadline = ContinuousClock.now + .seconds(10)      // a safety net for output that never settles
        var last = receivedCount.load(ordering: .relaxed)
        var quiet = 0
        while quiet < quietSteps && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: step)
            let now = receivedCount.load(ordering: .relaxed)
            quiet = now == last && pendingBytes() == 0 ? quiet + 1 : 0
            last = now
        }
        return received.withLock { bytes in
            defer { bytes.removeAll() }
            return bytes
        }
    }

    /// Bytes waiting on the master, not yet read by the drain thread.
    private func pendingBytes() -> Int32 {
        var count: Int32 = 0
        return ioctl(master, UInt(FIONREAD), &count) == 0 ? count : 0
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
