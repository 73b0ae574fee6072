/// Everything the operator can ask, in one vocabulary: a console key (through `KeyMap`), a line typed on
/// stdin in headless mode and a scenario's `press` all become one of these, and one rule
/// (`refusal(in:)`) says whether it does something now (README, "Headless commands").
public enum OperatorCommand: Sendable, Hashable {
    /// A phone gesture: `call`, `siri`, `decline`, `accept`, `home`, `return`, `tap`.
    case phone(OperatorAction)
    /// A publisher control: `pause-video`, `pause-audio`, `next-policy`, `stop`, `start`.
    case publisher(PublisherControl)
    /// A subscriber control: `play`, `stop-play`.
    case subscriber(SubscriberControl)
    /// In `onair demo`, a phone gesture on the subscriber's phone: `sub home`, `sub return`, …
    /// (plain gestures go to the publisher there; in `onair subscribe` they go to the subscriber).
    case subscriberPhone(OperatorAction)
    /// In `onair demo`, a link command on the subscriber's own stage: `sub link-down`, `sub handoff`, …
    case subscriberLink(LinkCommand)
    /// A network interruption on the publisher's link stage: `link-down`, `link-up`, `handoff [RATE [MS]]`,
    /// `link-cap RATE`, `link-uncap`, `link-delay MS` (`LinkCommand.parse`).
    case link(LinkCommand)
    /// `quit`: end cleanly.
    case quit
    /// An interruption from the server's side, on the demo's embedded relay: `server-restart [D]`,
    /// `server-busy [D]`, `server-stall [D]`, `server-move` (`ServerCommand.parse`).
    case server(ServerCommand)
    /// A capture device lost or back: `camera-lost`, `camera-back`, `mic-lost`, `mic-back` (docs/devices.md).
    case device(DeviceCommand)
    /// `reconnect N`: one destination of `onair publish URL URL …` drops its connection and publishes again
    /// at once, its backoff reset; the others are not touched (docs/multi-destination.md). Output 1 is the
    /// publisher's own connection, so `reconnect 1` is `reconnect`.
    case reconnectOutput(Int)
    /// A server command on the embedded relay of output N ≥ 2 (`server-stall 30s 2`): the demo runs a relay per
    /// destination it was given no `--server` for (a scenario's `outputs 2`). Output 1's is `.server`.
    case outputServer(ServerCommand, output: Int)
    /// `output-stop N` / `output-start N`: one destination (2…N) leaves the broadcast or joins it again; the
    /// others are not touched. Output 1 is the publisher's own connection: its stop and start are `x` and `r`.
    case outputControl(OutputControl, output: Int)
    /// A link command naming output N ≥ 2 (`link-down 2`): understood, and refused with the reason — the
    /// link stage stands in front of output 1 only (`link-down 1` is `link-down`).
    case outputLink(LinkCommand, output: Int)

    /// Every command name, for help texts and error messages.
    public static let names: [String] =
        OperatorAction.allCases.map(\.rawValue) + ["pause-video", "pause-audio", "next-policy", "stop", "start", "play", "stop-play", "sub <gesture>",
           "link-down", "link-up", "handoff [RATE [MS]]", "link-cap RATE", "link-uncap", "link-delay MS", "sub <link command>", "quit",
           "server-restart [D [N]]", "server-busy [D [N]]", "server-stall [D [N]]", "server-move [N]", "reconnect N",
           "output-stop N", "output-start N"]
        + DeviceCommand.allCases.map(\.rawValue)

