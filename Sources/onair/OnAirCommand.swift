import ArgumentParser
import OnAirApp

/// `onair`: argument parsing and wiring only (docs/conventions.md §11). All behaviour lives in the library targets.
@main
struct OnAirCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "onair",
        abstract: "A terminal console that runs a live RTMP broadcast and rehearses phone-app interruptions.",
        discussion: """
            Keys stand in for a phone app's life (incoming call, decline, accept, Home, return, tap) and drive \
            the same engine and RTMP client a real broadcast uses. With no server, camera or microphone, \
            `onair demo` runs an embedded loopback relay with a synthetic test pattern and tone.
            """,
        version: OnAirVersion.current,
        subcommands: [
            DemoCommand.self,
            PublishCommand.self,
            SubscribeCommand.self,
            ServeCommand.self,
            ThemesCommand.self,
            PatternCommand.self,
        ],
        defaultSubcommand: nil
    )
}

/// Runs a front end and turns its outcome into a one-line message and an exit status.
func runFrontEnd(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let exit as FrontEndExit {
        FileDescriptorOutput.standardError.writeLine(exit.message)
        throw ExitCode(exit.code)
    }
}
