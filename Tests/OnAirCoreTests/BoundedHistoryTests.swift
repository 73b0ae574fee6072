import OnAirCore
import Testing

@Suite("BoundedHistory: the event log's and the toasts' bounded queue")
struct BoundedHistoryTests {
    @Test("keeps the newest capacity elements in order and counts every append")
    func bound() {
        var history = BoundedHistory<Int>(capacity: 3)
        for value in 1...5 { history.append(value) }
        #expect(history.elements == [3, 4, 5])
        #expect(history.appendedCount == 5)
        #expect(Array(history.last(2)) == [4, 5])
        #expect(Array(history.last(10)) == [3, 4, 5])
    }

    @Test("elements(after:) returns what is new since a remembered count, only what is still kept")
    func newSince() {
        var history = BoundedHistory<Int>(capacity: 3)
        history.append(1)
        let seen = history.appendedCount
        #expect(history.elements(after: seen).isEmpty)
        history.append(2)
        history.append(3)
        #expect(Array(history.elements(after: seen)) == [2, 3])
        for value in 4...8 { history.append(value) }
        #expect(Array(history.elements(after: seen)) == [6, 7, 8], "dropped elements are not returned")
    }

    @Test("the event log and the toast queue both bound through it")
    func users() {
        var log = EventLog(capacity: 2)
        for index in 0..<4 { log.append(SessionTime(milliseconds: Int64(index)), .key, "k\(index)") }
        #expect(log.entries.map(\.text) == ["k2", "k3"] && log.appendedCount == 4)
        var toasts = ToastQueue(capacity: 2)
        for index in 0..<3 { toasts.post(Toast(text: "t\(index)", postedAt: SessionTime(milliseconds: 0))) }
        #expect(toasts.toasts.map(\.text) == ["t1", "t2"] && toasts.postedCount == 3)
        #expect(toasts.toasts(after: 2).map(\.text) == ["t2"])
    }
}
