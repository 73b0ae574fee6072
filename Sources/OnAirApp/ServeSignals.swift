import Dispatch
import Glibc

/// SIGINT and SIGTERM as something to await: the default actions are turned off and Dispatch signal
/// sources report them, so `onair serve` stops its relay cleanly (recordings closed) instead of dying.
final class ServeSignals {
    private let stream: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    init() {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        self.stream = stream
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }

    /// Returns at the first signal.
    func next() async {
        for await _ in stream { return }
    }
}
