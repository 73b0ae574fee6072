import Foundation
import OnAirConsole
import OnAirCore
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The render half of `scripts/bench.d/console.sh` (docs/design.md §5: a full redraw ≤ 2 ms at 200×60); runs only
/// when the script sets ONAIR_BENCH_CONSOLE (an iteration count).
///
/// Each iteration builds the frame the front end would build on a tick — both panes, 64×36 preview pictures
/// that change every frame (as the engine's do), full event logs, stacked toasts, a footer notice — renders it
/// into a 200×60 `CellBuffer`, then diffs it against the previous frame (what `TerminalScreen` blits). The
/// ncurses write itself is measured end to end by the script (bytes to a tmux pane), not here.
@Suite("console render benchmark")
struct ConsoleRenderBenchmark {
    static let environment = ProcessInfo.processInfo.environment

    static func busyScreen(frame: Int) -> ConsoleScreen {
        let now = SessionTime(milliseconds: 600_000 + Int64(frame) * 125)
        var publisher = PublisherAppState(policy: .tapRepublish, streamName: "stream1", redactedURL: "rtmp://127.0.0.1:1935/live/stream1")
        publisher.status = .publishing
        publisher.liveSince = SessionTime(milliseconds: 12_000)
        var subscriber = SubscriberAppState(streamName: "stream1", redactedURL: "rtmp://127.0.0.1:1935/live/stream1")
        subscriber.connection = .playing
        let sources = EventSource.allCases
        for entry in 0..<publisher.log.capacity {
            let time = SessionTime(milliseconds: Int64(entry) * 1_000)
            let source = sources[entry % sources.count]
            publisher.log.append(time, source, "entry \(entry): NetStream.Publish.Start stream1 (live) send publisherBackground streamName=stream1 keyframe forced")
            subscriber.log.append(time, source, "entry \(entry): NetStream.Play.Start stream1 publisherBackground streamName=stream1 publisherIsInBackground = true")
        }
        for (index, text) in ["Publish Background", "Publisher Foreground", "Tap to Re-Publish!", "Reconnecting 2/5"].enumerated() {
            publisher.toasts.post(Toast(text: text, postedAt: now + .milliseconds(-100 * Int64(index))))
            subscriber.toasts.post(Toast(text: text, postedAt: now + .milliseconds(-100 * Int64(index))))
        }
        var ui = ConsoleUIState(focus: .publisher, showPreview: true)
        ui.notice = ConsoleUIState.Notice(text: "camera /dev/video0 not found: showing the test pattern", postedAt: now)
        return ConsoleScreen(
            publisher: publisher, publisherTelemetry: telemetry(frame: frame),
            subscriber: subscriber, subscriberTelemetry: telemetry(frame: frame + 3),
            ui: ui, now: now
        )
    }

