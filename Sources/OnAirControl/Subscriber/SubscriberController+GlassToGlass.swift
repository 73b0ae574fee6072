import OnAirCore
import OnAirMedia

extension SubscriberController {
    /// The frame-marker figures of the current decoder at wall instant now (README, "Glass to glass").
    public var glassToGlassNow: GlassToGlassMeter.Reading? {
        decoder?.snapshot.glassToGlass.reading(at: WallClock.nowMicroseconds())
    }

    /// The `stats` fields read from the pictures' frame markers; absent until a marker has been read.
    public func glassToGlassDetails(_ meter: GlassToGlassMeter) -> [String: JSONValue] {
        let wallNow = WallClock.nowMicroseconds()
        let reading = meter.reading(at: wallNow)
        guard reading.markersRead > 0 else { return [:] }
        func milliseconds(_ value: Double) -> JSONValue { .number((value * 10).rounded() / 10) }
        var details: [String: JSONValue] = [
            "frozenMs": .integer(reading.frozenMilliseconds),
            "skippedFrames": .integer(Int64(reading.skippedFrames)),
            "markersUnreadable": .integer(Int64(reading.markersUnreadable)),
            "replayedFrames": .integer(Int64(reading.replayedFrames)),
            "slate": .bool(reading.showsSlate),
        ]
        if let number = reading.lastFrameNumber { details["lastFrameNumber"] = .integer(Int64(number)) }
        if let p50 = reading.p50Milliseconds { details["glassToGlassP50Ms"] = milliseconds(p50) }
        if let p99 = reading.p99Milliseconds { details["glassToGlassP99Ms"] = milliseconds(p99) }
        if let offset = reading.avOffsetMilliseconds { details["avOffsetMs"] = milliseconds(offset) }
        if let capture = reading.lastCaptureWallMicroseconds {
            // On the session clock, like every event's `time`: scenarios compare it with their presses.
            let age = Int64(bitPattern: wallNow &- capture) / 1000
            details["lastFrameCapturedAtMs"] = .integer(clock.now.milliseconds - age)
        }
        return details
    }
}
