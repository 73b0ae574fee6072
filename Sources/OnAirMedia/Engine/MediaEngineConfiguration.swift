import OnAirCore

import Foundation

/// Everything `MediaEngine` needs: sources, picture size and rate, bitrates, queue bounds, preview.
public struct MediaEngineConfiguration: Sendable, Equatable {
    /// nil: no video track.
    public var video: VideoSourceSpec?
    /// nil: no audio track.
    public var audio: AudioSourceSpec?
    /// The encoded size; sources of another size are scaled (libswscale).
    public var width: Int
    public var height: Int
    /// Requested from cameras; the encoder's nominal rate.
    public var framesPerSecond: Double
    /// H.264 target = ceiling (CBR), bits per second.
    public var videoBitrate: Int
    /// AAC bits per second.
    public var audioBitrate: Int
    /// Seconds between scheduled IDRs (RTMP players can only join at one).
    public var keyframeIntervalSeconds: Double
    public var x264Preset: String
    public var x264Tune: String
    /// x264 threads; nil picks for this machine (cores − 1, between 1 and 4: one core stays for capture, audio, network).
    public var encoderThreads: Int?
    /// Requested from microphones; tones use it as is; WAV files keep their own.
    public var audioSampleRate: Int
    public var audioChannels: Int
    /// Output queue bound in packets.
    public var outputQueueCapacity: Int
    /// Output queue bound in bytes; nil: two seconds of the configured bitrates, at least 1 MiB.
    public var outputQueueBytes: Int?
    /// How long an audio packet may wait for the next video packet to leave in one write with it (0: never
    /// waits). Fewer wake-ups of the sender; costs audio, never video, up to this much latency.
    public var audioMergeMilliseconds: Int
    /// Preview picture size and highest refresh rate; 0 fps turns the preview off.
    public var previewWidth: Int
    public var previewHeight: Int
    public var previewFramesPerSecond: Double
    /// Real time (live) or unpaced (benchmarks) for file and synthetic sources.
    public var pacing: Pacing
    /// ALSA configuration text used instead of the system's (tests drive the `file` plugin through it).
    public var alsaConfiguration: String?
    /// `--on-camera-loss`: what video carries while the camera is lost (docs/devices.md).
    public var cameraLoss: CameraLossFill = .slate
    /// `--background-video`: a paused app's video is paused, or the camera is treated as lost (the slate).
    public var backgroundVideo: BackgroundVideo = .pause

    public init(
        video: VideoSourceSpec? = .testPattern,
        audio: AudioSourceSpec? = .tone(frequency: 440),
        width: Int = 1280,
        height: Int = 720,
        framesPerSecond: Double = 30,
        videoBitrate: Int = 2_500_000,
        audioBitrate: Int = 128_000,
        keyframeIntervalSeconds: Double = 2,
        x264Preset: String = "ultrafast",
        x264Tune: String = "zerolatency",
        encoderThreads: Int? = nil,
        audioSampleRate: Int = 48_000,
        audioChannels: Int = 2,
        outputQueueCapacity: Int = 120,
        outputQueueBytes: Int? = nil,
        audioMergeMilliseconds: Int = 40,
        previewWidth: Int = 128,
        previewHeight: Int = 72,
        previewFramesPerSecond: Double = 8,
        pacing: Pacing = .realTime,
        alsaConfiguration: String? = nil
    ) {
        self.video = video
        self.audio = audio
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.videoBitrate = videoBitrate
        self.audioBitrate = audioBitrate
        self.keyframeIntervalSeconds = keyframeIntervalSeconds
        self.x264Preset = x264Preset
        self.x264Tune = x264Tune
        self.encoderThreads = encoderThreads
        self.audioSampleRate = audioSampleRate
        self.audioChannels = audioChannels
        self.outputQueueCapacity = outputQueueCapacity
        self.outputQueueBytes = outputQueueBytes
        self.audioMergeMilliseconds = audioMergeMilliseconds
        self.previewWidth = previewWidth
        self.previewHeight = previewHeight
        self.previewFramesPerSecond = previewFramesPerSecond
        self.pacing = pacing
        self.alsaConfiguration = alsaConfiguration
    }

    /// Rejects values no encoder or source would accept, with the fix in the message.
    func validate() throws {
        guard video != nil || audio != nil else { throw MediaError.invalidConfiguration("neither video nor audio is configured; give --video or --audio") }
        guard width >= 16, height >= 16, width % 2 == 0, height % 2 == 0, width <= 4096, height <= 2304 else {
            throw MediaError.invalidConfiguration("size \(width)x\(height): use even numbers between 16x16 and 4096x2304, e.g. --size 1280x720")
        }
        guard framesPerSecond > 0, framesPerSecond <= 120 else {
            throw MediaError.invalidConfiguration("\(framesPerSecond) fps: use a rate between 1 and 120, e.g. --fps 30")
        }
        guard videoBitrate >= 50_000, audioBitrate >= 16_000 else {
            throw MediaError.invalidConfiguration("bitrates \(videoBitrate)/\(audioBitrate) bit/s are too low: video ≥ 50k, audio ≥ 16k")
        }
        guard keyframeIntervalSeconds > 0, outputQueueCapacity >= 2, (1...2).contains(audioChannels), audioSampleRate > 0 else {
            throw MediaError.invalidConfiguration("keyframe interval must be > 0 s, the output queue ≥ 2 packets, audio 1–2 channels")
        }
        guard (0...1000).contains(audioMergeMilliseconds) else {
            throw MediaError.invalidConfiguration("--audio-merge-ms \(audioMergeMilliseconds): write 0 (send audio at once) up to 1000")
        }
        guard previewWidth > 0, previewHeight > 0, previewFramesPerSecond >= 0 else {
            throw MediaError.invalidConfiguration("preview \(previewWidth)x\(previewHeight)@\(previewFramesPerSecond) must be positive")
        }
    }

    /// The x264 thread count for this machine.
    var resolvedEncoderThreads: Int {
        encoderThreads ?? min(4, max(1, ProcessInfo.processInfo.activeProcessorCount - 1))
    }

    /// The output queue's byte bound.
    var resolvedOutputQueueBytes: Int {
        outputQueueBytes ?? max(1 << 20, 2 * (videoBitrate + audioBitrate) / 8)
    }
}
