import OnAirCore
import Testing

@Suite("Reconnect policy")
struct ReconnectPolicyTests {
    struct DelayRow: Sendable, CustomTestStringConvertible {
        let name: String
        let configuration: ReconnectPolicy.Configuration
        let jitterUnit: Double
        let delays: [Int64]
        var testDescription: String { name }
    }

    /// OBS `output_reconnect`: 2 s, then ×(1.5 + jitter·0.05) truncated to whole ms, capped.
    static let delayTable: [DelayRow] = [
        DelayRow(
            name: "OBS defaults without jitter grow by 1.5", configuration: .obsDefaults, jitterUnit: 0,
            delays: [2000, 3000, 4500, 6750, 10125, 15187, 22780, 34170, 51255, 76882]
        ),
        DelayRow(
            name: "the largest jitter grows by 1.55", configuration: .obsDefaults, jitterUnit: 1,
            delays: [2000, 3100, 4805, 7447, 11542, 17890, 27729, 42979, 66617, 103256]
        ),
        DelayRow(
            name: "delays stop at the cap",
            configuration: .init(maxDelay: .seconds(10)), jitterUnit: 0,
            delays: [2000, 3000, 4500, 6750, 10000, 10000, 10000]
        ),
        DelayRow(
            name: "OBS's 15-minute cap is reached on the 17th attempt", configuration: .obsDefaults, jitterUnit: 0,
            delays: [
                2000, 3000, 4500, 6750, 10125, 15187, 22780, 34170, 51255, 76882, 115323, 172984, 259476,
                389214, 583821, 875731, 900000, 900000, 900000, 900000,
            ]
        ),
    ]

    @Test("delays follow OBS's schedule", arguments: delayTable)
    func delays(_ row: DelayRow) {
        var policy = ReconnectPolicy(configuration: row.configuration, jitterUnit: row.jitterUnit)
        let delays = row.delays.indices.compactMap { _ in policy.nextAttempt()?.delay.wholeMilliseconds }
        #expect(delays == row.delays)
    }

    @Test("attempts are numbered from 1 and run out after maxAttempts", arguments: [0, 1, 3, 20])
    func attemptsRunOut(_ maxAttempts: Int) {
        var policy = ReconnectPolicy(configuration: .init(maxAttempts: maxAttempts), jitterUnit: 0)
        let numbers = (0..<maxAttempts).compactMap { _ in policy.nextAttempt()?.number }
        #expect(numbers == Array(1...max(1, maxAttempts)).prefix(maxAttempts).map { $0 })
        #expect(policy.isExhausted)
        #expect(policy.nextAttempt() == nil)
    }

    @Test("reset starts again from the first delay")
    func resetStartsOver() {
        var policy = ReconnectPolicy(configuration: .init(maxAttempts: 2), jitterUnit: 0)
        _ = policy.nextAttempt()
        _ = policy.nextAttempt()
        policy.reset()
        #expect(policy.nextAttempt() == ReconnectPolicy.Attempt(number: 1, delay: .seconds(2)))
    }

    @Test("the jitter is drawn once from the injected generator, within OBS's 0.05", arguments: [1, 42, 2026] as [UInt64])
    func jitterFromGenerator(_ seed: UInt64) {
        var first = SplitMix64(state: seed)
        var second = SplitMix64(state: seed)
        let a = ReconnectPolicy(using: &first)
        let b = ReconnectPolicy(using: &second)
        #expect(a.factor == b.factor)
        #expect(a.factor >= 1.5 && a.factor <= 1.55)
    }

    @Test("a jitter unit outside 0…1 is clamped", arguments: [(-3.0, 1.5), (7.0, 1.55)])
    func jitterClamped(_ unit: Double, _ factor: Double) {
        #expect(ReconnectPolicy(jitterUnit: unit).factor == factor)
    }
}
