import Foundation
import OnAirTestSupport
import Testing

/// Issue 23, item 4, on the real kernel path: `onair publish --abr throughput` (720p-class bitrate, 640x360
/// grain to keep the encoder light) straight to nginx-rtmp — plain rtmp:// and rtmps:// through an nginx TLS
/// proxy — through a netns + veth + `tc tbf` cap of 800 kbit/s. Once the probes have backed off (three have
/// failed), the cap is lifted the moment the next one fails: the worst moment, when the next probe may only
/// come 20 s later. The target must be back to 90 % of 2500k; the seconds it took are printed
/// ("kernel lift: …") and held to the 15 s aim with room for a loaded machine.
///
/// Needs root (namespaces, tc): skipped otherwise. Real time: run it in the Makefile's serial phase.
@Suite("ABR finds a lifted kernel cap right after a failed probe (netns + veth + tbf, nginx-rtmp)", .serialized, .enabled(if: KernelLink.isAvailable))
struct KernelLinkLiftTests {
    static let cap = 800_000
    static let bitrate = 2_500_000

    @Test("--abr throughput, cap lifted right after a failed probe: back to 90 % of 2500k", arguments: ["rtmp", "rtmps"])
    func liftRightAfterFailedProbe(scheme: String) async throws {
        let directory = try TemporaryDirectory(prefix: "onair-kernel-lift")
        let link = try KernelLink(capBitsPerSecond: Self.cap)
        let nginx = try NginxRTMPServer(everyAddress: true)
        defer { nginx.stop() }
        var url = "rtmp://\(link.serverAddress):\(nginx.port)/live/lift"
        var extra = ["--direct"]
        var proxy: NginxTLSProxy?
        if scheme == "rtmps" {
            let authority = try TestCertificateAuthority(name: "OnAir Kernel Lift CA", in: directory)
            let tls = try NginxTLSProxy(
                forwardingTo: nginx.port, certificate: try authority.issueServerCertificate(ipAddresses: ["127.0.0.1", link.serverAddress]),
                alsoListeningOn: [link.serverAddress])
            proxy = tls
            url = tls.url(host: link.serverAddress, stream: "lift")
            extra = ["--ca-file", authority.certificateFile.path]
        }
        let publisher = try HeadlessRun(
            ["publish", url, "--headless", "--video", "grain", "--audio", "test", "--size", "640x360", "--bitrate", "2500k",
             "--abr", "throughput", "--duration", "240"] + extra,
            in: directory, launcher: link.command([]))
        defer { _ = publisher.peer.stop(signal: SIGKILL) }

        // The cap's own step down, then three failed probes (the backoff at its longest), then the next one.
        let failure = await publisher.waitForStepDown(number: 5, within: .seconds(180))
        let failed = try #require(failure, "no fifth step down under the cap: \(publisher.abrLog()) \(publisher.peer.standardError.suffix(2000))")
        try link.cap(nil)
        let lifted = publisher.events.events.last?.time ?? failed.time
        let back = await publisher.waitForRecovery(to: Self.bitrate, after: failed)
        let (recovered, seconds) = try #require(back, "never back to 90 % of 2500k: \(publisher.abrLog())")
        print("kernel lift (\(scheme)): failed probe at \(failed.time) ms, lifted by \(lifted) ms, back to \(recovered.details["new"] ?? "?") \(seconds) s after the failed probe; abr: \(publisher.abrLog(since: failed.time - 30_000))")
        // The aim is 15 s; a loaded machine's encoder takes longer to reach each target.
        #expect(seconds <= 30, "back to 90 % only \(seconds) s after the lift")
        #expect(publisher.events.malformed.isEmpty, "lines outside the schema: \(publisher.events.malformed)")
        withExtendedLifetime(proxy) {}
    }

    /// The other half of item 4 on the real link: a steady 800 kbit/s cap, bursts and all. Converged: the first
    /// step down 20 s or more after the one before (the backoff has grown to its longest; the first failed
    /// probes are 6 and 12 s apart plus a climb, by design). From there for 90 s: every step down at least
    /// 20 s after the one before, and the engine's queue drops nothing.
    @Test("--abr throughput, steady 800k kernel cap for 90 s after convergence: failed probes ≥ 20 s apart, no congestion drop")
    func steadyCap() async throws {
        let directory = try TemporaryDirectory(prefix: "onair-kernel-steady")
        let link = try KernelLink(capBitsPerSecond: Self.cap)
        let nginx = try NginxRTMPServer(everyAddress: true)
        defer { nginx.stop() }
        let publisher = try HeadlessRun(
            ["publish", "rtmp://\(link.serverAddress):\(nginx.port)/live/steady", "--direct", "--headless", "--video", "grain",
             "--audio", "test", "--size", "640x360", "--bitrate", "2500k", "--abr", "throughput", "--duration", "320"],
            in: directory, launcher: link.command([]))
        defer { _ = publisher.peer.stop(signal: SIGKILL) }
        var first: HeadlessRun.Event?
        let deadline = ContinuousClock.now + .seconds(200)
        while first == nil, ContinuousClock.now < deadline, publisher.peer.isRunning {
            let downs = publisher.stepDowns
            first = zip(downs, downs.dropFirst()).first { $1.time - $0.time >= 20_000 }?.1
            try? await Task.sleep(for: .milliseconds(100))
        }
        let converged = try #require(first, "no step down 20 s after the one before: \(publisher.abrLog())")
        let end = converged.time + 90_000
        let last = await publisher.waitFor(.seconds(180)) { $0.kind == "stats" && $0.side == "publisher" && $0.time > end }
        _ = try #require(last, "the run ended before 90 s after convergence: \(publisher.peer.standardError.suffix(2000))")
        let downs = publisher.events.events.filter {
            $0.kind == "abr" && $0.time >= converged.time && $0.time <= end
                && ($0.details["newBitrate"] as? Int ?? 0) < ($0.details["oldBitrate"] as? Int ?? 0)
        }.map(\.time)
        let gaps = zip(downs, downs.dropFirst()).map { Double($1 - $0) / 1000 }
        let stats = publisher.events.events.filter { $0.kind == "stats" && $0.side == "publisher" }
        func drops(at time: Int64) -> Int {
            stats.last { $0.time <= time }?.details["droppedVideoPackets"] as? Int ?? 0
        }
        #expect(stats.contains { $0.details["droppedVideoPackets"] is Int }, "no droppedVideoPackets in the publisher's stats")
        let dropped = drops(at: end) - drops(at: converged.time)
        print("kernel steady cap: step downs at \(downs.map { $0 / 100 }) ds, gaps \(gaps) s, video packets dropped after convergence \(dropped)")
        #expect(gaps.allSatisfy { $0 >= 20 }, "two step downs within 20 s: \(publisher.abrLog(since: converged.time))")
        #expect(dropped == 0, "the queue dropped \(dropped) video packets after convergence")
        #expect(publisher.events.malformed.isEmpty, "lines outside the schema: \(publisher.events.malformed)")
    }
}
