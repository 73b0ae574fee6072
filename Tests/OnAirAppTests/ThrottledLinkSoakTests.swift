import Foundation
import OnAirLink
import OnAirTestSupport
import Testing

/// Issue 8, backpressure: with the link slower than the encoder, memory stays bounded, video drops to the
/// next keyframe, and the congestion level shows in the events.
///
/// The real `onair publish` binary sends 720p30 at 2500k through the link stage (`LinkImpairment`) capped at 320 kbit/s, to
/// nginx-rtmp, which records what arrives. It runs `ONAIR_SOAK_SECONDS` (default 300, the issue's five
/// minutes; set it lower for a quick local run) while the test samples the publisher's resident memory
/// every second. Afterwards the recording must decode without a single decoder error: dropping to the next
/// keyframe never hands a decoder a frame whose references are gone.
@Suite("Throttled link soak")
struct ThrottledLinkSoakTests {
    static let seconds = ProcessInfo.processInfo.environment["ONAIR_SOAK_SECONDS"].flatMap(Int.init) ?? 300
    /// 320 kbit/s. x264 does not pad: asked for 2500k, the test pattern comes out at about 0.6 Mbit/s with the
    /// 128 kbit/s of audio (measured here), so a 1 Mbit/s link would never be the bottleneck. This link carries
    /// about half of what the encoder makes; the test checks that ratio so it fails clearly if it drifts.
    static let linkBytesPerSecond = 40_000
    static let rssLimitKilobytes = 150 * 1024
    /// Ten seconds of video at 30 fps: the most the link may hold back at any moment.
    static let maximumFramesInTransit = 300

