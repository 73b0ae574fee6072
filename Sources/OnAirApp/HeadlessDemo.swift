import OnAirControl
import OnAirCore

/// `onair demo --headless`: both phones of the testbed as one headless side. Plain phone commands go to
/// the publisher, `sub <gesture>` to the subscriber; both sides' events are printed, each with its side.
final class HeadlessDemo: HeadlessSide {
    enum Input: Sendable {
        case publisher(PublisherInput)
        case subscriber(SubscriberInput)
    }

    private let publisher: HeadlessPublisher
    private let subscriber: HeadlessSubscriber
    var commandName: String { "demo" }

    let commands: CommandRouter

    init(publisher: PublisherController, subscriber: SubscriberController) {
        self.publisher = HeadlessPublisher(publisher)
        self.subscriber = HeadlessSubscriber(subscriber)
        commands = CommandRouter(publisher: publisher, subscriber: subscriber)
    }

    func handle(_ input: Input) async {
        switch input {
        case .publisher(let event): await publisher.handle(event)
        case .subscriber(let event): await subscriber.handle(event)
        }
    }

    func tick() async {
        await publisher.tick()
        await subscriber.tick()
    }

    func statsEvents(at now: SessionTime) -> [HeadlessEvent] {
        publisher.statsEvents(at: now) + subscriber.statsEvents(at: now)
    }

    func report(at now: SessionTime) -> [HeadlessEvent] {
        publisher.report(at: now) + subscriber.report(at: now)
    }

    /// Only the publisher's failure ends a demo: the subscriber's reconnect loop is part of the show.
    var failure: String? { publisher.failure }

    func shutdown() async {
        await publisher.shutdown()
        await subscriber.shutdown()
    }
}
