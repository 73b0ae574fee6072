import Foundation
import OnAirTestSupport
import Testing

/// Issue 28 (5): drops at the start of a broadcast showed as "dropped 6" with no line saying why. The
/// real binary, made late on purpose (4096×2304 at 120 fps: no machine encodes that in real time): the
/// publisher's event log says how many were dropped and why, within the first seconds.
@Suite("the event log says why frames were dropped")
struct DropNoticeTests {
    @Test("an encoder that cannot keep up: an engine line names the drops and the cause, and the figure agrees")
    func lateEncoderIsExplained() async throws {
        let directory = try TemporaryDirectory()
        let demo = try HeadlessRun(
            ["demo", "--headless", "--size", "4096x2304", "--fps", "120", "--record-dir", directory.file("rec").path, "--duration", "8"],
            in: directory)
        let line = await demo.waitFor { $0.side == "publisher" && $0.kind == "engine" && $0.text.hasPrefix("dropped ") }
        #expect(line?.text.hasSuffix("encoding ran late (busy CPU or start-up)") == true, "\(line?.text ?? "no drop line"): \(demo.peer.standardError)")
        #expect(await demo.peer.exitStatus(within: .seconds(60)) == 0, "\(demo.peer.standardError)")
        let stats = demo.events.events.filter { $0.side == "publisher" && $0.kind == "stats" }
        let said = Int(line?.text.split(separator: " ")[1] ?? "") ?? 0
        #expect(said > 0 && (stats.last?.details["dropped"] as? Int ?? 0) >= said, "the line says \(said), the figure \(stats.last?.details["dropped"] ?? "none")")
    }
}
