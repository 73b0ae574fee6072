import OnAirCore
import OnAirMedia

extension PublisherController {
    /// The publisher's `stats` event: `bitrate`, `fps` and `framesSent`/`bytesSent` count what the socket
    /// took; `encoderBitrate`/`encoderFps` are the encoder's own output beside them (README, "Figures").
    public var headlessStats: [String: JSONValue] {
        var details = engine.stats.headlessDetails
        let counts = wire.snapshot
        details["encoderBitrate"] = details["bitrate"]
        details["encoderFps"] = details["fps"]
        // The engine's per-kind rates are the encoder's too: named so, not passed off as the wire's.
        details["encoderVideoBitrate"] = details.removeValue(forKey: "videoBitrate")
        details["encoderAudioBitrate"] = details.removeValue(forKey: "audioBitrate")
        details["bitrate"] = .integer(Int64(wireRate.bitrate))
        details["fps"] = .number((wireRate.framesPerSecond * 10).rounded() / 10)
        details["bytesSent"] = .integer(Int64(clamping: counts.bytesWritten))
        details["framesSent"] = .integer(Int64(clamping: counts.videoFramesWritten))
        if let stall = state.sendStall {
            details["sendStalledMs"] = .integer(max(0, clock.now.milliseconds - stall.since.milliseconds))
            details["tearDownInMs"] = .integer(max(0, stall.tearDownAt.milliseconds - clock.now.milliseconds))
        }
        if let link { details["link"] = .string(link.description) }
        if let acknowledgement = network?.serverAcknowledgement {
            // The cross-check of `bitrate`'s source: the server's own count (RTMP Acknowledgement) beside TCP's.
            details["serverAcknowledgedBytes"] = .integer(Int64(clamping: acknowledgement.serverRead))
            details["tcpAcknowledgedBytes"] = .integer(Int64(clamping: acknowledgement.tcpDelivered))
        }
        if let target = network?.abrTarget { details["abrTarget"] = .integer(target.audioOnly ? 0 : Int64(target.videoBitrate)) }
        for device in engine.devices {
            // `camera`/`microphone`: available or lost, what scenarios wait for after a device command.
            details[device.device.rawValue] = .string(DeviceStatus.statsValue(available: device.available))
        }
        if let since = state.onAirSince { details["onAirMs"] = .integer(max(0, clock.now.milliseconds - since.milliseconds)) }
        return details
    }
}
