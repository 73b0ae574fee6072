@testable import OnAirNet
import OnAirCore
import OnAirRTMP
import Testing

/// What the app sees of `onMetaData`: AMF0's wire forms become plain metadata values.
@Suite struct AMF0ValueMetadataTests {
    @Test(arguments: [
        (AMF0Value.number(2.5), MetadataValue.number(2.5)),
        (.boolean(true), .bool(true)),
        (.string("Lavf\0"), .string("Lavf\0")),
        (.null, .null),
        (.undefined, .null),
        (.date(millisecondsSinceEpoch: 1_700_000_000_000, timeZone: 60), .number(1_700_000_000_000)),
        (.strictArray([.number(1), .undefined]), .array([.number(1), .null])),
        (.object(["a": .ecmaArray(["b": .boolean(false)])]), .object(["a": .object(["b": .bool(false)])])),
    ])
    func wireFormsBecomePlainValues(_ amf: AMF0Value, _ expected: MetadataValue) {
        #expect(amf.metadataValue == expected)
    }

    @Test func aRepeatedKeyKeepsItsLastValueAndOnlyObjectsHaveFields() {
        let repeated = AMF0Value.ecmaArray(["width": .number(1), "width": .number(2)])
        #expect(repeated.metadataFields == ["width": .number(2)])
        #expect(AMF0Value.string("not an object").metadataFields == [:])
    }
}
