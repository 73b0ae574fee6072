import OnAirCore
import Testing

/// ABR with several outputs and one encode: the lowest target of the healthy outputs, a down output left
/// out at once, one stuck at the floor after 10 s (docs/multi-destination.md, "ABR").
@Suite("output rate decision: one encode at the slowest healthy output")
struct OutputRateDecisionTests {
    static let top = AdaptiveBitrateTarget(videoBitrate: 2_500_000, framesPerSecond: 30)
    static func target(_ bitrate: Int, fps: Double = 30, audioOnly: Bool = false) -> AdaptiveBitrateTarget {
        AdaptiveBitrateTarget(videoBitrate: bitrate, framesPerSecond: fps, audioOnly: audioOnly)
    }
    static func at(_ seconds: Int64) -> SessionTime { SessionTime(milliseconds: seconds * 1000) }
    static func vote(_ output: Int, _ target: AdaptiveBitrateTarget, live: Bool = true) -> OutputRateDecision.Vote {
        .init(output: output, target: target, live: live)
    }

    @Test("the encoder follows the lowest target of the live outputs")
    func lowestHealthy() {
        var decision = OutputRateDecision(top: Self.top, floor: 250_000)
        let chosen = decision.decide([Self.vote(1, Self.top), Self.vote(2, Self.target(800_000)), Self.vote(3, Self.target(1_200_000))], at: Self.at(0))
        #expect(chosen.target == Self.target(800_000))
        #expect(chosen.counted == [1, 2, 3] && chosen.excluded.isEmpty)
    }

    @Test("a down output counts for nothing at once; with every output down the encoder keeps the top")
    func downIsExcluded() {
        var decision = OutputRateDecision(top: Self.top, floor: 250_000)
        let chosen = decision.decide([Self.vote(1, Self.top), Self.vote(2, Self.target(300_000), live: false)], at: Self.at(0))
        #expect(chosen.target == Self.top && chosen.excluded == [2: "down"])
        #expect(decision.decide([Self.vote(1, Self.target(500_000), live: false)], at: Self.at(1)).target == Self.top)
    }

    @Test("an output at the floor holds the others down for 10 s, then is left out; off the floor it counts again")
    func floorIsExcludedAfterTenSeconds() {
        var decision = OutputRateDecision(top: Self.top, floor: 250_000)
        let floor = Self.target(250_000, fps: 15)
        let good = Self.target(2_000_000)
        #expect(decision.decide([Self.vote(1, good), Self.vote(2, floor)], at: Self.at(0)).target == floor)
        #expect(decision.decide([Self.vote(1, good), Self.vote(2, floor)], at: Self.at(9)).target == floor)
        let after = decision.decide([Self.vote(1, good), Self.vote(2, Self.target(0, audioOnly: true))], at: Self.at(10))
        #expect(after.target == good && after.excluded == [2: "at the floor for 10 s"] && after.counted == [1])
        #expect(decision.decide([Self.vote(1, good), Self.vote(2, Self.target(600_000))], at: Self.at(20)).target == Self.target(600_000))
    }

    @Test("audio-only ranks below any video, and a lower frame rate below the same bitrate")
    func ranking() {
        var decision = OutputRateDecision(top: Self.top, floor: 100_000)
        let audio = Self.target(900_000, audioOnly: true)
        #expect(decision.decide([Self.vote(1, Self.target(300_000)), Self.vote(2, audio)], at: Self.at(0)).target == audio)
        let slower = Self.target(300_000, fps: 15)
        #expect(decision.decide([Self.vote(1, Self.target(300_000)), Self.vote(2, slower)], at: Self.at(1)).target == slower)
    }
}
