import OnAirControl
import OnAirCore
import OnAirScenario
import Testing
@testable import OnAirApp

/// A `device` event reaches a scenario's timeline as the device's new state: lost or back, nothing for a
/// command or a failed reopen (the device stays lost through those).
@Suite("scenario observer: device events")
struct ScenarioObserverDeviceTests {
    static func observation(_ state: String, device: String = "camera") -> ScenarioObservation.What? {
        ScenarioObserver.observation(.reported(kind: "device", details: ["device": .string(device), "state": .string(state)]))
    }

    @Test("lost → unavailable, back → available, commanded and retrying → nothing")
    func states() {
        #expect(Self.observation("lost") == .device("camera", available: false))
        #expect(Self.observation("back", device: "microphone") == .device("microphone", available: true))
        #expect(Self.observation("commanded") == nil)
        #expect(Self.observation("retrying") == nil)
        #expect(ScenarioObserver.observation(.reported(kind: "device", details: ["state": .string("lost")])) == nil, "no device named")
    }
}
