import OnAirControl
import OnAirCore
import OnAirMedia
import OnAirNet

/// `onair subscribe URL`: one player that follows the publisher's interrupt notices.
public enum SubscribeFrontEnd {
    /// Runs the subscriber console until the operator quits.
    public static func runConsole(_ options: SubscribeOptions) async throws {
        try await run(options, on: .console(
            theme: options.theme, color: options.color, previewFramesPerSecond: options.previewFramesPerSecond,
            logFile: options.logFile, duration: options.duration, command: "subscribe"))
    }

    /// Runs the headless subscriber until `--duration`, `quit`, SIGINT/SIGTERM or a failed first play.
    public static func runHeadless(_ options: SubscribeOptions) async throws {
        let writer = try FrontEndSetup.headlessWriter(logFile: options.logFile, command: "subscribe")
        try await run(options, on: .headless(writer: writer, theme: options.theme, command: "subscribe", duration: options.duration))
    }

    /// The player, the same for both presentations, then the one loop.
    private static func run(_ options: SubscribeOptions, on presentation: FrontEndPresentation) async throws {
        let url = try FrontEndSetup.streamURL(options.url, command: "subscribe")
        let reconnectDelay = try FrontEndSetup.seconds(options.reconnectDelay, option: "--reconnect-delay", command: "subscribe")
        let stallTimeout = try FrontEndSetup.seconds(options.stallTimeout, option: "--stall-timeout", command: "subscribe")
        var notices: [String] = []
        let rtmp = try FrontEndSetup.rtmpConfiguration(url: url, caFile: options.caFile, command: "subscribe") { notices.append($0) }
        let controller = SubscriberController(
            session: SubscriberSession(streamName: url.bareStreamName, redactedURL: url.redacted, reconnectDelay: reconnectDelay),
            url: url, clock: presentation.clock, stallTimeout: stallTimeout, rtmp: rtmp,
            streamEpochMicroseconds: try patternEpoch(options), post: presentation.inputs.subscriberPost
        )
        presentation.started(["command": "subscribe", "url": .string(url.redacted)])
        for notice in notices { presentation.notice(notice, side: .subscriber) }
        presentation.inputs.post(.subscriber(.event(.control(.play))))
        try await presentation.run(FrontEndSides(publisher: nil, subscriber: controller))
    }

    /// `--pattern-epoch` in wall microseconds; a value that is not a Unix time after 2001 is a usage error.
    static func patternEpoch(_ options: SubscribeOptions) throws -> UInt64? {
        guard let seconds = options.patternEpoch else { return nil }
        guard seconds.isFinite, seconds > 1e9, seconds < 1e11 else {
            throw FrontEndExit(code: 2, message: "onair subscribe: --pattern-epoch \(seconds) is not a Unix time in seconds; pass `date +%s.%N` taken when the sender started")
        }
        return UInt64(seconds * 1e6)
    }
}

extension SubscriberController {
    /// The `stats` event details of a subscriber (README, "Headless output").
    var headlessStats: [String: JSONValue] {
        let decoded = decoder?.snapshot
        let counters = decoderCounters
        var details: [String: JSONValue] = [
            "bitrate": .integer(Int64(meter.bitrate)),
            "fps": .number((meter.framesPerSecond * 10).rounded() / 10),
            "videoPackets": .integer(Int64(counters.videoPacketsReceived)),
            "framesDecoded": .integer(Int64(counters.videoFramesDecoded - countersAtPlay.videoFramesDecoded)),
            "framesDecodedTotal": .integer(Int64(counters.videoFramesDecoded)),
            "skippedWhilePaused": .integer(Int64(counters.videoSkippedWhilePaused)),
            "skippedAwaitingKeyframe": .integer(Int64(counters.videoSkippedAwaitingKeyframe)),
            "audioFramesDecoded": .integer(Int64(counters.audioFramesDecoded)),
            // Dropped by the decoder's input queue (it fell behind): video to the next keyframe, audio only
            // when nothing else was queued. Never silent (issue 25).
            "droppedVideoPackets": .integer(Int64(decoded?.videoPacketsDropped ?? 0)),
            "droppedAudioPackets": .integer(Int64(decoded?.audioPacketsDropped ?? 0)),
            "renderPaused": .bool(decoded?.renderPaused ?? false),
            "videoGapMs": .integer(videoGapsNow.current.milliseconds),
            "longestVideoGapMs": .integer(videoGapsNow.longest.milliseconds),
        ]
        if let level = decoded?.audioLevel { details["audioLevelDb"] = .number((level.rmsDBFS * 10).rounded() / 10) }
        if let error = decoded?.lastError { details["decodeError"] = .string(error) }
        if let decoded { details.merge(glassToGlassDetails(decoded.glassToGlass)) { $1 } }
        if let link { details["link"] = .string(link.state.description) }
        return details
    }
}
