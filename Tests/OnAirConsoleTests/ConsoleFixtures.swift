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
        return state
    }

    static func subscriber() -> SubscriberAppState {
        var state = SubscriberAppState(streamName: "stream1", redactedURL: "rtmp://127.0.0.1:1935/live/stream1")
        state.connection = .playing
        state.log.append(SessionTime(milliseconds: 12_400), .rtmp, "NetStream.Play.Start stream1")
        state.log.append(SessionTime(milliseconds: 40_131), .message, "publisherBackground streamName=stream1")
        state.log.append(SessionTime(milliseconds: 40_131), .policy, "publisherIsInBackground = true")
        state.log.append(SessionTime(milliseconds: 52_895), .message, "publisherForeground streamName=stream1")
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
