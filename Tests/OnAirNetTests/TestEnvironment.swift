import Foundation
import OnAirTestSupport
import NIOCore
import OnAirCore
import OnAirNet
import OnAirRTMP

/// Temp directories, free loopback ports and readiness polling for interop tests.
enum TestEnvironment {
    /// A fresh directory under the system temp dir.
    static func makeTemporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("onair-rtmp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A port that was free on 127.0.0.1 a moment ago.
    static func freePort() throws -> Int { try FreePort.loopback() }

    /// True once something accepts TCP connections on 127.0.0.1:`port`.
    /// `duration` is a safety net (was 10 s; 60 s for a loaded machine, issue 24).
    static func waitUntilListening(port: Int, within duration: Duration = .seconds(60)) async -> Bool {
        let deadline = ContinuousClock.now + duration
        while ContinuousClock.now < deadline {
            if FreePort.isAccepting(port) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// Runs a program to completion and returns its exit status and standard error.
    static func run(_ executable: String, _ arguments: [String], in directory: URL, within duration: Duration = .seconds(60)) async throws -> (status: Int32?, stderr: String, stdout: String) {
        let peer = try PeerProcess(executable, arguments, in: directory)
        defer { peer.stop() }
        let status = await peer.waitForExit(within: duration)
        return (status, peer.standardError, peer.standardOutput)
    }

    /// Generates an H.264 + AAC FLV with ffmpeg's test sources (no B-frames, keyframe every 30 frames).
    static func makeTestFLV(in directory: URL, seconds: Int = 6, size: String = "640x360", rate: Int = 30) async throws -> URL {
        let output = directory.appendingPathComponent("source.flv")
        let result = try await run("ffmpeg", [
            "-v", "error", "-y",
            "-f", "lavfi", "-i", "testsrc=size=\(size):rate=\(rate)",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100",
            "-t", "\(seconds)", "-c:v", "libx264", "-preset", "ultrafast", "-bf", "0", "-g", "\(rate)",
            "-pix_fmt", "yuv420p", "-b:v", "800k", "-c:a", "aac", "-b:a", "128k", "-f", "flv", output.path,
        ], in: directory)
        guard result.status == 0 else { throw POSIXError(.EIO) }
        return output
    }
}

/// The tracks and packets of an FLV file, read with OnAir's own FLVFileReader.
struct FLVSource {
    var video: VideoTrackDescription
    var audio: AudioTrackDescription
    var packets: [EncodedPacket]

    init(contentsOf url: URL, width: Int, height: Int, framesPerSecond: Double) throws {
        let bytes = ByteBuffer(bytes: try Data(contentsOf: url))
        let tags = try FLVFileReader.readAll(bytes).tags
        var video: VideoTrackDescription?
        var audio: AudioTrackDescription?
        var packets: [EncodedPacket] = []
        for tag in tags {
            switch tag.type {
            case .video:
                let body = try FLVVideoTag(parsing: tag.data)
                if body.packetType == .sequenceHeader {
                    let record = try AVCDecoderConfigurationRecord(parsing: body.body)
                    video = VideoTrackDescription(width: width, height: height, framesPerSecond: framesPerSecond, bitrate: 800_000,
                                                  sequenceParameterSets: record.sequenceParameterSets,
                                                  pictureParameterSets: record.pictureParameterSets)
                } else if let packet = try body.encodedPacket(timestamp: Int64(tag.timestamp)) {
                    packets.append(packet)
                }
            case .audio:
                let body = try FLVAudioTag(parsing: tag.data)
                if body.packetType == .sequenceHeader {
                    let config = Array(body.body.readableBytesView)
                    let parsed = AACAudioSpecificConfig(config)
                    audio = AudioTrackDescription(sampleRate: parsed?.sampleRate ?? 0, channels: parsed?.channels ?? 0,
                                                  bitrate: 128_000, audioSpecificConfig: config)
                } else if let packet = body.encodedPacket(timestamp: Int64(tag.timestamp)) {
                    packets.append(packet)
                }
            case .scriptData:
                break
            }
        }
        guard let video, let audio else { throw FLVFileReader.Error.notFLV }
        self.video = video
        self.audio = audio
        self.packets = packets
    }
}

extension TestEnvironment {
    /// Plays with `player` (already started) while ffmpeg publishes 3 s of a 320x240 test pattern and a
    /// 44.1 kHz tone to `publishURL` once the player reports its first status; returns every event up to
    /// UnpublishNotify (or 120 s, a safety net: was 40 s, issue 24), with the player stopped.
    static func playWhileFFmpegPublishes(_ player: RTMPPlayer, to publishURL: String, in directory: URL) async throws -> [RTMPPlayer.Event] {
        let watchdog = Task {
            try await Task.sleep(for: .seconds(120))
            await player.stop()
        }
        defer { watchdog.cancel() }
        var events: [RTMPPlayer.Event] = []
        var ffmpeg: PeerProcess?
        defer { ffmpeg?.stop() }
        for await event in player.events {
            events.append(event)
            if ffmpeg == nil, case .status = event {
                ffmpeg = try PeerProcess("ffmpeg", [
                    "-v", "error", "-re", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25",
                    "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100", "-t", "3",
                    "-c:v", "libx264", "-preset", "ultrafast", "-bf", "0", "-g", "25", "-pix_fmt", "yuv420p",
                    "-c:a", "aac", "-f", "flv", publishURL,
                ], in: directory)
            }
            if case .status(let status) = event, status.code == .playUnpublishNotify { break }
        }
        await player.stop()
        return events
    }
}
