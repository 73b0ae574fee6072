import Foundation
import OnAirCore
import Testing
@testable import OnAirMedia

/// The real `ALSACapture` against a PCM that fails the way sound devices fail (issue 26, docs/devices.md):
/// an overrun and a suspend are recovered in place with `snd_pcm_recover`; an unplug ends the device,
/// and the engine carries on with silence and reopens it with a backoff until it is plugged back.
@Suite("ALSA device faults: xrun, suspend, unplug, through the fault-injecting ioplug PCM", .serialized)
struct ALSAFaultTests {
    @Test("an xrun (-EPIPE) and a suspend (-ESTRPIPE) are recovered by snd_pcm_recover, and capture goes on with the tone")
    func xrunAndSuspendRecover() throws {
        let pcm = try ALSAFaultPCM()
        let capture = try ALSACapture(device: ALSAFaultPCM.device, sampleRate: 48_000, channels: 2, configuration: pcm.configuration)
        for _ in 0..<5 { _ = try capture.read(frames: 1024) }
        #expect(capture.overruns == 0)
        try pcm.set("xrun 1")
        for _ in 0..<5 { _ = try capture.read(frames: 1024) }
        #expect(capture.overruns == 1, "the xrun was seen and recovered once")
        try pcm.set("suspend 1")
        var last = AudioChunk(sampleRate: 0, channels: 0, samples: [], captureNanoseconds: 0)
        for _ in 0..<5 { last = try capture.read(frames: 1024) }
        #expect(capture.overruns == 2, "the suspend was seen and recovered once")
        #expect(last.frameCount == 1024)
        #expect(last.samples.map { Int($0).magnitude }.max() ?? 0 > 4000, "still the tone after recovering")
    }

    @Test("an unplug (-ENODEV) ends the read with an error and opening fails as a missing microphone until it is plugged back")
    func unplugEndsTheDevice() throws {
        let pcm = try ALSAFaultPCM()
        let capture = try ALSACapture(device: ALSAFaultPCM.device, sampleRate: 48_000, channels: 2, configuration: pcm.configuration)
        _ = try capture.read(frames: 1024)
        try pcm.set("unplug")
        #expect(throws: (any Error).self) {
            for _ in 0..<50 { _ = try capture.read(frames: 1024) }
        }
        #expect(throws: MediaError.deviceMissing(.microphone, path: ALSAFaultPCM.device)) {
            try ALSACapture(device: ALSAFaultPCM.device, configuration: pcm.configuration)
        }
        try pcm.set("ok")
        let again = try ALSACapture(device: ALSAFaultPCM.device, sampleRate: 48_000, channels: 2, configuration: pcm.configuration)
        #expect(try again.read(frames: 1024).frameCount == 1024)
    }

    @Test("the engine rides out an unplugged microphone: silence keeps audio packets coming, reopens back off, the device returns")
    func engineReopensAfterUnplug() async throws {
        let pcm = try ALSAFaultPCM()
        var configuration = EngineTestSupport.configuration(video: nil, audio: .alsa(ALSAFaultPCM.device))
        configuration.alsaConfiguration = pcm.configuration
        let engine = try MediaEngine(configuration)
        try engine.start()
        defer { engine.stop() }
        let drain = Task { await EngineTestSupport.collect(engine) { _ in Task.isCancelled } }
        defer { drain.cancel() }
        #expect(await EngineTestSupport.eventually { engine.stats.audioPacketsEncoded >= 20 })
        try pcm.set("unplug")
        #expect(await EngineTestSupport.eventually { engine.devices[1].available == false })
        let lost = engine.devices[1]
        #expect(lost.reason?.isEmpty == false, "the loss says why: \(lost.reason ?? "nil")")
        #expect(lost.substitute == "silence")
        // The first reopen (after 1 s) fails while unplugged; the next is scheduled 2 s later, then 4, then 5.
        // The bound is the schedule's for the failures seen: a loaded machine may look only after the second
        // (seen in CI: failedReopens 2, the next in 2984 ms), which a fixed 2 s bound called a failure.
        #expect(await EngineTestSupport.eventually { engine.devices[1].failedReopens >= 1 })
        let retrying = engine.devices[1]
        var schedule = DeviceBackoff()
        for _ in 0..<retrying.failedReopens { _ = schedule.failed() }
        let bound = Int64(schedule.delay.components.seconds * 1000)
        #expect(retrying.retryInMilliseconds != nil && (retrying.retryInMilliseconds ?? .max) <= bound, "\(retrying), schedule \(bound) ms")
        let packetsWhileLost = engine.stats.audioPacketsEncoded
        #expect(await EngineTestSupport.eventually { engine.stats.audioPacketsEncoded >= packetsWhileLost + 20 }, "silence keeps the track flowing")
        try pcm.set("ok")
        #expect(await EngineTestSupport.eventually { engine.devices[1].available })
        let back = engine.stats.audioPacketsEncoded
        #expect(await EngineTestSupport.eventually { engine.stats.audioPacketsEncoded >= back + 20 })
        #expect(engine.stats.lastError == nil, "the track never failed: \(engine.stats.lastError ?? "")")
    }
}
