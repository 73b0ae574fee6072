import ArgumentParser
import Foundation

extension OnAirCommand {
    /// ArgumentParser's own `main`, except that a usage error is one line on stderr and exit status 2
    /// (as for every other usage error, README "Exit status"), not its usage block and status 64 (EX_USAGE).
    static func main() async {
        let parsed: any ParsableCommand
        do {
            parsed = try parseAsRoot()
        } catch {
            let code = exitCode(for: error)
            guard code == .validationFailure else { exit(withError: error) }
            FileDescriptorOutput.standardError.writeLine(usageLine(for: error))
            Foundation.exit(2)
        }
        do {
            var command = parsed
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            // ArgumentParser's own errors here (`onair help …`, a ValidationError from a key file) are usage
            // errors or clean exits; anything else thrown while running is a failure (ArgumentParser would say 64).
            let fromParser = error is ValidationError || String(reflecting: type(of: error)).hasPrefix("ArgumentParser.")
            guard exitCode(for: error) == .validationFailure else { Self.exit(withError: error) }
            FileDescriptorOutput.standardError.writeLine(fromParser ? usageLine(for: error) : "onair: \(oneLine(message(for: error)))")
            Foundation.exit(fromParser ? 2 : 1)
        }
    }

    /// `onair SUBCOMMAND: what was wrong (see onair SUBCOMMAND --help)`.
    static func usageLine(for error: any Error) -> String {
        let known = configuration.subcommands.map { $0.configuration.commandName ?? "" }
        let command = (["onair"] + CommandLine.arguments.dropFirst().prefix(1).filter { known.contains($0) }).joined(separator: " ")
        return "\(command): \(oneLine(message(for: error))) (see \(command) --help)"
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "; ")
    }
}