    @Test("720p at 2500k over a 320 kbit/s link for ONAIR_SOAK_SECONDS (300): RSS < 150 MB, drops counted, congestion reported, the stream decodes")
    func slowLinkStaysBounded() async throws {
        let directory = try TemporaryDirectory(prefix: "onair-soak")
        let recordings = directory.file("recordings")
        try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
        let nginx = try NginxRTMPServer(extraDirectives: [
            "wait_key on;",
            // A recorder of its own: the application's `record off;` would otherwise switch it off.
            "recorder soak { record all; record_path \(recordings.path); record_unique off; }",
        ])
        let proxy = try LinkImpairment(
            targetHost: "127.0.0.1", targetPort: nginx.port, state: .init(capBitsPerSecond: Self.linkBytesPerSecond * 8),
            ownProcessOnly: false)
        defer { proxy.stop() }

        let publisher = try HeadlessRun([
            "publish", "rtmp://127.0.0.1:\(proxy.port)/live/soak", "--headless", "--video", "test", "--audio", "test",
            "--size", "1280x720", "--fps", "30", "--bitrate", "2500k", "--duration", "\(Self.seconds)",
        ], in: directory)
        let pid = publisher.peer.processIdentifier
        let live = await publisher.waitFor(.seconds(30)) { $0.kind == "state" && $0.details["status"] as? String == "PUBLISHING" }
        try #require(live != nil, "never PUBLISHING through the proxy: \(publisher.peer.standardOutput) \(publisher.peer.standardError)")

        // Sample resident memory every second for the whole run; halfway, read the live stream back.
        var rss = ResidentMemory()
        var liveReader: PeerProcess?
        let started = ContinuousClock.now
        let deadline = started + .seconds(Self.seconds + 60)
        while publisher.peer.isRunning, ContinuousClock.now < deadline {
            if let kilobytes = ResidentMemory.kilobytes(of: pid) { rss.record(kilobytes) }
            if liveReader == nil, ContinuousClock.now - started >= .seconds(Self.seconds / 2) {
                liveReader = try PeerProcess(
                    "ffmpeg", ["-v", "error", "-i", nginx.url(stream: "soak"), "-t", "5", "-map", "0:v", "-f", "framecrc", "-"],
                    in: directory.url)
            }
            try await Task.sleep(for: .seconds(1))
        }
        let status = await publisher.peer.exitStatus(within: .seconds(30))
        let (events, malformed) = publisher.events
        let stats = events.filter { $0.side == "publisher" && $0.kind == "stats" }
        let maxCongestion = stats.compactMap { $0.details["congestion"] as? Double }.max() ?? 0
        let final = events.last { $0.kind == "stopped" }?.details ?? stats.last?.details ?? [:]
        let droppedVideo = final["droppedVideoPackets"] as? Int ?? 0
        let congestionEvents = final["congestionEvents"] as? Int ?? 0
        let framesEncoded = final["framesEncoded"] as? Int ?? 0
        // `encoderBitrate` is what the encoder made; `bitrate` what the socket took, which the link bounds.
        let bitrates = stats.compactMap { $0.details["encoderBitrate"] as? Int }
        let meanBitrate = bitrates.isEmpty ? 0 : bitrates.reduce(0, +) / bitrates.count
        let wireBitrates = stats.compactMap { $0.details["bitrate"] as? Int }
        let meanWireBitrate = wireBitrates.isEmpty ? 0 : wireBitrates.reduce(0, +) / wireBitrates.count
        let summary = """
            soak \(Self.seconds) s: max RSS \(rss.maximum / 1024) MB (\(rss.samples) samples, first \(rss.first / 1024) MB), \
            frames encoded \(framesEncoded) at \(meanBitrate / 1000) kbit/s on average, \(meanWireBitrate / 1000) kbit/s on the wire, video packets dropped \(droppedVideo), congestion events \(congestionEvents), \
            max congestion \(maxCongestion), proxy forwarded \(proxy.counters.upstreamBytes) B up in \(proxy.counters.connectionsAccepted) connection(s)
            """
        print(summary)

        #expect(status == 0, "publisher exit \(status): \(publisher.peer.standardError)")
        #expect(malformed.isEmpty, "lines outside the schema: \(malformed.prefix(3))")
        #expect(!events.contains { $0.kind == "error" }, "errors: \(events.filter { $0.kind == "error" }.map(\.text))")
        #expect(rss.samples >= Self.seconds / 2, "too few RSS samples of pid \(pid): \(summary)")
        #expect(rss.maximum < Self.rssLimitKilobytes, "RSS over 150 MB: \(summary)")
        #expect(proxy.counters.connectionsAccepted == 1, "the publisher reconnected: \(summary)")
        // If the throttle did not bite, nothing here tests backpressure.
        #expect(meanBitrate * 2 > Self.linkBytesPerSecond * 8 * 3, "the encoder makes less than 1.5× the link's rate: \(summary)")
        #expect(meanWireBitrate * 4 <= Self.linkBytesPerSecond * 8 * 5, "the wire bitrate reads above the link's rate: \(summary)")
        #expect(droppedVideo > 0, "no video dropped: the link was not slower than the encoder. \(summary)")
        #expect(congestionEvents > 0, "no queue overflow: \(summary)")
        #expect(maxCongestion > 0 && maxCongestion <= 1, "congestion never reported in (0, 1]: \(summary)")
        let allowance = Double(Self.linkBytesPerSecond) * (Double(Self.seconds) + 5)
        #expect(Double(proxy.counters.upstreamBytes) <= allowance, "the proxy let more through than its rate: \(summary)")

        if let liveReader {
            let readStatus = await liveReader.exitStatus(within: .seconds(30))
            let frames = liveReader.standardOutput.split(separator: "\n").filter { !$0.hasPrefix("#") }.count
            #expect(readStatus == 0 && liveReader.standardError.isEmpty, "live read failed (\(readStatus)): \(liveReader.standardError)")
            #expect(frames > 0, "no video frame decoded from the live stream")
            print("soak: live read decoded \(frames) video frames in 5 s of stream")
        } else {
            Issue.record("the publisher ended before the live stream was read back: \(summary)")
        }

        // nginx closes the recording when the publisher unpublishes; decode every frame of it.
        let recording = recordings.appendingPathComponent("soak.flv")
        let probe = try await PeerProcess.run(
            "ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", recording.path],
            in: directory.url, timeout: .seconds(120))
        let decoded = Int(probe.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        print("soak: the recording decodes \(decoded) video frames, decoder errors: \(probe.error.isEmpty ? "none" : probe.error)")
        #expect(probe.status == 0 && probe.error.isEmpty, "the recording did not decode cleanly: \(probe.error)")
        #expect(decoded >= Self.seconds, "only \(decoded) frames decoded from \(Self.seconds) s: \(summary)")
        #expect(decoded < framesEncoded, "every frame arrived, so nothing was dropped: \(summary)")
        // What was neither dropped nor recorded was still on its way (output queue, socket buffers, proxy)
        // when the publisher stopped: that backlog is the latency the slow link added, and it must stay
        // bounded. Unbounded kernel send buffers (up to 4 MB) once hid a minute and more here, with no drops.
        let inTransit = framesEncoded - droppedVideo - decoded
        print("soak: \(inTransit) video frames were in transit when the publisher stopped")
        #expect(inTransit <= Self.maximumFramesInTransit, "\(inTransit) frames were between the encoder and the server at the end: \(summary)")
    }
}
