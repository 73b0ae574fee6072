import OnAirCore
import OnAirCore
import Synchronization

/// The state the engine's threads share: flags they read every frame, counters they bump, the preview.
///
/// Flags are atomics (read per frame on hot paths, set from any thread by the app); counters and the meter
/// sit behind one `Mutex` each, taken briefly per packet. No thread ever holds two of these at once.
final class EngineControl: Sendable {
    struct Counters: Sendable {
        var framesCaptured = 0
        var framesEncoded = 0
        var keyframesEncoded = 0
        var framesSkippedWhilePaused = 0
        var audioPacketsEncoded = 0
        var sourceLate = 0
        var audioOverruns = 0
        /// Camera pictures repeated because the device delivered none in time (the gap filler).
        var framesFilled = 0
        var lastError: String?
    }

    let stopping = Atomic(false)
    let videoPaused = Atomic(false)
    let audioPaused = Atomic(false)
    let keyframeRequested = Atomic(false)
    let counters = Mutex(Counters())
    let meter = Mutex(EncoderMeter())
    let preview = Mutex<PreviewImage?>(nil)
    /// When the preview was last read (monotonic nanoseconds, 0: never). The capture thread scales a
    /// preview only while someone reads it (GitHub issue 31): headless runs and a console with the
    /// preview hidden never pay for the downscale.
    let previewReadAt = Atomic<UInt64>(0)
    /// The video rate the app asked for last and the encode thread has not applied yet (see `VideoRate`).
    let pendingVideoRate = Mutex<VideoRate?>(nil)
    /// The video rate the encode thread applies now; nil until the first change.
    let appliedVideoRate = Mutex<VideoRate?>(nil)
    /// `camera-lost` / `mic-lost` from the operator, until `camera-back` / `mic-back` (docs/devices.md).
    let cameraTaken = Atomic(false)
    let microphoneTaken = Atomic(false)
    /// The app is away and `--background-video slate`: the camera is unavailable, as if taken.
    let cameraBackgrounded = Atomic(false)
    /// How each device stands, written by its capture thread, read by `MediaEngine.devices`.
    let camera = Mutex(DeviceCell(status: DeviceStatus(device: .camera)))
    let microphone = Mutex(DeviceCell(status: DeviceStatus(device: .microphone)))
    /// Told (on the capture thread, no lock held) after a device's status changed, so the app reports the
    /// change when it happens rather than when it next looks (`MediaEngine.observeDevices`).
    let deviceObserver = Mutex<(@Sendable () -> Void)?>(nil)
    /// The stream's zero on the monotonic clock: both tracks' timestamps count from here.
    let originNanoseconds: UInt64

    init(originNanoseconds: UInt64) { self.originNanoseconds = originNanoseconds }

    /// Records the error that ended a track (the dashboard shows it; the other track keeps going).
    func fail(_ error: any Error, track: String) {
        counters.withLock { $0.lastError = "\(track): \(error)" }
    }

    /// A device's status changed: tell the observer, outside the lock.
    func deviceChanged() {
        deviceObserver.withLock { $0 }?()
    }

    /// Milliseconds on the stream clock for a capture time (never negative).
    func milliseconds(_ capture: UInt64) -> Int64 {
        capture > originNanoseconds ? Int64((capture - originNanoseconds) / 1_000_000) : 0
    }
}

/// A device's status and when its next reopen is due (monotonic nanoseconds), as its capture thread keeps them.
struct DeviceCell: Sendable {
    var status: DeviceStatus
    var retryAtNanoseconds: UInt64?

    /// The device went away: `substitute` fills its track until a reopen at `retryAt` (none: no reopen).
    mutating func markLost(reason: String, substitute: String, retryAt: UInt64?) {
        status.available = false
        status.reason = reason
        status.substitute = substitute
        status.losses += 1
        retryAtNanoseconds = retryAt
    }

    /// A reopen failed with `reason`; the next one is due at `retryAt`.
    mutating func markReopenFailed(reason: String, retryAt: UInt64) {
        status.reason = reason
        status.failedReopens += 1
        retryAtNanoseconds = retryAt
    }

    /// The status with the time left before the next reopen, as of `now`.
    func snapshot(now: UInt64) -> DeviceStatus {
        var status = status
        if let retry = retryAtNanoseconds, !status.available {
            status.retryInMilliseconds = retry > now ? Int64((retry - now) / 1_000_000) : 0
        }
        return status
    }
}
