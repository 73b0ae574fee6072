import ArgumentParser
import OnAirApp

struct ThemesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "themes",
        abstract: "List the console's colour themes with a sample swatch of each."
    )

    func run() async throws {
        try await runFrontEnd { throw FrontEndExit.notBuiltYet("themes", issue: 6) }
    }
}
