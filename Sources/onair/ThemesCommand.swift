import ArgumentParser
import OnAirApp

struct ThemesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "themes",
        abstract: "List the console's colour themes with a sample swatch of each.",
        discussion: """
            Themes are looked up in each directory of $ONAIR_THEMES, then ./Themes, then Themes/ next to \
            the executable and its parents. Colours are shown when stdout is a terminal (and NO_COLOR is unset).
            """
    )

    func run() async throws {
        ThemesListing.run()
    }
}
