/// How one capture device stands, as the engine reports it to the dashboard and to `device` events.
public struct DeviceStatus: Sendable, Equatable {
    public var device: CaptureDevice
    /// False while the device is lost and its track carries a substitute (slate, freeze, black, silence).
    public var available: Bool
    /// Why it was lost: `operator` (a `camera-lost`/`mic-lost` command) or the error the device gave.
    public var reason: String?
    /// What the track carries meanwhile: `slate`, `freeze`, `black` or `silence`.
    public var substitute: String?
    /// Milliseconds until the next reopen attempt (nil: none scheduled, e.g. lost by the operator).
    public var retryInMilliseconds: Int64?
    /// Losses since the start, and reopen attempts that failed.
    public var losses: Int
    public var failedReopens: Int
    /// What the device granted when it was last opened (`640x360@30 YU12`): a camera that comes back as
    /// another camera says so, and its pictures are scaled into the same stream.
    public var format: String? = nil

    public init(
        device: CaptureDevice, available: Bool = true, reason: String? = nil, substitute: String? = nil,
        retryInMilliseconds: Int64? = nil, losses: Int = 0, failedReopens: Int = 0
    ) {
        self.device = device
        self.available = available
        self.reason = reason
        self.substitute = substitute
        self.retryInMilliseconds = retryInMilliseconds
        self.losses = losses
        self.failedReopens = failedReopens
    }

    /// The publisher's `stats` field for a device (`camera`, `microphone`): `available` or `lost`. One word
    /// list for the stats line and for a scenario reading a `device` event between two of them.
    public static func statsValue(available: Bool) -> String { available ? "available" : "lost" }

    /// The dashboard's words: `CAMERA LOST — slate, retry in 2 s`, `MIC LOST — silence (operator)`; nil when available.
    public var dashboardText: String? {
        guard !available else { return nil }
        let name = device == .camera ? "CAMERA" : "MIC"
        var text = "\(name) LOST — \(substitute ?? "nothing")"
        if let retry = retryInMilliseconds {
            text += ", retry in \(max(0, (retry + 999) / 1000)) s"
        } else if reason == "operator" {
            text += " (operator)"
        }
        return text
    }
}
