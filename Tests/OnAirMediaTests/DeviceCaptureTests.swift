import Foundation
import Testing
@testable import OnAirMedia

@Suite("device capture: ALSA through the file plugin, V4L2 and ALSA errors")
struct DeviceCaptureTests {
    /// ALSA's `file` plugin over the `null` PCM "captures" the bytes of `infile` (docs/platform-notes.md). The slave is
    /// an inline `{ type null }`: a private configuration does not hold the system's `pcm.null` definition.
    static func fileCaptureConfiguration(infile: String) -> String {
        """
        pcm.onairtest {
            type file
            slave.pcm { type null }
            file "/dev/null"
            infile "\(infile)"
            format raw
        }
        """
    }

    @Test("ALSA capture of the file plugin delivers the file's samples exactly")
    func alsaFilePluginDeliversFileBytes() throws {
        let files = try TestFiles()
        // Three seconds' worth would be slow to compare; 4 × 1024 stereo frames of a known non-repeating ramp.
        let frames = 4096
        let samples = (0..<(frames * 2)).map { Int16(truncatingIfNeeded: $0 &* 2654435761 >> 7) }
        let raw = samples.flatMap { value -> [UInt8] in
            let bits = UInt16(bitPattern: value)
            return [UInt8(bits & 0xFF), UInt8(bits >> 8)]
        }
        let infile = try files.write("capture.raw", raw)
        let capture = try ALSACapture(
            device: "onairtest", sampleRate: 48_000, channels: 2, configuration: Self.fileCaptureConfiguration(infile: infile))
        #expect(capture.format == AudioSourceFormat(sampleRate: 48_000, channels: 2))
        var captured: [Int16] = []
        while captured.count < samples.count {
            let chunk = try capture.read(frames: 1024)
            #expect(chunk.frameCount == 1024)
            captured += chunk.samples
        }
        #expect(captured.count == samples.count)
        #expect(captured == samples, "first difference at \(captured.indices.first { captured[$0] != samples[$0] } ?? -1)")
    }

    @Test("ALSA: a device that does not exist is reported as missing, with the fix")
    func alsaMissingDevice() throws {
        #expect(throws: MediaError.deviceMissing(.microphone, path: "hw:9")) {
            try ALSACapture(device: "hw:9")
        }
        #expect(MediaError.deviceMissing(.microphone, path: "hw:9").description.contains("--audio test"))
    }

    @Test("V4L2: /dev/video99 is reported as a missing camera, with the fix")
    func v4l2MissingDevice() throws {
        #expect(throws: MediaError.deviceMissing(.camera, path: "/dev/video99")) {
            try V4L2Camera(device: "/dev/video99", width: 640, height: 360, framesPerSecond: 30)
        }
        let message = MediaError.deviceMissing(.camera, path: "/dev/video99").description
        #expect(message.hasPrefix("no camera at /dev/video99;") && message.contains("--video test"))
    }

    @Test("V4L2: a node that is not a video device (/dev/null) is refused as not a capture device")
    func v4l2NotACamera() throws {
        do {
            _ = try V4L2Camera(device: "/dev/null", width: 640, height: 360, framesPerSecond: 30)
            Issue.record("/dev/null was accepted as a camera")
        } catch let error as MediaError {
            guard case let .notACaptureDevice(path, _) = error else { throw error }
            #expect(path == "/dev/null")
        }
    }

    @Test("V4L2 picks MJPEG for HD when offered, raw formats for small pictures")
    func v4l2FormatChoice() {
        let offered = [fourCC("YUYV"), fourCC("MJPG")]
        #expect(V4L2Camera.choose(from: offered, width: 1280, height: 720) == fourCC("MJPG"))
        #expect(V4L2Camera.choose(from: offered, width: 640, height: 360) == fourCC("YUYV"))
        #expect(V4L2Camera.choose(from: [fourCC("H264")], width: 640, height: 360) == nil)
        #expect(V4L2Camera.fourCC(fourCC("YUYV")) == "YUYV")
    }
}

/// A V4L2 four-character code, as the kernel's v4l2_fourcc macro builds it.
func fourCC(_ text: String) -> UInt32 {
    text.utf8.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
}
