import OnAirCore
import Testing

@Suite("NumberText: durations and rates with bounds")
struct NumberTextTests {
    @Test("units as scenario files write them, and bare seconds on the command line")
    func units() throws {
        #expect(NumberText.duration("500ms", bareNumbersAreSeconds: false, maximum: .seconds(60)) == .milliseconds(500))
        #expect(NumberText.duration("12s", bareNumbersAreSeconds: false, maximum: .seconds(60)) == .seconds(12))
        #expect(NumberText.duration("1m", bareNumbersAreSeconds: false, maximum: .seconds(60)) == .seconds(60))
        #expect(NumberText.duration("1.5s", bareNumbersAreSeconds: false, maximum: .seconds(60)) == .milliseconds(1500))
        #expect(NumberText.duration("2h", bareNumbersAreSeconds: false, maximum: .seconds(7200)) == .seconds(7200))
        #expect(NumberText.duration("15", bareNumbersAreSeconds: false, maximum: .seconds(60)) == nil)
        #expect(NumberText.duration("15", bareNumbersAreSeconds: true, maximum: .seconds(60)) == .seconds(15))
        #expect(NumberText.duration("2m", bareNumbersAreSeconds: false, maximum: .seconds(60)) == nil)
    }

    @Test("exponents, infinity, NaN, signs and huge values are refused, never trapped on", arguments: [
        "1e19", "1e300", "inf", "nan", "-1", "+5", "", "s", "1.2.3", "0x10", "99999999999999999999",
    ])
    func refused(text: String) {
        #expect(throws: NumberText.Invalid.self) {
            try NumberText.duration(text, option: "--idle-timeout", in: .zero ... .seconds(86_400))
        }
    }

    @Test("out of range says the range, in one line naming the option")
    func outOfRange() {
        do {
            _ = try NumberText.duration("2d", option: "--x", in: .milliseconds(1) ... .seconds(86_400))
            Issue.record("2d accepted")
        } catch {
            #expect(error.description == "--x: expected a duration from 1ms to 24h, such as 15 (seconds), 15s, 500ms or 2m")
        }
        do {
            _ = try NumberText.duration("25h", option: "--x", in: .milliseconds(1) ... .seconds(86_400))
            Issue.record("25h accepted")
        } catch {
            #expect(error.description == "--x: out of range; give 1ms to 24h")
        }
        #expect(throws: NumberText.Invalid.self) { try NumberText.rate("1e19", in: 1 ... 120) }
        #expect(throws: NumberText.Invalid.self) { try NumberText.rate("121", in: 1 ... 120) }
        #expect((try? NumberText.rate("29.97", in: 1 ... 120)) == 29.97)
    }
}
