import Foundation
import OnAirConsole
import OnAirTerminal
import Testing

/// The repository's `Themes/` folder, found from this file's path.
enum ThemeFiles {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Themes").path
}

@Suite("Theme catalog")
struct ThemeCatalogTests {
    let shipped = ["default", "high-contrast", "light", "monochrome"]

    @Test("each shipped theme loads without warnings and sets every role")
    func shippedThemesLoad() throws {
        let catalog = ThemeCatalog(directories: [ThemeFiles.directory])
        #expect(catalog.entries().map(\.name) == shipped)
        for name in shipped {
            let result = try catalog.load(name)
            #expect(result.warnings.isEmpty, "\(name): \(result.warnings)")
            #expect(result.theme.name == name)
            #expect(!result.theme.summary.isEmpty)
            #expect(Set(result.theme.overrides.keys) == Set(ThemeRole.allCases), "\(name) leaves roles to the default")
        }
    }

    @Test("default.theme is the built-in default written out")
    func defaultFileMatchesBuiltIn() throws {
        let file = try ThemeCatalog(directories: [ThemeFiles.directory]).load("default").theme
        for role in ThemeRole.allCases {
            #expect(file[role] == Theme.builtInDefault[role], "\(role)")
        }
    }

    @Test("an unknown theme is an error listing the themes found")
    func unknownTheme() throws {
        let catalog = ThemeCatalog(directories: [ThemeFiles.directory])
        do {
            _ = try catalog.load("solarized")
            Issue.record("loading an unknown theme succeeded")
        } catch {
            #expect(error.description.contains("unknown theme 'solarized'"))
            #expect(error.description.contains("default, high-contrast, light, monochrome"))
        }
    }

    @Test("a malformed file is reported as file:line; the first directory on the path wins")
    func searchOrderAndMalformed() throws {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("onair-themes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        try "liveBadge = \"green\"\n".write(to: temporary.appendingPathComponent("light.theme"), atomically: true, encoding: .utf8)
        try "# broken\nliveBadge = green\n".write(to: temporary.appendingPathComponent("broken.theme"), atomically: true, encoding: .utf8)
        let catalog = ThemeCatalog(directories: [temporary.path, ThemeFiles.directory])
        #expect(try catalog.load("light").theme[.liveBadge].foreground == .ansi(2))
        #expect(catalog.entries().map(\.name).contains("broken"))
        do {
            _ = try catalog.load("broken")
            Issue.record("a malformed theme loaded")
        } catch {
            #expect(error.description.hasSuffix("broken.theme:2: the value of 'liveBadge' must be in double quotes"))
        }
        #expect(try catalog.load(temporary.appendingPathComponent("light.theme").path).theme.name == "light")
    }

    @Test("the standard path reads $ONAIR_THEMES first, then ./Themes, then Themes/ above the executable")
    func standardPath() throws {
        let root = URL(fileURLWithPath: ThemeFiles.directory).deletingLastPathComponent().path
        let catalog = ThemeCatalog.standard(
            environment: ["ONAIR_THEMES": "/nonexistent:" + ThemeFiles.directory],
            currentDirectory: "/",
            executablePath: root + "/.build/debug/onair"
        )
        #expect(catalog.directories == [ThemeFiles.directory])
        let none = ThemeCatalog(directories: [])
        #expect(none.entries().map(\.name) == ["default"])
        #expect(try none.load("default").theme == .builtInDefault)
    }
}
