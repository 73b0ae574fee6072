import NIOCore
import NIOPosix

/// Runs a task's jobs on the event loop of the connection a publisher sends on (issue 31): the media pump's
/// loop — wait for a batch, build its FLV tags, write, await the write — then needs one thread wake-up per
/// batch (the encoder thread waking the event loop) instead of three (encoder → task pool, pool → event loop
/// for the write, event loop → pool when the write completes). On the loop itself, `flatSubmit` and the
/// write's completion are queued without a wake-up.
///
/// Between connections (no publisher, or one not connected) jobs run on a fixed loop of NIO's singleton group.
/// A task may hop loops when its publisher reconnects: jobs of one task never run at once whatever the loop,
/// so that is safe. Nothing run here may block: the pump only takes locks held for a few instructions.
public final class PublisherTaskExecutor: TaskExecutor {
    private let publisher: @Sendable () -> RTMPPublisher?
    private let fallback: any EventLoop

    /// `publisher` is asked at every job: the one the pump sends to now, if any.
    public init(following publisher: @escaping @Sendable () -> RTMPPublisher?) {
        self.publisher = publisher
        fallback = MultiThreadedEventLoopGroup.singleton.next()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        (publisher()?.eventLoop ?? fallback).execute { job.runSynchronously(on: executor) }
    }
}
