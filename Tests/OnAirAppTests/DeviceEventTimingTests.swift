import Foundation
import OnAirTestSupport
import Testing

/// A `device` event is stamped when the device changed, not when the loop next looked: the capture thread
/// tells the loop (`MediaEngine.observeDevices`), which takes a turn and reports it. Before, a headless run
/// reported a loss or a return at its next one-second tick, so `lost` came up to a second after the
/// `camera-lost` that caused it and a scenario's "within 1.5s" had half a second to spare.
@Suite("device events are reported when the device changes")
struct DeviceEventTimingTests {
    /// A change takes a frame at 30 fps (33 ms) and a turn of the loop; the bound is 18 times that. Each
    /// command is sent just after a `stats` line (a tick), so a report that waited for the next tick comes
    /// about a second after its command and fails every time, not by chance.
    static let bound: Int64 = 600

    @Test("camera-lost, camera-back, mic-lost, mic-back: each lost or back event within 600 ms of its command, twice")
    func reportedWhenChanged() async throws {
        let directory = try TemporaryDirectory()
        let pipe = Pipe()
        let demo = try HeadlessRun(
            ["demo", "--headless", "--size", "320x180", "--fps", "30", "--bitrate", "300k", "--duration", "300"],
            in: directory, standardInput: pipe.fileHandleForReading
        )
        func send(_ line: String) { pipe.fileHandleForWriting.write(Data((line + "\n").utf8)) }
        let live = await demo.waitFor { $0.side == "publisher" && $0.kind == "state" && $0.details["status"] as? String == "PUBLISHING" }
        try #require(live != nil, "never live: \(demo.peer.standardError)")
        var last = live?.time ?? 0
        for round in 1...2 {
            for (command, device, state) in [
                ("camera-lost", "camera", "lost"), ("camera-back", "camera", "back"), ("mic-lost", "microphone", "lost"), ("mic-back", "microphone", "back"),
            ] {
                let tick = await demo.waitFor { $0.side == "publisher" && $0.kind == "stats" && $0.time > last }
                try #require(tick != nil, "no stats line")
                send(command)
                let commanded = await demo.waitFor {
                    $0.kind == "device" && $0.details["command"] as? String == command && $0.time >= (tick?.time ?? 0)
                }
                let changed = await demo.waitFor {
                    $0.kind == "device" && $0.details["device"] as? String == device && $0.details["state"] as? String == state
                        && $0.time >= (commanded?.time ?? .max)
                }
                let commandedAt = try #require(commanded?.time, "\(command) (round \(round)) was not reported")
                let changedAt = try #require(changed?.time, "\(device) \(state) (round \(round)) was not reported")
                #expect(changedAt - commandedAt <= Self.bound, "round \(round): \(command) at \(commandedAt) ms, \(device) \(state) at \(changedAt) ms")
                last = changedAt
            }
        }
        send("quit")
        #expect(await demo.peer.exitStatus(within: .seconds(60)) == 0, "\(demo.peer.standardError)")
    }
}
