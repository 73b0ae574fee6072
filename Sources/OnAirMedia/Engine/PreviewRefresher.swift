import OnAirCore
import Synchronization

/// The dashboard's thumbnail of the captured picture, refreshed at most `previewFramesPerSecond`, and only
/// while someone reads ``MediaEngine/preview``: a scale per refresh is wasted work when nobody looks
/// (headless, or the console's preview hidden; GitHub issue 31).
struct PreviewRefresher {
    /// How long one read of the preview keeps it refreshed: the console reads it every redraw (≥ 4 a
    /// second), so two seconds never lets its picture go stale, and a reader that stops costs at most that.
    static let demandNanoseconds: UInt64 = 2_000_000_000

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
        let readAt = control.previewReadAt.load(ordering: .relaxed)
        guard readAt != 0, readAt >= now || now - readAt < Self.demandNanoseconds else { return }
        last = now
        do {
            let image = try scaler.preview(of: frame, width: configuration.previewWidth, height: configuration.previewHeight)
            control.preview.withLock { $0 = image }
        } catch {
            control.fail(error, track: "preview")
        }
    }
}
