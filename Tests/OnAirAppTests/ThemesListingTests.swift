import Foundation
import OnAirApp
import OnAirConsole
import OnAirTerminal
import Testing

@Suite("onair themes")
struct ThemesListingTests {
    static let themes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Themes").path

    @Test("piped, the real binary lists the shipped themes in plain text with the search path")
    func binaryListsThemes() throws {
        let result = try OnAirBinary.run(["themes"])
        #expect(result.status == 0)
        for name in ["default", "high-contrast", "light", "monochrome"] {
            #expect(result.standardOutput.contains("\n\(name) ") || result.standardOutput.hasPrefix("\(name) "), "\(name) missing")
        }
        #expect(result.standardOutput.contains(" PUBLISHING "))
        #expect(result.standardOutput.contains("searched: "))
        #expect(!result.standardOutput.contains("\u{1B}["), "escape codes in piped output")
    }

    @Test("a broken theme file is listed with its file:line error; the others still list")
    func brokenThemeIsListed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onair-listing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "toast = \"purple\"\n".write(to: directory.appendingPathComponent("broken.theme"), atomically: true, encoding: .utf8)
        let text = ThemesListing.text(catalog: ThemeCatalog(directories: [directory.path, Self.themes]), ansi: true)
        #expect(text.contains("broken.theme:1: toast: unknown word 'purple'"))
        #expect(text.contains("\u{1B}[0;1;97;41m PUBLISHING "))
        #expect(text.contains("high-contrast"))
    }
}
