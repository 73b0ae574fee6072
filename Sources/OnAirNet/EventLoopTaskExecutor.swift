import NIOCore
import NIOPosix

/// Runs a task's jobs on the event loop of the connection it works with (issue 31), instead of Swift's task
/// pool. The media pump's loop — wait for a batch, build its FLV tags, write, await the write — then costs one
/// thread wake-up per batch (the encoder thread waking the event loop) instead of three (encoder → pool,
/// pool → event loop for the write, event loop → pool when the write completes); the TCP_INFO sampler's
/// read likewise stays on the loop that owns the socket. On the loop itself, `flatSubmit` and a future's
/// completion are queued without a wake-up.
///
/// Without a connection jobs run on a fixed loop of NIO's singleton group. A task may hop loops when its
/// connection is replaced: jobs of one task never run at once whatever the loop, so that is safe. Nothing run
/// here may block (the pump and the sampler only take locks held for a few instructions).
public final class EventLoopTaskExecutor: TaskExecutor {
    private let loop: @Sendable () -> (any EventLoop)?
    private let fallback: any EventLoop

    /// `loop` is asked at every job: the loop of the connection the task works with now, if any.
    init(following loop: @escaping @Sendable () -> (any EventLoop)?) {
        self.loop = loop
        fallback = MultiThreadedEventLoopGroup.singleton.next()
    }

    /// Follows the publishing connection of whichever publisher `publisher` returns.
    public static func following(publisher: @escaping @Sendable () -> RTMPPublisher?) -> EventLoopTaskExecutor {
        EventLoopTaskExecutor { publisher()?.eventLoop }
    }

    /// Follows the connection `probe` is attached to.
    public static func following(probe: PublisherTCPProbe) -> EventLoopTaskExecutor {
        EventLoopTaskExecutor { [weak probe] in probe?.eventLoop }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        (loop() ?? fallback).execute { job.runSynchronously(on: executor) }
    }

    /// Sleeps `duration` on a timer of the loop this executor follows now; returns early when the task is
    /// cancelled. For a task that runs on this executor, a replacement for `Task.sleep`.
    ///
    /// Why not `Task.sleep` (issue 31): its timer lives in Swift's global executor, so each wake-up of a task
    /// on this executor hopped through the task pool — arming the timer woke the dispatch manager, its firing
    /// woke a pool thread, which woke the event loop. The publisher's 100 ms TCP_INFO sampler cost about 40
    /// thread wake-ups a second that way. The loop's own timer is its `epoll_wait` timeout: the loop wakes
    /// once, and the task's next job is queued on the loop it already runs on.
    public func sleep(for duration: Duration) async {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = max(0, seconds) &* 1_000_000_000 &+ max(0, attoseconds) / 1_000_000_000
        let timer = (loop() ?? fallback).scheduleTask(in: .nanoseconds(nanoseconds)) {}
        await withTaskCancellationHandler {
            _ = try? await timer.futureResult.get()
        } onCancel: {
            timer.cancel()
        }
    }
}
