import Dispatch
import Foundation
import Synchronization

/// A dedicated Foundation thread for blocking work (capture, encode), with an "opened" handshake.
///
/// Why a handshake: sources and codecs own C pointers that must stay on one thread, so they are created on
/// the worker itself; but the caller of `MediaEngine.start()` needs to know at once whether the camera
/// opened and what the track descriptions are. The worker reports `Info` (a Sendable value) or the error,
/// then keeps running; `start` waits for that report. Blocking work never touches Swift's cooperative pool.
final class WorkerThread: Sendable {
    private let finished = DispatchSemaphore(value: 0)
    let name: String

    private init(name: String) { self.name = name }

    /// Runs `body` on a new thread; `body` calls `ready` once after opening its resources, then loops.
    static func start<Info: Sendable>(
        name: String,
        _ body: @escaping @Sendable (_ ready: @Sendable (Result<Info, any Error>) -> Void) -> Void
    ) throws -> (WorkerThread, Info) {
        let worker = WorkerThread(name: name)
        let report = Mutex<Result<Info, any Error>?>(nil)
        let reported = DispatchSemaphore(value: 0)
        let thread = Thread {
            WorkerThread.nameKernelThread(name)
            body { result in
                let first = report.withLock { stored in
                    guard stored == nil else { return false }
                    stored = result
                    return true
                }
                if first { reported.signal() }
            }
            // A body that returned without reporting (it should not) must not hang `start`.
            let unreported = report.withLock { stored in
                guard stored == nil else { return false }
                stored = .failure(MediaError.invalidConfiguration("\(name) ended before it started"))
                return true
            }
            if unreported { reported.signal() }
            worker.finished.signal()
        }
        thread.name = name
        // x264 and libswscale use deep stacks; Foundation's default for secondary threads is small.
        thread.stackSize = 8 << 20
        thread.start()
        reported.wait()
        let result = report.withLock { $0 }!
        switch result {
        case let .success(info): return (worker, info)
        case let .failure(error):
            worker.join()
            throw error
        }
    }

    /// Foundation keeps `Thread.name` to itself on Linux; the kernel's name (15 bytes) is what top -H, perf
    /// and gdb show. pthread_setname_np is not visible to Swift here, so write what it writes.
    private static func nameKernelThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// Waits for the thread to finish (callers first tell it to stop).
    func join() {
        finished.wait()
        finished.signal()
    }
}
