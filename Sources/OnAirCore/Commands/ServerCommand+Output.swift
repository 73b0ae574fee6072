/// A server command that names the destination whose server it acts on (issue 30): `server-stall 30s 2`,
/// `server-busy 8s 2`, `server-restart 3s 2`, `server-move 2`. With several outputs the demo runs an embedded
/// relay per destination it was not given a `--server` for; the number picks one. Without a number the
/// command acts on output 1's, as with one output.
extension ServerCommand {
    /// `line` as a server command and the output it names (1 when it names none); nil when the first word
    /// is not a server command. The output number comes last and only after a duration (`server-stall 2` is
    /// two seconds, as before outputs had numbers), except for `server-move`, which has no duration.
    public static func parseAddressed(_ line: String) throws(ParseError) -> (command: ServerCommand, output: Int)? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let name = words.first, ["server-restart", "server-busy", "server-stall", "server-move"].contains(name) else { return nil }
        let takes = name == "server-move" ? 1 : 2
        guard words.count == takes + 1, let output = outputNumber(words[takes]) else {
            guard let command = try parse(line) else { return nil }
            return (command, 1)
        }
        guard let command = try parse(words.dropLast().joined(separator: " ")) else { return nil }
        return (command, output)
    }

    /// ASCII digits only, at most 4 (as `reconnect N`): anything else is not an output number.
    static func outputNumber(_ word: String) -> Int? {
        guard (1...4).contains(word.count), word.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(word)
    }

    /// Why the command does nothing for output `output`, or nil: the output must be there, and its server
    /// must be one of the demo's embedded relays (`relayOutputs`), not a `--server` the demo cannot reach into.
    public func refusal(output: Int, outputCount: Int, relayOutputs: Set<Int>) -> String? {
        guard (1...max(1, outputCount)).contains(output) else {
            return outputCount <= 1 ? "\(word): no output \(output): this broadcast has one output (repeat --server to publish to several)"
                : "\(word): no output \(output): this broadcast has outputs 1…\(outputCount)"
        }
        guard relayOutputs.contains(output) else {
            return "\(word): output \(output) has no embedded relay (its server is one given with --server)"
        }
        return nil
    }
}