    /// Bitrate history and a preview picture that moves with `frame` (a scrolling gradient with noise), so
    /// every frame repaints the preview cells as a camera's would.
    static func telemetry(frame: Int) -> StreamTelemetry {
        let history = (0..<60).map { 2_000_000 + (($0 + frame) * 37 % 11) * 60_000 }
        let width = 64
        let height = 36
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        var seed = UInt32(truncatingIfNeeded: frame &* 2_654_435_761)
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let index = (y * width + x) * 3
                rgb[index] = UInt8(truncatingIfNeeded: (x + frame) * 4)
                rgb[index + 1] = UInt8(truncatingIfNeeded: y * 7 + Int(seed >> 28))
                rgb[index + 2] = UInt8(truncatingIfNeeded: (x + y + frame) * 3)
            }
        }
        return StreamTelemetry(
            bitrate: 2_512_000 + frame % 7 * 1_000, bitrateHistory: history, framesPerSecond: 29.97, droppedFrames: frame / 100,
            queueDepth: frame % 3, congestion: 0.12, preview: PreviewImage(width: width, height: height, rgb: rgb)
        )
    }

    static func summary(_ samples: [Double]) -> (mean: Double, p50: Double, p99: Double, max: Double) {
        let sorted = samples.sorted()
        let mean = sorted.reduce(0, +) / Double(sorted.count)
        let rank = { (q: Double) in sorted[min(sorted.count - 1, Int((Double(sorted.count) * q).rounded(.up)) - 1)] }
        return (mean, rank(0.5), rank(0.99), sorted.last ?? 0)
    }

    static func milliseconds(_ start: ContinuousClock.Instant, _ end: ContinuousClock.Instant) -> Double {
        let duration = end - start
        return Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
    }

    /// CPU time of the calling thread in milliseconds: what a frame costs, whatever else the machine runs.
    static func threadCPUMilliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
    }

    @Test("a busy 200×60 frame renders and diffs in ≤ 2 ms (figures printed as ONAIR_BENCH)",
          .enabled(if: environment["ONAIR_BENCH_CONSOLE"] != nil))
    func renderBusyFrame() throws {
        let iterations = max(10, Int(Self.environment["ONAIR_BENCH_CONSOLE"] ?? "") ?? 500)
        let width = 200
        let height = 60
        let theme = Theme.builtInDefault
        // The screens are built outside the timed region: the front end builds them on its own task.
        let distinct = 16
        let screens = (0..<distinct).map { Self.busyScreen(frame: $0) }
        let check = screens[0].render(width: width, height: height, theme: theme)
        #expect(check.text.contains(" PUBLISHING "), "the busy frame lacks the publisher badge:\n\(check.text)")
        #expect(check.text.contains("▀"), "the busy frame lacks a preview picture:\n\(check.text)")

        let clock = ContinuousClock()
        var previous = screens[distinct - 1].render(width: width, height: height, theme: theme)
        for index in 0..<20 { previous = screens[index % distinct].render(width: width, height: height, theme: theme) }  // warm-up
        var render: [Double] = []
        var diff: [Double] = []
        var total: [Double] = []
        var cpu: [Double] = []
        var changed = 0
        render.reserveCapacity(iterations)
        diff.reserveCapacity(iterations)
        total.reserveCapacity(iterations)
        cpu.reserveCapacity(iterations)
        for index in 0..<iterations {
            let screen = screens[(index + 20) % distinct]
            let cpuStart = Self.threadCPUMilliseconds()
            let start = clock.now
            let frame = screen.render(width: width, height: height, theme: theme)
            let rendered = clock.now
            let changes = frame.changes(since: previous)
            let diffed = clock.now
            cpu.append(Self.threadCPUMilliseconds() - cpuStart)
            changed += changes.count
            previous = frame
            render.append(Self.milliseconds(start, rendered))
            diff.append(Self.milliseconds(rendered, diffed))
            total.append(Self.milliseconds(start, diffed))
        }
        // A full repaint (after a resize or Ctrl-L): every cell is a change.
        var fullDiff: [Double] = []
        for _ in 0..<max(10, iterations / 10) {
            let start = clock.now
            let changes = previous.changes(since: nil)
            fullDiff.append(Self.milliseconds(start, clock.now))
            #expect(changes.count >= width * height / 2)
        }

        let r = Self.summary(render)
        let d = Self.summary(diff)
        let t = Self.summary(total)
        let f = Self.summary(fullDiff)
        let c = Self.summary(cpu)
        let json = [
            "\"width\":\(width)", "\"height\":\(height)", "\"iterations\":\(iterations)",
            String(format: "\"renderMeanMs\":%.4f,\"renderP50Ms\":%.4f,\"renderP99Ms\":%.4f,\"renderMaxMs\":%.4f", r.mean, r.p50, r.p99, r.max),
            String(format: "\"diffMeanMs\":%.4f,\"diffP99Ms\":%.4f", d.mean, d.p99),
            String(format: "\"totalMeanMs\":%.4f,\"totalP50Ms\":%.4f,\"totalP99Ms\":%.4f", t.mean, t.p50, t.p99),
            String(format: "\"cpuMeanMs\":%.4f,\"cpuP50Ms\":%.4f,\"cpuP99Ms\":%.4f", c.mean, c.p50, c.p99),
            String(format: "\"fullRepaintDiffMeanMs\":%.4f", f.mean),
            "\"changedCellsPerFrame\":\(changed / iterations)",
        ].joined(separator: ",")
        print("ONAIR_BENCH {\(json)}")
    }
}
