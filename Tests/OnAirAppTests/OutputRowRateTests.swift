@testable import OnAirControl
import Testing

/// The dashboard rows' sent rate (`OutputGroup+Rows`): bytes between two samples over the time between them.
@Suite("output rows: the sent rate")
struct OutputRowRateTests {
    @Test("bits per second between two byte counts; 0 for no time or a count gone back; no overflow")
    func rate() {
        #expect(OutputGroup.rate(from: 1_000, to: 313_500, milliseconds: 1_000) == 2_500_000)
        #expect(OutputGroup.rate(from: 0, to: 156_250, milliseconds: 500) == 2_500_000)
        #expect(OutputGroup.rate(from: 0, to: 1_000, milliseconds: 0) == 0)
        #expect(OutputGroup.rate(from: 5_000, to: 1_000, milliseconds: 1_000) == 0)
        #expect(OutputGroup.rate(from: 0, to: .max, milliseconds: 1_000) == .max)
    }
}
