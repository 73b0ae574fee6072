import Testing
@testable import OnAirCore

@Suite("device commands, the reopen backoff and the dashboard's device line")
struct DeviceCommandTests {
    @Test("camera-lost, camera-back, mic-lost, mic-back parse as device commands for the publisher, in any case, and name themselves")
    func parse() {
        for command in DeviceCommand.allCases {
            let parsed = OperatorCommand(" \(command.rawValue.uppercased()) ")
            #expect(parsed == .device(command))
            #expect(parsed?.name == command.rawValue)
            #expect(parsed?.side(in: CommandTargets(publisher: PublisherAppState(policy: .tapRepublish, streamName: "s", redactedURL: "rtmp://h/live/s"))) == .publisher)
            #expect(parsed?.refusal(in: CommandTargets(publisher: PublisherAppState(policy: .tapRepublish, streamName: "s", redactedURL: "rtmp://h/live/s"))) == nil, "acts under every state")
            #expect(parsed?.onSubscriber == nil, "no subscriber counterpart")
            #expect(OperatorCommand.names.contains(command.rawValue))
        }
        #expect(OperatorCommand("camera-lost")?.refusal(in: CommandTargets(subscriber: SubscriberAppState(streamName: "s", redactedURL: "rtmp://h/live/s"))) == "that is a publisher command")
        #expect(OperatorCommand("camera-gone") == nil)
    }

    @Test("reopens back off 1 s, 2 s, 4 s, then 5 s for good; a success starts again at 1 s", arguments: [
        (0, 1), (1, 2), (2, 4), (3, 5), (4, 5), (20, 5),
    ])
    func backoff(failures: Int, seconds: Int64) {
        var backoff = DeviceBackoff()
        for _ in 0..<failures { _ = backoff.failed() }
        #expect(backoff.delay == .seconds(seconds))
        backoff.reset()
        #expect(backoff.delay == .seconds(1))
    }

    @Test("the dashboard says which device is lost, what replaces it and when the next try is")
    func dashboardText() {
        #expect(DeviceStatus(device: .camera).dashboardText == nil)
        let retrying = DeviceStatus(device: .camera, available: false, reason: "ENODEV", substitute: "slate", retryInMilliseconds: 1200)
        #expect(retrying.dashboardText == "CAMERA LOST — slate, retry in 2 s")
        let taken = DeviceStatus(device: .microphone, available: false, reason: "operator", substitute: "silence")
        #expect(taken.dashboardText == "MIC LOST — silence (operator)")
    }
}
