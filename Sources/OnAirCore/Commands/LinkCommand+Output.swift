/// A link command that names an output of several (issue 30): `link-down 2`, `link-cap 800k 2`. The link
/// stage stands in front of output 1 only (outputs 2…N connect straight to their servers), so on another
/// output the gate refuses it with that reason — the command is understood, and says why it does nothing,
/// rather than being an unknown line.
extension LinkCommand {
    /// The commands whose values are fixed in number, so a number after them can only be an output;
    /// `handoff [RATE [MS]]` takes a varying number of values and names no output.
    static let addressable: [String: Int] = ["link-down": 0, "link-up": 0, "link-uncap": 0, "link-cap": 1, "link-delay": 1]

    /// `line` as a link command and the output it names (1 when it names none); nil when it is not a link
    /// command. Throws as `parse` does for a bad value.
    public static func parseAddressed(_ line: String) throws(ParseError) -> (command: LinkCommand, output: Int)? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        if let name = words.first, let values = addressable[name], words.count == values + 2,
           let output = ServerCommand.outputNumber(words[values + 1]) {
            guard let command = try parse(words.dropLast().joined(separator: " ")) else { return nil }
            return (command, output)
        }
        return try parse(line).map { ($0, 1) }
    }

    /// Why the command does nothing on output `output` ≥ 2: there is no such output, or it has no link stage.
    static func refusal(output: Int, outputCount: Int, word: String) -> String {
        let count = max(1, outputCount)
        guard (1...count).contains(output) else {
            return count == 1 ? "no output \(output): this broadcast has one output (give more URLs to publish to several)"
                : "no output \(output): this broadcast has outputs 1…\(count)"
        }
        return "output \(output) has no link stage: it stands in front of output 1 only (\(word) without a number)"
    }
}
