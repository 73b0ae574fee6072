/// Reads the console's theme files: btop-style `role = "value"` lines.
///
/// ```
/// # comments start with '#'
/// description = "dark, for 256-colour terminals"
/// liveBadge   = "bold white on #c00000"
/// logRTMP     = "color114"
/// ```
/// A value is words: attributes (`bold dim italic underline reverse`), a foreground colour, and
/// `on <colour>` for the background. Colours: `default`, the eight ANSI names, `bright-<name>`,
/// `grey`, `#rrggbb`, `colorN` (0–255).
///
/// Written by hand rather than with a TOML or YAML library because those crash on malformed input
/// (docs/platform-notes.md, "Fuzzing"): this parser takes any bytes and returns a theme, or a `Failure`
/// naming the file and line. It never traps; a fuzz-style test and `make fuzz` hold it to that.
public struct ThemeParser: Sendable {
    /// A theme file that cannot be used, as `file:line: what is wrong`.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var message: String
        public init(file: String, line: Int, message: String) {
            self.file = file
            self.line = line
            self.message = message
        }
        public var description: String { "\(file):\(line): \(message)" }
    }

    /// Something ignored in a theme file that still loaded (an unknown role, a repeated role).
    public struct Warning: Sendable, Equatable, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var message: String
        public init(file: String, line: Int, message: String) {
            self.file = file
            self.line = line
            self.message = message
        }
        public var description: String { "\(file):\(line): warning: \(message)" }
    }

    /// A parsed theme and what was ignored on the way.
    public struct Result: Sendable, Equatable {
        public var theme: Theme
        public var warnings: [Warning]

        public init(theme: Theme, warnings: [Warning]) {
            self.theme = theme
            self.warnings = warnings
        }
    }

    /// Keys that describe the theme rather than colour a role.
    static let metadataKeys: Set<String> = ["description", "name"]

    /// Longest line accepted: theme lines are short, and a bound keeps hostile input cheap.
    static let maximumLineLength = 4096

    public init() {}

    /// Parses a theme file's bytes. `file` is used in messages; `name` becomes the theme's name.
    public func parse(_ bytes: some Collection<UInt8>, file: String, name: String) throws(Failure) -> Result {
        var theme = Theme(name: name)
        var warnings: [Warning] = []
        var seen: [ThemeRole: Int] = [:]
        var lineNumber = 0
        for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            func fail(_ message: String) -> Failure { Failure(file: file, line: lineNumber, message: message) }
            guard rawLine.count <= Self.maximumLineLength else {
                throw fail("line is longer than \(Self.maximumLineLength) bytes")
            }
            guard var line = String(validating: rawLine, as: UTF8.self) else { throw fail("not valid UTF-8") }
            if lineNumber == 1, line.hasPrefix("\u{FEFF}") { line.removeFirst() }
            guard let (key, value) = try Self.splitAssignment(line, fail: fail) else { continue }
            if Self.metadataKeys.contains(key) {
                if key == "description" { theme.summary = value }
                continue
            }
            guard let role = ThemeRole(rawValue: key) else {
                warnings.append(Warning(file: file, line: lineNumber, message: "unknown role '\(key)' ignored"))
                continue
            }
            let style: Style
            do { style = try Self.parseStyle(value) } catch { throw fail("\(role.rawValue): \(error.message)") }
            if let earlier = seen[role] {
                warnings.append(Warning(file: file, line: lineNumber, message: "'\(key)' already set on line \(earlier); this line wins"))
            }
            seen[role] = lineNumber
            theme[role] = style
        }
        return Result(theme: theme, warnings: warnings)
    }

    /// `key = "value"  # comment` → (key, value); nil for a blank or comment line.
    static func splitAssignment(_ line: String, fail: (String) -> Failure) throws(Failure) -> (String, String)? {
        let scalars = Array(line.unicodeScalars)
        var index = 0
        func skipSpaces() { while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" || scalars[index] == "\r" { index += 1 } }
        skipSpaces()
        if index == scalars.count || scalars[index] == "#" { return nil }
        var key = ""
        while index < scalars.count, Self.isKeyScalar(scalars[index]) {
            key.unicodeScalars.append(scalars[index])
            index += 1
        }
        guard !key.isEmpty else { throw fail("expected a role name, found '\(Self.describe(scalars[index]))'") }
        skipSpaces()
        guard index < scalars.count, scalars[index] == "=" else { throw fail("expected '=' after '\(key)'") }
        index += 1
        skipSpaces()
        guard index < scalars.count, scalars[index] == "\"" else { throw fail("the value of '\(key)' must be in double quotes") }
        index += 1
        var value = ""
        while index < scalars.count, scalars[index] != "\"" {
            value.unicodeScalars.append(scalars[index])
            index += 1
        }
        guard index < scalars.count else { throw fail("missing closing quote in the value of '\(key)'") }
        index += 1
        skipSpaces()
        guard index == scalars.count || scalars[index] == "#" else {
            throw fail("unexpected '\(Self.describe(scalars[index]))' after the value of '\(key)'")
        }
        return (key, value)
    }

    private static func isKeyScalar(_ s: Unicode.Scalar) -> Bool {
        switch s {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".": true
        default: false
        }
    }

    /// Control characters are named, not printed, so an error message cannot upset the terminal.
    private static func describe(_ s: Unicode.Scalar) -> String {
        s.value < 0x20 || s.value == 0x7F ? "\\u{\(String(s.value, radix: 16))}" : String(s)
    }

    struct StyleError: Error {
        var message: String
    }

    /// `bold white on #c00000` → a style.
    static func parseStyle(_ value: String) throws(StyleError) -> Style {
        let words = value.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard !words.isEmpty else { throw StyleError(message: "empty style (use \"default\")") }
        var style = Style()
        var foreground: TerminalColor?
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            if let attribute = TextAttributes.named.first(where: { $0.0 == word })?.1 {
                style.attributes.insert(attribute)
            } else if word == "on" {
                guard index < words.count else { throw StyleError(message: "'on' must be followed by a background colour") }
                style.background = try parseColor(words[index])
                index += 1
            } else if word == "normal" || word == "plain" {
                continue
            } else {
                guard foreground == nil else {
                    throw StyleError(message: "two foreground colours ('\(foreground!)' and '\(Self.printable(word))'); write 'on' before a background")
                }
                foreground = try parseColor(word)
            }
        }
        style.foreground = foreground ?? .default
        return style
    }

    /// One colour word.
    static func parseColor(_ word: String) throws(StyleError) -> TerminalColor {
        if word == "default" { return .default }
        if let index = TerminalColor.ansiNames.firstIndex(of: word) { return .ansi(UInt8(index)) }
        if word == "grey" || word == "gray" { return .ansi(8) }
        for prefix in ["bright-", "bright"] where word.hasPrefix(prefix) {
            if let index = TerminalColor.ansiNames.firstIndex(of: String(word.dropFirst(prefix.count))) {
                return .ansi(UInt8(index + 8))
            }
        }
        if word.hasPrefix("#") {
            let digits = Array(word.dropFirst().utf8)
            guard digits.count == 6, let value = UInt32(String(decoding: digits, as: UTF8.self), radix: 16) else {
                throw StyleError(message: "'\(printable(word))' is not a #rrggbb colour")
            }
            return .rgb(UInt8(value >> 16), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF))
        }
        if word.hasPrefix("color") {
            let digits = word.dropFirst(5)
            guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits) else {
                throw StyleError(message: "'\(printable(word))' is not colorN with N from 0 to 255")
            }
            guard number <= 255 else { throw StyleError(message: "colour \(number) is out of range 0–255") }
            return .indexed(UInt8(number))
        }
        throw StyleError(
            message: "unknown word '\(printable(word))' (expected an attribute, a colour name, bright-<name>, #rrggbb, colorN or 'on')"
        )
    }

    /// A word cut short and stripped of control characters, for messages.
    static func printable(_ word: String) -> String {
        let cleaned = String(String.UnicodeScalarView(word.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
        return DisplayWidth.truncate(cleaned, to: 40)
    }
}
