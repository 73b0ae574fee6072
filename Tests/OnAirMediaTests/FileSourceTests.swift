import Foundation
import Testing
@testable import OnAirMedia

@Suite("Y4M and WAV file sources")
struct FileSourceTests {
    @Test("a Y4M source delivers the file's frames byte for byte and loops back to the first")
    func y4mFramesAndLoop() throws {
        let files = try TestFiles()
        let clip = try files.writeY4M("clip.y4m", width: 32, height: 18, frames: 3)
        let source = try Y4MFileSource(path: clip.path, pacing: .unpaced)
        #expect(source.frameCount == 3)
        #expect(source.granted == VideoSourceFormat(width: 32, height: 18, framesPerSecond: 30, pixelFormat: "y4m 420jpeg"))
        var delivered: [VideoFrame] = []
        for _ in 0..<7 { delivered.append(try source.read()) }
        #expect(delivered.map(\.planes) == [0, 1, 2, 0, 1, 2, 0].map { clip.frames[$0] })
        #expect(delivered.map(\.sequenceNumber) == Array(0..<7))
        #expect(source.loops == 2)
    }

    @Test("a Y4M clip made by ffmpeg's testsrc reads with the size and rate ffmpeg wrote")
    func y4mFromFFmpeg() throws {
        let files = try TestFiles()
        let path = files.path("testsrc.y4m")
        try files.ffmpeg(["-f", "lavfi", "-i", "testsrc=size=160x120:rate=25", "-frames:v", "4", "-pix_fmt", "yuv420p", "-y", path])
        let source = try Y4MFileSource(path: path, pacing: .unpaced)
        #expect(source.frameCount == 4)
        #expect(source.granted.width == 160 && source.granted.height == 120 && source.granted.framesPerSecond == 25)
        let frame = try source.read()
        #expect(frame.planes.count == 160 * 120 * 3 / 2)
        #expect(Set(frame.planes).count > 16, "testsrc is colourful, not a constant")
    }

    @Test("Y4M errors: missing file, not a Y4M, 4:1:1 clip, header without a frame")
    func y4mErrors() throws {
        let files = try TestFiles()
        #expect(throws: MediaError.fileUnreadable(path: files.path("none.y4m"), reason: "No such file or directory")) {
            try Y4MFileSource(path: files.path("none.y4m"))
        }
        let wav = try files.writeWAV("sound.y4m", sampleRate: 8000, channels: 1, samples: [0, 1, 2])
        #expect(throws: MediaError.fileWrongKind(path: wav, expected: "a YUV4MPEG2 (.y4m) video file")) { try Y4MFileSource(path: wav) }
        let yuv411 = try files.writeY4M("c411.y4m", width: 16, height: 16, frames: 1, colourSpace: "C411")
        do {
            _ = try Y4MFileSource(path: yuv411.path)
            Issue.record("a 4:1:1 clip was accepted")
        } catch let error as MediaError {
            guard case let .formatUnsupported(detail) = error else { throw error }
            #expect(detail.contains("C411") && detail.contains("C422") && detail.contains("-pix_fmt yuv420p"))
        }
        let empty = try files.write("empty.y4m", Array("YUV4MPEG2 W16 H16 F30:1\n".utf8))
        #expect(throws: MediaError.self) { try Y4MFileSource(path: empty) }
    }

    @Test("a WAV source walks past a LIST chunk, delivers the samples exactly, and loops")
    func wavSamplesAndLoop() throws {
        let files = try TestFiles()
        let samples = (0..<200).map { Int16(truncatingIfNeeded: $0 * 331 - 30_000) }
        let path = try files.writeWAV("tone.wav", sampleRate: 44_100, channels: 2, samples: samples)
        let source = try WAVFileSource(path: path, pacing: .unpaced)
        #expect(source.format == AudioSourceFormat(sampleRate: 44_100, channels: 2))
        #expect(source.frameCount == 100)
        let first = try source.read(frames: 60)
        let second = try source.read(frames: 60)
        #expect(first.samples == Array(samples[0..<120]))
        #expect(second.samples == Array(samples[120..<200] + samples[0..<40]))
        #expect(source.loops == 1)
    }

    @Test("WAV errors: not RIFF/WAVE, 16-bit float, ADPCM, six channels, missing file")
    func wavErrors() throws {
        let files = try TestFiles()
        let y4m = try files.writeY4M("video.wav", width: 16, height: 16, frames: 1)
        #expect(throws: MediaError.fileWrongKind(path: y4m.path, expected: "a RIFF/WAVE (.wav) audio file")) { try WAVFileSource(path: y4m.path) }
        let halfFloat = try files.writeWAV("half.wav", sampleRate: 48_000, channels: 2, samples: [0, 0, 0, 0], formatTag: 3, bits: 16)
        let adpcm = try files.writeWAV("adpcm.wav", sampleRate: 8_000, channels: 1, samples: [0, 0], formatTag: 2, bits: 4)
        let surround = try files.writeWAV("surround.wav", sampleRate: 48_000, channels: 6, samples: [Int16](repeating: 0, count: 12))
        for path in [halfFloat, adpcm, surround] {
            do {
                _ = try WAVFileSource(path: path)
                Issue.record("\(path) was accepted")
            } catch let error as MediaError {
                guard case let .formatUnsupported(detail) = error else { throw error }
                #expect(detail.contains("pcm_s16le"))
            }
        }
        #expect(throws: MediaError.fileUnreadable(path: files.path("none.wav"), reason: "No such file or directory")) {
            try WAVFileSource(path: files.path("none.wav"))
        }
    }

    @Test("every file error is one line that says what to do")
    func errorMessagesAreOneLine() {
        let errors: [MediaError] = [
            .fileUnreadable(path: "/x.y4m", reason: "No such file or directory"),
            .fileUnwritable(path: "/proc/x.y4m", reason: "cannot create it: No such file or directory"),
            .fileWrongKind(path: "/x.wav", expected: "a RIFF/WAVE (.wav) audio file"),
            .deviceMissing(.camera, path: "/dev/video0"), .deviceMissing(.microphone, path: "hw:0"),
            .deviceBusy(.camera, path: "/dev/video0"), .codecNotFound("libx264"),
        ]
        for error in errors {
            #expect(!error.description.contains("\n"))
            #expect(error.description.contains(";"), "no fix in: \(error)")
        }
    }
}
