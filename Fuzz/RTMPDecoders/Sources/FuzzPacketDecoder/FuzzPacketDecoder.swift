import CFFmpeg
import FuzzDriver
import OnAirCore

/// libFuzzer's entry point: what a server sends a subscriber, through `PacketDecoder` as `DecoderThread` drives
/// it — libavcodec's H.264, AAC, MP3, PCM and G.711 decoders, then OnAir's own code on every decoded frame: the
/// frame marker and slate reads, the preview conversion (libswscale, `readableBytesAfter` a libavcodec frame's
/// padding), the I420 copy, the audio level over every sample format and the tone-gap mark, and the drains and
/// rebuilds of a configuration change. Decode errors are what the subscriber reports; a trap, a sanitizer
/// report or a hang is a finding, and so is a broken invariant: a preview of other than the asked size, a full
/// frame of other than its I420 size, a level that is not finite or under -120 dBFS (the floor `level(of:)`
/// clamps to), a peak over 0 dBFS from an integer decoder (PCM, G.711: full scale is 1.0; the float decoders'
/// samples may exceed it), an RMS over the peak, a counter that goes backwards or counts more than was sent.
///
/// Input (little-endian; `DecoderScript` reads it, an input cut short ends where it stops):
///
///     header   flags (bit 0 keepsFullFrames; bit 1 a preview of 1 + w % 64 by 1 + h % 36, else 128x72), w, h,
///              video track, audio track
///     video    UInt16 length + an avcC record (ISO/IEC 14496-15 §5.2.4.1), read as the player reads an AVC
///              sequence header; length 0: no video
///     audio    codec (mod 7: AAC, MP3, PCM 8, PCM 16, A-law, µ-law, none), UInt24 rate, channels (mod 9),
///              UInt8 length + AudioSpecificConfig (AAC takes its rate and channels from it, as the player does)
///     steps    up to 64 of: op & 7 = 0, 1, 2: a video packet — UInt16 timestamp delta, Int16 composition
///              offset, UInt16 length + NAL units length-prefixed at the record's size, as an FLV tag carries
///              them (converted to Annex-B by `H264NALUnits`, as `FLVVideoTag.encodedPacket` does; op bit 7 is
///              the keyframe flag); 3: an audio packet — UInt16 delta, UInt16 length + the raw frame; 4: a new
///              video track; 5: a new audio track; 6: toggle renderPaused; 7: drain. The stream ends drained.
///
/// Pictures over 640x480 coded are left out (an in-band SPS over it drops its packet, as the player drops one
/// over `PictureBound`): libavcodec and libswscale are not instrumented, so they would only slow the fuzzer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPacketDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let script = DecoderScript(UnsafeBufferPointer(start: size > 0 ? data : nil, count: size)) else { return 0 }
    guard let decoder = try? PacketDecoder(
        video: nil, audio: nil, previewWidth: script.previewWidth, previewHeight: script.previewHeight,
        keepsFullFrames: script.keepsFullFrames)
    else { fatalError("PacketDecoder without tracks did not open") }
    var check = Invariants(script: script)
    // DecoderThread opens its decoder without tracks, then applies the announced ones as commands.
    check.configured(video: script.video, audio: script.audio)
    check.output(try? decoder.configureVideo(script.video), decoder)
    check.output(try? decoder.configureAudio(script.audio), decoder)
    for step in script.steps {
        switch step {
        case .packet(let packet):
            check.sent(packet)
            check.output(try? decoder.decode(packet), decoder)
        case .video(let track, _):
            check.configured(video: track, audio: check.audio)
            check.output(try? decoder.configureVideo(track), decoder)
        case .audio(let track):
            check.configured(video: check.video, audio: track)
            check.output(try? decoder.configureAudio(track), decoder)
        case .togglePause:
            decoder.renderPaused.toggle()
        case .drain:
            check.output(try? decoder.drain(), decoder)
        }
    }
    check.output(try? decoder.drain(), decoder)
    return 0
}

