import OnAirConsole
import OnAirCore
import Testing

/// The publisher's dashboard while a device is lost (docs/devices.md): the flag row becomes the device line.
@Suite("device line on the publisher's dashboard")
struct DeviceScreenTests {
    @Test("a lost camera and microphone replace the flag row with what is sent instead and when the next try is", arguments: ScreenSnapshotTests.sizes)
    func deviceLine(size: ScreenSnapshotTests.Size) {
        var telemetry = ConsoleFixtures.telemetry()
        telemetry.deviceAlert = [
            DeviceStatus(device: .camera, available: false, reason: "ENODEV", substitute: "slate", retryInMilliseconds: 1500),
            DeviceStatus(device: .microphone, available: false, reason: "operator", substitute: "silence"),
        ].compactMap(\.dashboardText).joined(separator: "  ")
        let screen = ConsoleScreen(publisher: ConsoleFixtures.publisher(.publishing), publisherTelemetry: telemetry, now: ConsoleFixtures.now)
        let buffer = screen.render(width: size.width, height: size.height, theme: .builtInDefault)
        #expect(buffer.text.contains("CAMERA LOST — slate, retry in 2 s  MIC LOST — silence (operator)"))
        #expect(!buffer.text.contains("tapArmed"), "the flags give way to the device line")
        Snapshot.assert(Snapshot.screen(buffer), named: "publisher-devices-lost-\(size.name)")
    }
}
