import OnAirConsole
import OnAirCore

/// Fixed states for screen tests: every time is a constant, so goldens never depend on the clock.
enum ConsoleFixtures {
    static let now = SessionTime(milliseconds: 83_456)
    static let liveSince = SessionTime(milliseconds: 12_000)

    static func publisher(_ status: PublisherStatus = .publishing) -> PublisherAppState {
        var state = PublisherAppState(policy: .tapRepublish, streamName: "stream1", redactedURL: "rtmp://127.0.0.1:1935/live/stream1")
        state.status = status
        state.liveSince = liveSince
        state.onAirSince = liveSince
        switch status {
        case .pausedVideo:
            state.pauseVideo = true
            state.lifecycle = .inactive
        case .interrupted:
            state.lifecycle = .inactive
            state.policy = .resumeAppend
            state.publishType = .record
        case .awaitingTap:
            state.tapArmed = true
        case .reconnecting:
            state.policy = .backgroundAudio
            state.lifecycle = .background
        case .idle, .preview:
            state.liveSince = nil
            state.onAirSince = nil
        default:
            break
        }
        state.log.append(SessionTime(milliseconds: 12_000), .rtmp, "NetStream.Publish.Start stream1 (live)")
        state.log.append(SessionTime(milliseconds: 40_112), .key, "c: incoming call")
        state.log.append(SessionTime(milliseconds: 40_113), .lifecycle, "willResignActive")
        state.log.append(SessionTime(milliseconds: 40_114), .policy, "pauseVideo = true")
        state.log.append(SessionTime(milliseconds: 40_120), .message, "send publisherBackground streamName=stream1")
        state.log.append(SessionTime(milliseconds: 52_870), .key, "d: decline")
        state.log.append(SessionTime(milliseconds: 52_871), .lifecycle, "didBecomeActive")
        state.log.append(SessionTime(milliseconds: 52_880), .engine, "keyframe forced")
        if case .error(let message) = status { state.log.append(SessionTime(milliseconds: 83_000), .error, message) }
        state.refusals = session(status).state.refusals
        return state
    }

    /// A real session driven into the situation `status` stands for, so the keys a screen offers are the
    /// core's rule, not a guess.
    static func session(_ status: PublisherStatus) -> PublisherSession {
        let policy: PublisherPolicyKind =
            switch status {
            case .interrupted, .preview: .resumeAppend
            case .reconnecting: .backgroundAudio
            default: .tapRepublish
            }
        var session = PublisherSession(configuration: PublisherConfiguration(
            streamName: "stream1", redactedURL: "rtmp://127.0.0.1:1935/live/stream1", policy: policy, sendTimeout: .seconds(1)))
        var now = SessionTime.zero
        func feed(_ events: PublisherEvent...) {
            for event in events {
                now = now + .milliseconds(100)
                _ = session.handle(event, at: now)
            }
        }
        let live: [PublisherEvent] = [.control(.start(nil)), .network(.publishStarted)]
        switch status {
        case .idle: break
        case .connecting: feed(.control(.start(nil)))
        case .publishing: live.forEach { feed($0) }
        case .pausedVideo, .interrupted: live.forEach { feed($0) }; feed(.operator(.incomingCall))
        case .awaitingTap: live.forEach { feed($0) }; feed(.operator(.incomingCall), .operator(.decline))
        case .preview: live.forEach { feed($0) }; feed(.operator(.incomingCall), .control(.stop), .operator(.decline))
        case .reconnecting: live.forEach { feed($0) }; feed(.operator(.home), .network(.connectionLost(reason: "reset")))
        case .error: feed(.control(.start(nil)), .network(.publishFailed(reason: "refused")))
        case .stalled:
            live.forEach { feed($0) }
            let stuck = PublisherEvent.wire(WireProgress(bytesWritten: 1, writePending: true))
            feed(stuck)
            now = now + .milliseconds(1500)
            // The core's watchdog timer decides STALLED; the reports only say what the socket took.
            feed(stuck, .timerFired(.sendStall))
        }
        return session
    }

    static func subscriber() -> SubscriberAppState {
        var state = SubscriberAppState(streamName: "stream1", redactedURL: "rtmp://127.0.0.1:1935/live/stream1")
        state.connection = .playing
        state.log.append(SessionTime(milliseconds: 12_400), .rtmp, "NetStream.Play.Start stream1")
        state.log.append(SessionTime(milliseconds: 40_131), .message, "publisherBackground streamName=stream1")
        state.log.append(SessionTime(milliseconds: 40_131), .policy, "publisherIsInBackground = true")
        state.log.append(SessionTime(milliseconds: 52_895), .message, "publisherForeground streamName=stream1")
        state.refusals = SubscriberSession(streamName: "stream1", redactedURL: "").state.refusals
        return state
    }

    static func telemetry(preview: Bool = true) -> StreamTelemetry {
        let history = (0..<60).map { 2_000_000 + (($0 * 37) % 11) * 60_000 - ($0 >= 28 && $0 < 41 ? 1_900_000 : 0) }
        return StreamTelemetry(
            bitrate: 2_512_000, bitrateHistory: history, framesPerSecond: 29.97, droppedFrames: 3,
            queueDepth: 2, congestion: 0.12, preview: preview ? colourBars(width: 32, height: 18) : nil
        )
    }

    /// SMPTE-like colour bars: a deterministic picture for the half-block preview.
    static func colourBars(width: Int, height: Int) -> PreviewImage {
        let bars: [(UInt8, UInt8, UInt8)] = [(192, 192, 192), (192, 192, 0), (0, 192, 192), (0, 192, 0), (192, 0, 192), (192, 0, 0), (0, 0, 192)]
        var rgb: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let bar = y < height * 3 / 4 ? bars[x * bars.count / width] : (UInt8(x * 255 / width), UInt8(x * 255 / width), UInt8(x * 255 / width))
                rgb += [bar.0, bar.1, bar.2]
            }
        }
        return PreviewImage(width: width, height: height, rgb: rgb)
    }

    static func demo(focus: ConsolePane = .publisher) -> ConsoleScreen {
        ConsoleScreen(
            publisher: publisher(), publisherTelemetry: telemetry(),
            subscriber: subscriber(), subscriberTelemetry: telemetry(),
            ui: ConsoleUIState(focus: focus), now: now
        )
    }
}
