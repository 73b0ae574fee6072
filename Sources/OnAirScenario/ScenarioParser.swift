import OnAirCore

/// Reads scenario files (README, "Scenario files"). One statement per line; blank lines and `#` comments
/// are skipped. Settings (`scenario`, `policy`, `type`, `requires`, `suspend-timeout`, `reconnect-delay`,
/// `stall-timeout`, `abr`, `bitrate`, `size`, `fps`, `video`) come first, then steps: `wait D`, `press COMMAND`, `expect …`.
///
/// The parser reads files that operators and CI hand it, so it refuses rather than guesses: every error
/// names the line and what would have been accepted, and nothing in the input can make it crash or grow
/// without bound (it is fuzzed, see `Fuzz/ScenarioParser`).
public enum ScenarioParser {
    /// Scenario files are a few hundred bytes; anything this large is the wrong file.
    public static let maximumBytes = 256 * 1024
    public static let maximumLineLength = 1000
    public static let maximumSteps = 5000
    /// The most a scenario's `wait`s may add up to: a rehearsal lasts minutes; 5000 × `wait 60m` (208 days)
    /// is a mistake or an attack, and is refused before anything starts (issue 29 item 7).
    public static let maximumTotalWait = Duration.seconds(6 * 3600)

    /// Parses `text`, read from `source` (a path, used in messages).
    public static func parse(_ text: String, source: String) throws(ScenarioParseError) -> Scenario {
        guard text.utf8.count <= maximumBytes else {
            throw ScenarioParseError(source: source, line: 0, message: "is larger than \(maximumBytes / 1024) KiB; is it really a scenario file?")
        }
        var scenario = Scenario(source: source, title: ControlText.escaped(fileName(source)))
        var sawStep = false
        var totalWait = Duration.zero
        var lineNumber = 0
        // "\r\n" is one Character in Swift: both line ends are separators.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            func fail(_ message: String) -> ScenarioParseError {
                ScenarioParseError(source: source, line: lineNumber, message: message)
            }
            // Counted in Unicode scalars and bytes, not Characters: 100 000 combining marks are one Character
            // (issue 29 item 7). The message never quotes the line.
            guard line.unicodeScalars.count <= maximumLineLength, line.utf8.count <= 4 * maximumLineLength else {
                throw fail("line longer than \(maximumLineLength) characters")
            }
            guard !line.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }) else {
                throw fail("control character in the line")
            }
            let tokens: [ScenarioLineTokenizer.Token]
            do {
                tokens = try ScenarioLineTokenizer.tokens(line)
            } catch {
                throw fail("a quoted text is not closed")
            }
            guard let first = tokens.first else { continue }
            guard !first.quoted else { throw fail("a line starts with a keyword, not a quoted text; \(keywordsHint)") }
            let keyword = first.text.lowercased()
            let rest = Array(tokens.dropFirst())
            if let setting = Setting(rawValue: keyword) {
                guard !sawStep else { throw fail("`\(keyword)` is a setting and must come before the first step") }
                do {
                    try apply(setting, rest, to: &scenario)
                } catch {
                    throw fail(error.message)
                }
                continue
            }
            let action: ScenarioStep.Action
            do {
                action = try step(keyword, rest, line: lineNumber, text: String(line))
            } catch {
                throw fail(error.message)
            }
            sawStep = true
            guard scenario.steps.count < maximumSteps else { throw fail("more than \(maximumSteps) steps") }
            if case .wait(let wait) = action {
                totalWait += wait
                guard totalWait <= maximumTotalWait else {
                    throw fail("the waits add up to more than \(maximumTotalWait.components.seconds / 3600) hours; a scenario rehearses minutes")
                }
            }
            scenario.steps.append(ScenarioStep(line: lineNumber, action: action))
        }
        guard sawStep else {
            throw ScenarioParseError(source: source, line: 0, message: "has no steps (wait, press, expect); \(keywordsHint)")
        }
        return scenario
    }

    struct Failure: Error {
        var message: String
    }

    enum Setting: String, CaseIterable {
        case scenario, policy, type, requires
        case suspendTimeout = "suspend-timeout"
        case reconnectDelay = "reconnect-delay"
        case stallTimeout = "stall-timeout"
        case abr, bitrate, size, fps, video, outputs
        case backgroundVideo = "background-video"
    }

    /// The highest `fps` a scenario may ask for.
    static let maximumFramesPerSecond = 120
    /// The most destinations a scenario may ask for (each further one is a relay and a connection).
    static let maximumOutputs = 4

    static let keywordsHint = "lines start with " +
        (Setting.allCases.map(\.rawValue) + ["wait", "press", "expect"]).joined(separator: ", ")

    private static func apply(_ setting: Setting, _ words: [ScenarioLineTokenizer.Token], to scenario: inout Scenario) throws(Failure) {
        if setting == .scenario {
            guard !words.isEmpty else { throw Failure(message: "`scenario` needs a title") }
            // Shown in the report, the console and logs: no control character from the file reaches them.
            scenario.title = ControlText.escaped(words.map(\.text).joined(separator: " "))
            return
        }
        guard words.count == 1, let word = words.first?.text else {
            throw Failure(message: "`\(setting.rawValue)` takes exactly one value")
        }
        switch setting {
        case .scenario:
            break
        case .policy:
            guard let policy = PublisherPolicyKind(rawValue: word.lowercased()) else {
                throw Failure(message: "unknown policy '\(word)'; policies: \(PublisherPolicyKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            scenario.settings.policy = policy
        case .type:
            guard let type = PublishType(rawValue: word.lowercased()) else {
                throw Failure(message: "unknown publish type '\(word)'; types: live, record, append")
            }
            scenario.settings.publishType = type
        case .requires:
            guard let requirement = ScenarioRequirement(rawValue: word.lowercased()) else {
                throw Failure(message: "unknown requirement '\(word)'; requirements: \(ScenarioRequirement.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            scenario.settings.requirements.insert(requirement)
        case .suspendTimeout:
            scenario.settings.suspendTimeout = try duration(word)
        case .reconnectDelay:
            scenario.settings.reconnectDelay = try duration(word)
        case .stallTimeout:
            scenario.settings.stallTimeout = try duration(word)
        case .abr:
            guard let mode = AdaptiveBitrateConfiguration.Mode(rawValue: word.lowercased()) else {
                throw Failure(message: "unknown abr mode '\(word)'; modes: \(AdaptiveBitrateConfiguration.Mode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            scenario.settings.abr = mode
        case .bitrate:
            // The encoder's limit (`--bitrate`): below 1 Gbit/s.
            guard let bitrate = try? LinkCommand.rate(word), bitrate < 1_000_000_000 else {
                throw Failure(message: "'\(word)' is not a bitrate between 8k and 1G bit/s; write it like 2500k or 2.5M")
            }
            scenario.settings.bitrate = bitrate
        case .size:
            guard let size = ScenarioPictureSize(word) else {
                throw Failure(message: "'\(word)' is not a picture size; write WIDTHxHEIGHT with even sides from 16 to 4096, e.g. 1280x720")
            }
            scenario.settings.size = size
        case .fps:
            guard word.count <= 3, let rate = Int(word), (1...maximumFramesPerSecond).contains(rate) else {
                throw Failure(message: "'\(word)' is not a frame rate; write a whole number from 1 to \(maximumFramesPerSecond), e.g. fps 30")
            }
            scenario.settings.framesPerSecond = rate
        case .video:
            guard let video = ScenarioVideo(rawValue: word.lowercased()) else {
                throw Failure(message: "unknown video '\(word)'; scenarios use \(ScenarioVideo.allCases.map(\.rawValue).joined(separator: " or "))")
            }
            scenario.settings.video = video
        case .outputs:
            guard word.count == 1, let count = Int(word), (1...maximumOutputs).contains(count) else {
                throw Failure(message: "'\(word)' is not a number of destinations; write a whole number from 1 to \(maximumOutputs), e.g. outputs 2")
            }
            scenario.settings.outputs = count
        case .backgroundVideo:
            guard let mode = BackgroundVideo(rawValue: word.lowercased()) else {
                throw Failure(message: "unknown background video '\(word)'; write \(BackgroundVideo.allCases.map(\.rawValue).joined(separator: " or "))")
            }
            scenario.settings.backgroundVideo = mode
        }
    }

    private static func step(_ keyword: String, _ words: [ScenarioLineTokenizer.Token], line: Int, text: String) throws(Failure) -> ScenarioStep.Action {
        switch keyword {
        case "wait":
            guard words.count == 1 else { throw Failure(message: "`wait` takes one duration, e.g. `wait 2s`") }
            return .wait(try duration(words[0].text))
        case "press":
            // The longest command is four words: `sub handoff 300k 120`.
            guard !words.isEmpty, words.count <= 4 else {
                throw Failure(message: "`press` takes a command, e.g. `press call`, `press sub home` or `press link-cap 800k`")
            }
            let typed = words.map(\.text).joined(separator: " ").lowercased()
            if let problem = OperatorCommand.linkError(in: typed) { throw Failure(message: "`press \(typed)`: \(problem)") }
            guard let command = OperatorCommand(typed), command != .quit else {
                throw Failure(message: "unknown command '\(typed)' for `press`; commands: \(OperatorCommand.names.filter { $0 != "quit" }.joined(separator: ", "))")
            }
            return .press(command, typed: typed)
        case "expect":
            return .expect(try ScenarioExpectationParser.parse(words, line: line, text: String(text.trimmingBlanks)))
        default:
            throw Failure(message: "unknown statement '\(keyword)'; \(keywordsHint)")
        }
    }


    static func duration(_ text: String) throws(Failure) -> Duration {
        guard let duration = ScenarioDurationText.parse(text) else {
            throw Failure(message: "'\(text)' is not a duration; write e.g. 2s, 1.5s or 500ms (at most 60m)")
        }
        return duration
    }

    private static func fileName(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }
}

extension StringProtocol {
    /// The text without leading and trailing blanks (spaces and tabs).
    var trimmingBlanks: SubSequence {
        let blanks: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !blanks($0) }), let end = lastIndex(where: { !blanks($0) }) else { return self[endIndex...] }
        return self[start...end]
    }
}
