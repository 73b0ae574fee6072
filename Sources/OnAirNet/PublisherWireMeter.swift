import Synchronization

/// What a publisher's sockets actually took: bytes and video frames counted when each write completes
/// (the kernel accepted them), and how many writes are still waiting. One meter lives as long as the
/// publisher, across connections, so the figures and the sparkline survive reconnects.
///
/// Every publisher figure on screen and in `stats` events comes from here, not from the encoder: after a
/// stop, during an interruption or a reconnect, nothing is written and the figures fall to zero.
public final class PublisherWireMeter: Sendable {
    public struct Counts: Sendable, Equatable {
        /// Bytes written to the socket, RTMP chunk headers included.
        public var bytesWritten: UInt64 = 0
        /// Video frames whose bytes were written.
        public var videoFramesWritten: UInt64 = 0
        /// Writes handed to the socket and not yet completed.
        public var writesPending = 0

        public init() {}
    }

    private let counts = Mutex(Counts())

    public init() {}

    public var snapshot: Counts { counts.withLock { $0 } }

    /// A write of `bytes` carrying `videoFrames` frames starts; call `finished` when it completes or fails.
    func started() {
        counts.withLock { $0.writesPending += 1 }
    }

    func finished(bytes: Int?, videoFrames: Int) {
        counts.withLock {
            $0.writesPending = max(0, $0.writesPending - 1)
            guard let bytes else { return }
            $0.bytesWritten &+= UInt64(max(0, bytes))
            $0.videoFramesWritten &+= UInt64(max(0, videoFrames))
        }
    }
}
