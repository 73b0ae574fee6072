import Foundation
import OnAirTestSupport
import Testing

/// Issue 29 item 7 through the real binary: usage errors (exit 2) instead of a hang, a silent "never" or
/// a confusing network error.
@Suite("Usage bounds", .timeLimit(.minutes(2)))
struct UsageBoundsTests {
    @Test("a FIFO given to --script is refused at once, before anything opens it")
    func fifoScript() throws {
        let directory = try TemporaryDirectory(prefix: "onair-fifo")
        let fifo = directory.file("pipe.scenario").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try OnAirBinary.run(["demo", "--headless", "--script", fifo], timeout: .seconds(30))
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains("not a regular file"))
    }

    @Test("--idle-timeout below a second (or rounding to nothing) is a usage error with the range",
          arguments: ["0.0000001", "0.001", "0.5", "500ms"])
    func idleTimeoutRange(value: String) throws {
        let result = try OnAirBinary.run(["serve", "--listen", "127.0.0.1:0", "--idle-timeout", value], timeout: .seconds(30))
        #expect(result.status == 2, "\(value): \(result.standardError)")
        #expect(result.standardError.contains("give 0 (off) or 1 to 86400 seconds"), "\(value): \(result.standardError)")
    }

    @Test("rtmp://[::1:PORT/… is a usage error (exit 2) naming the bracket, not a connection failure")
    func unclosedBracket() throws {
        let result = try OnAirBinary.run(["publish", "rtmp://[::1:1935/live/x", "--headless", "--duration", "1"], timeout: .seconds(30))
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains("an IPv6 address goes in brackets"))
    }
}
