import Dispatch
import Foundation
import Synchronization

/// Turns SIGINT and SIGTERM into a call on a dispatch queue, so a front end can stop cleanly — unpublish,
/// close recordings, restore the terminal — instead of dying mid-write.
public final class SignalWatcher: Sendable {
    /// Dispatch sources are not Sendable; they are only touched here, under the lock.
    private let sources: Mutex<[any DispatchSourceSignal]>

    public init(signals: [Int32] = [SIGINT, SIGTERM], handler: @escaping @Sendable (Int32) -> Void) {
        sources = Mutex(signals.map { number in
            // The default action must be off, or the process dies before the source fires.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        })
    }

    deinit {
        sources.withLock { $0.forEach { $0.cancel() } }
    }
}
