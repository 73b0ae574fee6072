import OnAirCore
import Testing

/// A further output's connection as a table: start, refusals and losses retried with its own backoff, the
/// send-stall watchdog, stop, give-up and `r` (docs/multi-destination.md).
@Suite("output link: one destination's connection, backoff and watchdog")
struct OutputLinkTests {
    static func at(_ milliseconds: Int64) -> SessionTime { SessionTime(milliseconds: milliseconds) }

    static func link(attempts: Int = 20) -> OutputLink {
        OutputLink(index: 2, reconnect: ReconnectPolicy(configuration: .init(maxAttempts: attempts), jitterUnit: 0), sendTimeout: .seconds(5))
    }

    @Test("start connects; the server's answer makes it live with the watchdog's first look at the send timeout")
    func startAndLive() {
        var link = Self.link()
        #expect(link.handle(.start(.live), at: Self.at(0)) == [.report("publish live"), .connect(.live)])
        #expect(link.stateText == "CONNECTING")
        #expect(link.handle(.start(.live), at: Self.at(10)) == [], "a start while active is a no-op")
        #expect(link.handle(.published, at: Self.at(100)) == [.report("live"), .schedule(.sendStall, after: .seconds(5))])
        #expect(link.isLive && link.stateText == "PUBLISHING" && link.reconnects == 0)
    }

    @Test("a refused first publish is retried with the backoff (2 s, then 3 s), never an error that ends the broadcast")
    func refusalIsRetried() {
        var link = Self.link()
        _ = link.handle(.start(.live), at: Self.at(0))
        let first = link.handle(.publishFailed("NetStream.Publish.BadName"), at: Self.at(50))
        #expect(first.contains(.schedule(.reconnect, after: .seconds(2))))
        #expect(first.contains(.disconnect(draining: false)))
        #expect(link.phase == .waitingToReconnect(attempt: 1))
        #expect(link.handle(.timerFired(.reconnect), at: Self.at(2050)) == [.connect(.live)])
        let second = link.handle(.publishFailed("NetStream.Publish.BadName"), at: Self.at(2100))
        #expect(second.contains(.schedule(.reconnect, after: .seconds(3))))
        #expect(link.stateText == "RECONNECTING 2/20")
    }

    @Test("a lost live connection reconnects with a record's type as append, and counts the reconnect once live")
    func lossReconnects() {
        var link = Self.link()
        _ = link.handle(.start(.record), at: Self.at(0))
        _ = link.handle(.published, at: Self.at(100))
        let lost = link.handle(.lost("connection reset"), at: Self.at(1000))
        #expect(lost.prefix(2) == [.cancel(.sendStall), .disconnect(draining: false)])
        #expect(lost.last == .schedule(.reconnect, after: .seconds(2)))
        #expect(link.handle(.timerFired(.reconnect), at: Self.at(3000)) == [.connect(.append)])
        _ = link.handle(.published, at: Self.at(3100))
        #expect(link.reconnects == 1 && link.isLive)
    }

    @Test("a socket that takes nothing is STALLED at the send timeout and given up at three times it, then reconnected")
    func stallTearsDown() {
        var link = Self.link()
        _ = link.handle(.start(.live), at: Self.at(0))
        _ = link.handle(.published, at: Self.at(0))
        _ = link.handle(.wire(WireProgress(bytesWritten: 1000, writePending: true)), at: Self.at(100))
        _ = link.handle(.wire(WireProgress(bytesWritten: 1000, writePending: true)), at: Self.at(1000))
        let stalled = link.handle(.timerFired(.sendStall), at: Self.at(5100))
        #expect(link.stateText == "STALLED" && link.stalls == 1)
        #expect(stalled.last == .schedule(.sendStall, after: .seconds(10)))
        let torn = link.handle(.timerFired(.sendStall), at: Self.at(15100))
        #expect(torn.first == .disconnect(draining: false))
        #expect(torn.last == .schedule(.reconnect, after: .seconds(2)))
        #expect(link.phase == .waitingToReconnect(attempt: 1))
    }

    @Test("bytes moving again end STALLED at once, on the same connection")
    func stallEnds() {
        var link = Self.link()
        _ = link.handle(.start(.live), at: Self.at(0))
        _ = link.handle(.published, at: Self.at(0))
        _ = link.handle(.wire(WireProgress(bytesWritten: 1000, writePending: true)), at: Self.at(100))
        _ = link.handle(.wire(WireProgress(bytesWritten: 1000, writePending: true)), at: Self.at(1000))
        _ = link.handle(.timerFired(.sendStall), at: Self.at(5100))
        let resumed = link.handle(.wire(WireProgress(bytesWritten: 5000, writePending: true)), at: Self.at(6000))
        #expect(resumed.first == .report("the socket accepts bytes again"))
        #expect(link.stateText == "PUBLISHING" && link.stall == nil)
    }

    @Test("stop leaves the connection and cancels its timers; a stale timer after it does nothing")
    func stop() {
        var link = Self.link()
        _ = link.handle(.start(.live), at: Self.at(0))
        _ = link.handle(.publishFailed("refused"), at: Self.at(10))
        #expect(link.handle(.stop, at: Self.at(20)) == [.cancel(.reconnect), .cancel(.sendStall), .disconnect(draining: true), .report("stopped")])
        #expect(link.handle(.timerFired(.reconnect), at: Self.at(2010)) == [])
        #expect(link.handle(.stop, at: Self.at(30)) == [])
        #expect(link.phase == .idle)
    }

    @Test("after the last attempt the output is in ERROR; r or a new broadcast starts it again")
    func givesUpAndRestarts() {
        var link = Self.link(attempts: 1)
        _ = link.handle(.start(.live), at: Self.at(0))
        _ = link.handle(.publishFailed("refused"), at: Self.at(10))
        _ = link.handle(.timerFired(.reconnect), at: Self.at(2010))
        let gaveUp = link.handle(.publishFailed("refused"), at: Self.at(2020))
        #expect(gaveUp.last == .report("publish failed: refused; gave up after 1 reconnect attempts"))
        #expect(link.stateText == "ERROR" && !link.isActive)
        #expect(link.handle(.reconnectNow, at: Self.at(3000)).last == .connect(.live))
        _ = link.handle(.stop, at: Self.at(4000))
        #expect(link.handle(.start(.live), at: Self.at(5000)).last == .connect(.live))
    }

    @Test("r while live drops the connection and publishes again at once, backoff reset")
    func reconnectNow() {
        var link = Self.link()
        _ = link.handle(.start(.live), at: Self.at(0))
        _ = link.handle(.published, at: Self.at(0))
        #expect(link.handle(.reconnectNow, at: Self.at(1000)) == [
            .cancel(.reconnect), .cancel(.sendStall), .disconnect(draining: false), .report("reconnect now"), .connect(.live),
        ])
        #expect(link.phase == .connecting(attempt: 1))
        var idle = Self.link()
        #expect(idle.handle(.reconnectNow, at: Self.at(0)) == [], "an idle output has nothing to reconnect")
    }
}
