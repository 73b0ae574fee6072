import OnAirControl
import OnAirCore

/// The sides a front end runs — a publisher (`publish`), a subscriber (`subscribe`) or both (`demo`) — as
/// the one loop drives them, and as the headless output, `--log` and a scenario's observer report them.
final class FrontEndSides {
    let publisher: PublisherController?
    let subscriber: SubscriberController?
    /// Where every operator command goes (keys, stdin lines, scenario presses).
    let commands: CommandRouter
    private var publisherReporter = HeadlessReporter(side: .publisher)
    private var subscriberReporter = HeadlessReporter(side: .subscriber)
    private var subscriberPlaysReported = 0
    private var publisherStatusReported: PublisherStatus?

    init(publisher: PublisherController?, subscriber: SubscriberController?) {
        self.publisher = publisher
        self.subscriber = subscriber
        commands = CommandRouter(publisher: publisher, subscriber: subscriber)
    }

    /// The command name shown in messages (`publish`, `subscribe`, `demo`).
    var commandName: String {
        switch (publisher, subscriber) {
        case (_?, _?): "demo"
        case (_?, nil): "publish"
        default: "subscribe"
        }
    }

    /// Every tick the publisher samples its wire; once a second the subscriber's watchdog looks at the
    /// time of its last media.
    func tick(second: Bool) {
        publisher?.tick()
        if second { subscriber?.handle(.tick) }
    }

    /// The `stats` events (README, "Headless output"), one per side.
    func statsEvents(at now: SessionTime) -> [OnAirEvent] {
        (publisher.map { [OnAirEvent(time: now, side: .publisher, .stats($0.headlessStats))] } ?? [])
            + (subscriber.map { [OnAirEvent(time: now, side: .subscriber, .stats($0.headlessStats))] } ?? [])
    }

    /// The sides' last figures as the run ends: a `stopped` event of the app per side.
    func stoppedEvents(at now: SessionTime) -> [OnAirEvent] {
        statsEvents(at: now).compactMap { event in
            guard case .stats(let figures) = event.kind else { return nil }
            return OnAirEvent(time: now, side: .app, .stopped(event.side, figures))
        }
    }

    /// What the sides have to say since the last turn: log lines, toasts, state, stream announcements.
    func report(at now: SessionTime) -> [OnAirEvent] {
        var events: [OnAirEvent] = []
        if let state = publisher?.state {
            events += publisherReporter.report(log: state.log, toasts: state.toasts, summary: state.headlessSummary, at: now)
            if state.status != publisherStatusReported {
                publisherStatusReported = state.status
                events.append(OnAirEvent(time: now, side: .publisher, .publisherStatus(state.status)))
            }
            events += publisher?.takeDeviceEvents(at: now) ?? []
        }
        if let subscriber {
            events += subscriber.takeNotices().map { OnAirEvent(time: now, side: .subscriber, $0) }
            let state = subscriber.state
            events += subscriberReporter.report(log: state.log, toasts: state.toasts, summary: state.headlessSummary, at: now)
            if state.playsAsked != subscriberPlaysReported {
                subscriberPlaysReported = state.playsAsked
                events.append(OnAirEvent(time: now, side: .subscriber, .subscriberPlays(state.playsAsked)))
            }
        }
        return events
    }

    /// The publisher's failed publish, in one line; nil while all is well.
    var publisherFailure: String? {
        if case .error(let message)? = publisher?.state.status { return message }
        return nil
    }

    /// A failure that ends a headless run: the publisher's where there is one (the demo subscriber's
    /// reconnect loop is part of the show), else the subscriber's failed play.
    var failure: String? {
        if publisher != nil { return publisherFailure }
        if case .error(let message)? = subscriber?.state.connection { return message }
        return nil
    }

    func shutdown() async {
        await publisher?.shutdown()
        await subscriber?.shutdown()
    }
}
