import OnAirCore
import OnAirMedia

extension PublisherController {
    /// `camera-lost`, `camera-back`, `mic-lost`, `mic-back`: acts at the capture source, whatever the source
    /// and the session's state (docs/devices.md). The engine's capture threads see it before their next frame.
    public func apply(_ command: DeviceCommand) {
        switch command.device {
        case .camera: engine.takeCamera(command.takesAway)
        case .microphone: engine.takeMicrophone(command.takesAway)
        }
        deviceWatch.commanded(command)
    }

    /// The `device` events since the last call: a device lost (by the operator or by itself, and why), a
    /// reopen that failed and when the next one is, a device back.
    public func takeDeviceEvents(at now: SessionTime) -> [OnAirEvent] {
        deviceWatch.events(for: engine.devices, trackFailure: engine.trackFailure, at: now)
    }
}

extension StreamTelemetry {
    /// These figures with the dashboard's line for the lost devices, if any.
    func withDeviceAlert(_ devices: [DeviceStatus]) -> StreamTelemetry {
        var telemetry = self
        let texts = devices.compactMap(\.dashboardText)
        telemetry.deviceAlert = texts.isEmpty ? nil : texts.joined(separator: "  ")
        return telemetry
    }
}

/// Turns the engine's device statuses into `device` events, once per change: what the operator asked,
/// a loss with its reason and substitute, each failed reopen with the next delay, the return. A track the
/// engine had to stop (an encoder error: no device loss covers it) becomes one `error` line.
struct DeviceEventWatch {
    private var last: [CaptureDevice: DeviceStatus] = [:]
    private var pending: [DeviceCommand] = []
    private var lastTrackFailure: String?

    mutating func commanded(_ command: DeviceCommand) { pending.append(command) }

    mutating func events(for statuses: [DeviceStatus], trackFailure: String? = nil, at now: SessionTime) -> [OnAirEvent] {
        var events: [OnAirEvent] = []
        if let trackFailure, trackFailure != lastTrackFailure {
            lastTrackFailure = trackFailure
            events.append(OnAirEvent(time: now, side: .publisher, .log(
                .error, "media \(trackFailure); that track has stopped and the broadcast goes on without it: publish again to restart it")))
        }
        for command in pending {
            events.append(OnAirEvent(time: now, side: .publisher, .reported(kind: "device", details: [
                "device": .string(command.device.rawValue), "state": .string("commanded"), "command": .string(command.rawValue),
            ])))
        }
        pending = []
        for status in statuses {
            let before = last[status.device] ?? DeviceStatus(device: status.device)
            last[status.device] = status
            let state: String
            if status.available != before.available {
                state = status.available ? "back" : "lost"
            } else if status.failedReopens != before.failedReopens {
                state = "retrying"
            } else {
                continue
            }
            var details: [String: JSONValue] = [
                "device": .string(status.device.rawValue), "state": .string(state),
                "losses": .integer(Int64(status.losses)), "failedReopens": .integer(Int64(status.failedReopens)),
            ]
            if let reason = status.reason, state != "back" { details["reason"] = .string(reason) }
            if let format = status.format, state == "back" { details["format"] = .string(format) }
            if let substitute = status.substitute { details["substitute"] = .string(substitute) }
            if let retry = status.retryInMilliseconds { details["retryInMs"] = .integer(retry) }
            if let text = status.dashboardText { details["text"] = .string(text) }
            events.append(OnAirEvent(time: now, side: .publisher, .reported(kind: "device", details: details)))
        }
        return events
    }
}
