import Foundation
@testable import OnAirRelay
import Testing

@Suite("Relay stream names")
struct RelayStreamNameTests {
    @Test("letters, digits, '-', '_' and '.' up to 128 characters are accepted", arguments: [
        "stream1", "a", "Cam-2_main.hd", String(repeating: "x", count: 128), "...x", ".hidden",
    ])
    func acceptsAllowedNames(_ name: String) throws {
        #expect(try RelayStreamName(name).value == name)
    }

    @Test("path traversal, separators, empty, dot names, control characters and long names are refused", arguments: [
        ("../x", RelayStreamName.Error.forbiddenCharacter("/")),
        ("/etc/passwd", .forbiddenCharacter("/")),
        ("a\\b", .forbiddenCharacter("\\")),
        ("", .empty),
        (".", .dotName),
        ("..", .dotName),
        ("line\nbreak", .forbiddenCharacter("\n")),
        ("nul\u{0}", .forbiddenCharacter("\u{0}")),
        ("tab\there", .forbiddenCharacter("\t")),
        ("space here", .forbiddenCharacter(" ")),
        ("caf\u{E9}", .forbiddenCharacter("\u{E9}")),
        (String(repeating: "x", count: 129), .tooLong(129)),
    ])
    func refusesBadNames(_ name: String, _ expected: RelayStreamName.Error) {
        #expect(throws: expected) { try RelayStreamName(name) }
    }

    @Test("the query after '?' is split off before the check and parsed")
    func splitsQuery() throws {
        let (name, query) = try RelayStreamName.parse("stream1?key=s3cret&x")
        #expect(name.value == "stream1")
        #expect(query == ["key": "s3cret", "x": ""])
        #expect(throws: RelayStreamName.Error.forbiddenCharacter("/")) { try RelayStreamName.parse("../etc?key=1") }
    }

    @Test("the application is part of the identity; live keeps bare names and files, others get app/ prefixes")
    func applications() throws {
        let live = try RelayStreamName("x")
        let one = try RelayStreamName("x", application: "app1")
        #expect(live != one)
        #expect(try RelayStreamName("x", application: "app2") != one)
        #expect(live.qualified == "x" && one.qualified == "app1/x")
        #expect(try RelayStreamName("x", application: "live/sub").qualified == "live/sub/x")
        let directory = URL(fileURLWithPath: "/rec")
        #expect(live.recordingURL(in: directory).path == "/rec/x.flv")
        #expect(one.recordingURL(in: directory).path == "/rec/app1/x.flv")
        #expect(RelayStreamName.application(fromConnect: "live?key=K") == "live")
        #expect(RelayStreamName.application(fromConnect: "/app1/") == "app1")
        #expect(RelayStreamName.application(fromConnect: "") == "live")
        for bad in ["..", "a/../b", "a//b", "\u{1B}x"] {
            #expect(throws: RelayStreamName.Error.self) { try RelayStreamName("x", application: bad) }
        }
    }
}