/// What must hold after every call, whatever the bytes.
struct Invariants {
    let previewWidth: Int
    let previewHeight: Int
    let keepsFullFrames: Bool
    private(set) var video: VideoTrackDescription?
    private(set) var audio: AudioTrackDescription?
    /// Whether every audio track so far was PCM or G.711, whose decoders give 8- or 16-bit integer samples.
    private var integerAudioOnly = true
    private var videoSent = 0
    private var last = PacketDecoder.Counters()

    init(script: DecoderScript) {
        previewWidth = script.previewWidth
        previewHeight = script.previewHeight
        keepsFullFrames = script.keepsFullFrames
    }

    mutating func configured(video: VideoTrackDescription?, audio: AudioTrackDescription?) {
        self.video = video
        self.audio = audio
        if let codec = audio?.codec, codec == .aac || codec == .mp3 { integerAudioOnly = false }
    }

    mutating func sent(_ packet: EncodedPacket) {
        if packet.kind == .video { videoSent += 1 }
    }

    mutating func output(_ output: PacketDecoder.Output?, _ decoder: PacketDecoder) {
        switch output {
        case .picture(let picture)?: check(picture)
        case .audio(let level)?: check(level)
        case .nothing?, nil: break
        }
        let now = decoder.counters
        let fields: [KeyPath<PacketDecoder.Counters, Int>] = [
            \.videoPacketsReceived, \.videoFramesDecoded, \.videoSkippedWhilePaused, \.videoSkippedAwaitingKeyframe,
            \.audioFramesDecoded, \.drains, \.rebuilds,
        ]
        for field in fields {
            precondition(now[keyPath: field] >= last[keyPath: field], "a counter went back: \(last) then \(now)")
        }
        precondition(now.videoPacketsReceived <= videoSent, "\(now.videoPacketsReceived) video packets received of \(videoSent) sent")
        precondition(
            now.videoSkippedWhilePaused + now.videoSkippedAwaitingKeyframe <= now.videoPacketsReceived,
            "more video packets skipped than received: \(now)")
        last = now
    }

    private func check(_ picture: PacketDecoder.DecodedPicture) {
        let preview = picture.preview
        precondition(
            preview.width == previewWidth && preview.height == previewHeight && preview.rgb.count == previewWidth * previewHeight * 3,
            "a \(preview.width)x\(preview.height) preview of \(preview.rgb.count) bytes, asked for \(previewWidth)x\(previewHeight)")
        if let frame = picture.frame {
            precondition(keepsFullFrames, "a full frame from a decoder that keeps none")
            precondition(frame.width > 0 && frame.height > 0 && frame.width * frame.height <= PictureBound.maxPixels, "a \(frame.width)x\(frame.height) frame")
            let count = frame.withUnsafePictureBytes { $0.count }
            precondition(count == VideoFrame.byteCount(width: frame.width, height: frame.height), "a \(frame.width)x\(frame.height) frame of \(count) bytes")
        }
        // The marker's blocks are read only from a picture at least two pixels a block wide.
        if picture.marker != nil, let frame = picture.frame { precondition(frame.width >= FrameMarker.blockCount * 2, "a marker in a \(frame.width)-wide picture") }
        precondition(!picture.isSlate || picture.marker != nil, "a slate read from a picture without a marker")
    }

    private func check(_ level: PacketDecoder.AudioLevel) {
        for value in [level.rmsDBFS, level.peakDBFS] {
            precondition(value.isFinite && value >= -120, "an audio level of \(value) dBFS")
        }
        precondition(level.rmsDBFS <= level.peakDBFS + 1e-9, "RMS \(level.rmsDBFS) over the peak \(level.peakDBFS) dBFS")
        if integerAudioOnly { precondition(level.peakDBFS <= 1e-9, "an integer decoder's peak at \(level.peakDBFS) dBFS") }
        if let mark = level.toneMarkMilliseconds { precondition(mark.isFinite, "a tone mark at \(mark) ms") }
    }
}

/// SwiftPM points the program's `main` at `<module>_main`.
@_cdecl("FuzzPacketDecoder_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzPacketDecoder)
}