    /// The command as typed (`call`, `pause-video`, `sub home`), for messages.
    public var name: String {
        switch self {
        case .phone(let action): action.rawValue
        case .publisher(.togglePauseVideo): "pause-video"
        case .publisher(.togglePauseAudio): "pause-audio"
        case .publisher(.nextPolicy): "next-policy"
        case .publisher(.stop): "stop"
        case .publisher(.start): "start"
        case .subscriber(.play): "play"
        case .subscriber(.stop): "stop-play"
        case .subscriberPhone(let action): "sub \(action.rawValue)"
        case .link(let command): command.text
        case .subscriberLink(let command): "sub \(command.text)"
        case .quit: "quit"
        case .server(let command): command.text
        case .device(let command): command.rawValue
        case .reconnectOutput(let index): "reconnect \(index)"
        case .outputServer(let command, let output): "\(command.text) \(output)"
        case .outputControl(let control, let output): "\(control.rawValue) \(output)"
        case .outputLink(let command, let output): "\(command.text) \(output)"
        }
    }

    /// Parses one command name (case-insensitive, surrounding blanks ignored); nil when unknown or when a
    /// link command's value is bad (`linkError(in:)` says why).
    public init?(_ text: some StringProtocol) {
        var word = Self.trimmed(text).lowercased()
        if let (server, output) = try? ServerCommand.parseAddressed(word) {
            self = output == 1 ? .server(server) : .outputServer(server, output: output)
            return
        }
        if let (link, output) = try? LinkCommand.parseAddressed(word) {
            self = output == 1 ? .link(link) : .outputLink(link, output: output)
            return
        }
        if let rest = Self.subscriberRest(word) {
            word = rest
            if let link = try? LinkCommand.parse(word) {
                self = .subscriberLink(link)
                return
            }
            guard let action = OperatorAction(rawValue: word) else { return nil }
            self = .subscriberPhone(action)
            return
        }
        if let action = OperatorAction(rawValue: word) {
            self = .phone(action)
            return
        }
        if let index = Self.outputIndex(word, after: "reconnect ") {
            self = .reconnectOutput(index)
            return
        }
        for control in OutputControl.allCases {
            if let index = Self.outputIndex(word, after: control.rawValue + " ") {
                self = .outputControl(control, output: index)
                return
            }
        }
        switch word {
        case "pause-video": self = .publisher(.togglePauseVideo)
        case "pause-audio": self = .publisher(.togglePauseAudio)
        case "next-policy": self = .publisher(.nextPolicy)
        case "stop": self = .publisher(.stop)
        case "start", "reconnect": self = .publisher(.start(nil))
        case "play": self = .subscriber(.play)
        case "stop-play": self = .subscriber(.stop)
        case "quit", "q": self = .quit
        default:
            guard let device = DeviceCommand(rawValue: word) else { return nil }
            self = .device(device)
        }
    }
}

extension OperatorCommand {
    /// Why a line that starts with a link command's word is not one (`link-cap 9`: not a rate), or nil.
    public static func linkError(in text: some StringProtocol) -> String? {
        var line = trimmed(text).lowercased()
        if let rest = subscriberRest(line) { line = rest }
        do {
            _ = try ServerCommand.parseAddressed(line)
            _ = try LinkCommand.parseAddressed(line)
            return nil
        } catch let error as ServerCommand.ParseError {
            return error.description
        } catch {
            return "\(error)"
        }
    }

    /// What follows `sub ` or `subscriber ` (the subscriber's side in `onair demo`), trimmed; nil when the
    /// line does not name the subscriber. The one place that prefix is read.
    static func subscriberRest(_ line: String) -> String? {
        for prefix in ["sub ", "subscriber "] where line.hasPrefix(prefix) { return trimmed(line.dropFirst(prefix.count)) }
        return nil
    }

    /// The output number after `word` (`reconnect 2` → 2): ASCII digits only, at most 4 of them (no
    /// broadcast has 10 000 destinations; a longer number is no command rather than an overflow).
    static func outputIndex(_ line: String, after word: String) -> Int? {
        guard line.hasPrefix(word) else { return nil }
        let digits = trimmed(line.dropFirst(word.count))
        guard (1...4).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }

    /// `text` without the blanks around it (the core has no Foundation to trim with).
    static func trimmed(_ text: some StringProtocol) -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(text.drop(while: isBlank).reversed().drop(while: isBlank).reversed())
    }
}
