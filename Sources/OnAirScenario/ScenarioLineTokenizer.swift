/// Splits one scenario line into words: blanks separate words, `"…"` or `'…'` make one word of text with
/// blanks in it, and `#` outside quotes starts a comment.
enum ScenarioLineTokenizer {
    struct Token: Equatable {
        var text: String
        /// True for a quoted word: it is text, never a keyword.
        var quoted: Bool
    }

    enum Failure: Error, Equatable {
        case unterminatedQuote(Character)
    }

    static func tokens(_ line: Substring) throws(Failure) -> [Token] {
        var tokens: [Token] = []
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if character == " " || character == "\t" {
                index = line.index(after: index)
            } else if character == "#" {
                break
            } else if character == "\"" || character == "'" {
                let start = line.index(after: index)
                guard let end = line[start...].firstIndex(of: character) else { throw .unterminatedQuote(character) }
                tokens.append(Token(text: String(line[start..<end]), quoted: true))
                index = line.index(after: end)
            } else {
                let end = line[index...].firstIndex { $0 == " " || $0 == "\t" } ?? line.endIndex
                tokens.append(Token(text: String(line[index..<end]), quoted: false))
                index = end
            }
        }
        return tokens
    }
}
