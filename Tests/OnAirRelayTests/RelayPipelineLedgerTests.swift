@testable import OnAirRelay
import Testing

/// ``RelayPipelineLedger``: what NIO says it still holds decides which handed-over bytes count, in order.
struct RelayPipelineLedgerTests {
    final class Owner {}

    private struct Credit: Equatable {
        var count: Int
        var owner: ObjectIdentifier?
    }

    private static func reconcile(_ ledger: inout RelayPipelineLedger<Owner>, buffered: Int) -> [Credit] {
        var credits: [Credit] = []
        ledger.reconcile(buffered: buffered) { credits.append(Credit(count: $0, owner: $1.map(ObjectIdentifier.init))) }
        return credits
    }

    @Test("writes count once NIO no longer holds them, oldest first, a partly written one in parts")
    func creditsInOrder() {
        let a = Owner(), b = Owner()
        var ledger = RelayPipelineLedger<Owner>()
        ledger.handed(100, for: a)
        ledger.handed(50, for: nil)
        ledger.handed(200, for: b)
        #expect(Self.reconcile(&ledger, buffered: 350).isEmpty, "NIO holds all of it")
        #expect(Self.reconcile(&ledger, buffered: 230) == [Credit(count: 100, owner: ObjectIdentifier(a)), Credit(count: 20, owner: nil)])
        #expect(ledger.unconfirmedBytes == 230)
        #expect(Self.reconcile(&ledger, buffered: 150) == [Credit(count: 30, owner: nil), Credit(count: 50, owner: ObjectIdentifier(b))])
        #expect(Self.reconcile(&ledger, buffered: 150).isEmpty, "nothing new written")
        #expect(Self.reconcile(&ledger, buffered: 0) == [Credit(count: 150, owner: ObjectIdentifier(b))])
        #expect(ledger.isEmpty && ledger.unconfirmedBytes == 0)
    }

    @Test("an abandoned ledger credits nothing of what NIO held; empty writes and nonsense counts are ignored")
    func abandonAndBounds() {
        let a = Owner()
        var ledger = RelayPipelineLedger<Owner>()
        ledger.handed(0, for: a)
        #expect(ledger.isEmpty)
        ledger.handed(64, for: a)
        #expect(Self.reconcile(&ledger, buffered: 1_000).isEmpty, "NIO never holds more than it was handed: nothing counts")
        #expect(Self.reconcile(&ledger, buffered: -5) == [Credit(count: 64, owner: ObjectIdentifier(a))])
        ledger.handed(10, for: a)
        ledger.abandon()
        #expect(ledger.isEmpty && ledger.unconfirmedBytes == 0)
        #expect(Self.reconcile(&ledger, buffered: 0).isEmpty)
    }
}
