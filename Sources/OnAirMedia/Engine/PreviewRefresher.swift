import OnAirCore

/// The dashboard's thumbnail of the captured picture, refreshed at most `previewFramesPerSecond`.
struct PreviewRefresher {
    private let configuration: MediaEngineConfiguration
    private let control: EngineControl
    private let scaler = FrameScaler()
    private let intervalNanoseconds: UInt64
    private var last: UInt64 = 0

    init(configuration: MediaEngineConfiguration, control: EngineControl) {
        self.configuration = configuration
        self.control = control
        let rate = configuration.previewFramesPerSecond
        intervalNanoseconds = rate > 0 ? UInt64(1e9 / rate) : 0
    }

    mutating func offer(_ frame: VideoFrame) {
        guard intervalNanoseconds > 0 else { return }
        let now = MonotonicClock.now()
        guard now >= last + intervalNanoseconds else { return }
        last = now
        do {
            let image = try scaler.preview(of: frame, width: configuration.previewWidth, height: configuration.previewHeight)
            control.preview.withLock { $0 = image }
        } catch {
            control.fail(error, track: "preview")
        }
    }
}
