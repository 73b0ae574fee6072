import CALSA
import Glibc

/// Microphone capture through ALSA: `hw:0`, `default`, `plughw:1,0`, or any PCM name from `arecord -L`.
///
/// Signed 16-bit interleaved, read with `snd_pcm_readi` on the capture thread, which the device paces.
/// A private `configuration` (ALSA config text) replaces the system's: that is how tests drive this exact
/// code with ALSA's `file` plugin on machines without a sound card (docs/platform-notes.md).
public final class ALSACapture: AudioSource {
    public let device: String
    public let requestedFormat: AudioSourceFormat
    public let format: AudioSourceFormat
    public private(set) var overruns = 0

    private var pcm: OpaquePointer?
    private var config: OpaquePointer?

    public init(device: String, sampleRate: Int = 48_000, channels: Int = 2, configuration: String? = nil) throws {
        self.device = device
        requestedFormat = AudioSourceFormat(sampleRate: sampleRate, channels: channels)
        onair_alsa_silence_errors()
        do {
            if let configuration {
                try ALSACapture.load(configuration, into: &config)
                try check(alsa: snd_pcm_open_lconf(&pcm, device, SND_PCM_STREAM_CAPTURE, 0, config), "snd_pcm_open_lconf")
            } else {
                try check(alsa: snd_pcm_open(&pcm, device, SND_PCM_STREAM_CAPTURE, 0), "snd_pcm_open")
            }
        } catch {
            throw ALSACapture.operatorError(error, device: device)
        }
        do {
            // 100 ms of device buffer: room for a late reader on a loaded 2-core machine, small enough to stay live.
            try check(alsa: snd_pcm_set_params(
                pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, UInt32(channels), UInt32(sampleRate), 1, 100_000),
                "snd_pcm_set_params")
        } catch {
            throw MediaError.formatUnsupported("\(device) refuses \(sampleRate) Hz × \(channels) ch s16 (\(error)); try plughw:N or another --audio device")
        }
        format = ALSACapture.grantedFormat(pcm) ?? requestedFormat
    }

    deinit {
        if let pcm { snd_pcm_close(pcm) }
        if let config { snd_config_delete(config) }
    }

    /// Parses ALSA configuration text into a private top-level config node.
    private static func load(_ text: String, into config: inout OpaquePointer?) throws {
        try check(alsa: snd_config_top(&config), "snd_config_top")
        var input: OpaquePointer?
        let bytes = Array(text.utf8)
        try check(alsa: bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { snd_input_buffer_open(&input, $0.baseAddress, $0.count) }
        }, "snd_input_buffer_open")
        defer { snd_input_close(input) }
        try check(alsa: snd_config_load(config, input), "snd_config_load")
    }

    /// Turns "no such device" and "busy" into the operator's words.
    private static func operatorError(_ error: any Error, device: String) -> any Error {
        guard case let MediaError.alsa(_, code, _) = error else { return error }
        switch -code {
        case ENOENT, ENODEV, ENXIO: return MediaError.deviceMissing(.microphone, path: device)
        case EBUSY: return MediaError.deviceBusy(.microphone, path: device)
        case EACCES, EPERM: return MediaError.devicePermissionDenied(.microphone, path: device)
        default: return error
        }
    }

    private static func grantedFormat(_ pcm: OpaquePointer?) -> AudioSourceFormat? {
        var params: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&params) == 0 else { return nil }
        defer { snd_pcm_hw_params_free(params) }
        guard snd_pcm_hw_params_current(pcm, params) == 0 else { return nil }
        var rate: UInt32 = 0
        var direction: Int32 = 0
        var channels: UInt32 = 0
        guard snd_pcm_hw_params_get_rate(params, &rate, &direction) == 0,
            snd_pcm_hw_params_get_channels(params, &channels) == 0
        else { return nil }
        return AudioSourceFormat(sampleRate: Int(rate), channels: Int(channels))
    }

    public func read(frames: Int) throws -> AudioChunk {
        var samples = [Int16](repeating: 0, count: frames * format.channels)
        var filled = 0
        try samples.withUnsafeMutableBufferPointer { buffer throws in
            while filled < frames {
                let result = snd_pcm_readi(pcm, buffer.baseAddress! + filled * format.channels, snd_pcm_uframes_t(frames - filled))
                if result >= 0 {
                    filled += Int(result)
                    continue
                }
                let code = Int32(result)
                if code == -EINTR || code == -EAGAIN { continue }
                if code == -EPIPE || code == -ESTRPIPE {
                    // Overrun (we were late) or suspend: recover, count it, keep capturing.
                    overruns += 1
                    try check(alsa: snd_pcm_recover(pcm, code, 1), "snd_pcm_recover")
                    continue
                }
                try check(alsa: code, "snd_pcm_readi")
            }
        }
        let now = MonotonicClock.now()
        let duration = UInt64(Double(frames) * 1e9 / Double(format.sampleRate))
        return AudioChunk(
            sampleRate: format.sampleRate, channels: format.channels, samples: samples,
            captureNanoseconds: now > duration ? now - duration : now)
    }
}
