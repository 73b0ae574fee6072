import Foundation
import OnAirTestSupport
import Testing

/// The matrix's cells where OnAir publishes: what the stock player or server received, counted by ffprobe
/// in the file it wrote, against the frames OnAir encoded.
extension PeerMatrixTests {
    /// `onair publish URL --headless` for `seconds`; the frames it encoded.
    static func publish(_ url: String, seconds: Int, in directory: TemporaryDirectory) async throws -> (encoded: Int, run: HeadlessRun) {
        let run = try HeadlessRun([
            "publish", url, "--headless", "--video", "test", "--audio", "test", "--size", "320x240", "--fps", "30",
            "--duration", "\(seconds)",
        ], in: directory)
        _ = await run.peer.exitStatus(within: .seconds(Double(seconds + 20)))
        let stopped = run.events.events.last { $0.kind == "stopped" }?.details ?? [:]
        return (stopped["framesEncoded"] as? Int ?? 0, run)
    }

    /// Video packets in an FLV file, as ffprobe counts them.
    static func videoPackets(in file: URL, directory: TemporaryDirectory) async throws -> Int {
        let probe = try PeerProcess("ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", file.path,
        ], in: directory.url)
        _ = await probe.exitStatus(within: .seconds(30))
        return Int(probe.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    static func expectReceived(_ received: Int, encoded: Int, _ cell: String, _ run: HeadlessRun) {
        print("peer matrix: \(cell): OnAir encoded \(encoded), peer received \(received)")
        #expect(encoded > 60, "\(cell): OnAir encoded only \(encoded) frames: \(run.peer.standardOutput.suffix(1500))")
        // Encoded is an upper bound on sent: frames encoded before Publish.Start, and those still queued when
        // `--duration` stops the publisher (its `queueDepth`, ~4 here), never leave; measured 115–119 of 121.
        #expect(received * 100 >= encoded * 90 && received <= encoded, "\(cell): the peer received \(received) of \(encoded) frames")
    }

    @Test("OnAir publish → nginx-rtmp → rtmpdump and GStreamer rtmp2src at once")
    func onAirToStockPlayers() async throws {
        let nginx = try NginxRTMPServer()
        let directory = try TemporaryDirectory()
        let url = nginx.url(stream: "players")
        // Both players wait on the name before OnAir publishes, so each sees the stream from its first frame.
        let rtmpdump = try PeerProcess("rtmpdump", ["-q", "-v", "-r", url, "-o", directory.file("rtmpdump.flv").path], in: directory.url)
        let gstreamer = try PeerProcess("gst-launch-1.0", [
            "-q", "-e", "rtmp2src", "location=\(url)", "!", "filesink", "location=\(directory.file("gst.flv").path)",
        ], in: directory.url)
        try await Task.sleep(for: .seconds(1))
        let (encoded, run) = try await Self.publish(url, seconds: 4, in: directory)
        try await Task.sleep(for: .seconds(1))
        rtmpdump.stop()
        gstreamer.stop()
        let dumped = try await Self.videoPackets(in: directory.file("rtmpdump.flv"), directory: directory)
        Self.expectReceived(dumped, encoded: encoded, "OnAir → nginx → rtmpdump", run)
        let played = try await Self.videoPackets(in: directory.file("gst.flv"), directory: directory)
        Self.expectReceived(played, encoded: encoded, "OnAir → nginx → GStreamer rtmp2src", run)
    }

    @Test("OnAir publish → ffmpeg -listen (a server that records what is published)")
    func onAirToFFmpegListen() async throws {
        let directory = try TemporaryDirectory()
        let url = "rtmp://127.0.0.1:\(try FreePort.loopback())/live/in"
        let ffmpeg = try PeerProcess("ffmpeg", [
            "-nostdin", "-v", "error", "-listen", "1", "-i", url, "-c", "copy", "-y", directory.file("listen.flv").path,
        ], in: directory.url)
        try await Task.sleep(for: .milliseconds(700))
        let (encoded, run) = try await Self.publish(url, seconds: 4, in: directory)
        _ = await ffmpeg.exitStatus(within: .seconds(10))
        let received = try await Self.videoPackets(in: directory.file("listen.flv"), directory: directory)
        Self.expectReceived(received, encoded: encoded, "OnAir → ffmpeg -listen", run)
    }

    /// pyrtmp (PyPI) in the virtual environment `scripts/install-deps.sh test` makes.
    static var pyrtmpPython: URL {
        let environment = ProcessInfo.processInfo.environment
        let cache = environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        let venv = environment["ONAIR_PEERS_VENV"].map { URL(fileURLWithPath: $0) } ?? cache.appendingPathComponent("onair/peers-venv")
        return venv.appendingPathComponent("bin/python")
    }

    static let pyrtmpRecorder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/peers/pyrtmp-record.py")

    /// pyrtmp's README recording server on a free port, listening.
    static func startPyrtmp(recording file: URL, in directory: TemporaryDirectory) throws -> (server: PeerProcess, port: Int) {
        let port = try FreePort.loopback()
        let server = try PeerProcess(pyrtmpPython.path, [pyrtmpRecorder.path, "\(port)", file.path], in: directory.url)
        try FreePort.waitUntilAccepting(port, what: "pyrtmp (run scripts/install-deps.sh test to install it)")
        return (server, port)
    }

    @Test("OnAir publish → pyrtmp: pyrtmp's format-1 first headers are read as ffmpeg reads them, and it records the stream")
    func onAirToPyrtmp() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("pyrtmp.flv")
        let (server, port) = try Self.startPyrtmp(recording: file, in: directory)
        let (encoded, run) = try await Self.publish("rtmp://127.0.0.1:\(port)/live/rec", seconds: 4, in: directory)
        #expect(run.events.events.contains { $0.kind == "status" && $0.text == "NetStream.Publish.Start" },
                "no Publish.Start from pyrtmp: \(run.peer.standardOutput.suffix(1500))")
        try await Task.sleep(for: .milliseconds(500))
        server.stop()
        // The sequence header is a video tag too: pyrtmp's recorder writes what arrives, ffprobe counts frames.
        let received = try await Self.videoPackets(in: file, directory: directory)
        Self.expectReceived(received, encoded: encoded, "OnAir → pyrtmp", run)
    }

    @Test("onair publish --check against pyrtmp: says it records but does not play back, and names the spec break once")
    func checkAgainstPyrtmp() async throws {
        let directory = try TemporaryDirectory()
        let (server, port) = try Self.startPyrtmp(recording: directory.file("check.flv"), in: directory)
        defer { server.stop() }
        let check = try HeadlessRun(["publish", "rtmp://127.0.0.1:\(port)/live/check", "--check", "--headless"], in: directory)
        #expect(await check.peer.exitStatus(within: .seconds(30)) == 1)
        let events = check.events.events
        let verdict = events.first { $0.kind == "check" }
        #expect(verdict?.details["verdict"] as? String == "failed")
        let reason = verdict?.details["reason"] as? String ?? ""
        #expect(reason.contains("Publish.Start") && reason.contains("never answered the player's play"), "reason: \(reason)")
        let warnings = events.filter { $0.kind == "warning" }.map(\.text)
        #expect(warnings.count == 1 && warnings.first?.contains("format-1") == true, "warnings: \(warnings)")
    }
}
