/// The rule for link commands, shared by the console's keys, headless stdin and scenario presses: a link
/// command acts on the impairment stage, so it is always accepted while one stands between the side and
/// its server, and refused with the reason when there is none (`onair publish` without `--link-*`, which
/// connects straight to the server; rtmps://; `onair subscribe`).
extension LinkCommand {
    /// Why `self` would do nothing, given the stage's state (nil: no stage); nil when it acts.
    public func refusal(stage: LinkImpairmentState?) -> String? {
        guard stage == nil else { return nil }
        return "\(word): no link stage here (publish to rtmp:// with --link-cap or --link-delay, e.g. --link-delay 0, to rehearse the link; the demo has one)"
    }

    /// The command's first word as typed: `link-down`, `handoff`, …
    public var word: String {
        switch self {
        case .down: "link-down"
        case .up: "link-up"
        case .handoff: "handoff"
        case .cap: "link-cap"
        case .uncap: "link-uncap"
        case .delay: "link-delay"
        }
    }

    /// The whole command as typed, for logs: `link-cap 800k`, `handoff 300k 120`.
    public var text: String {
        switch self {
        case .down, .up, .uncap: word
        case let .cap(bitsPerSecond): "link-cap \(LinkCommand.rateText(bitsPerSecond))"
        case let .delay(delay): "link-delay \(delay.wholeMilliseconds)"
        case let .handoff(cap, delay):
            ([word] + [cap.map(LinkCommand.rateText), delay.map { "\($0.wholeMilliseconds)" }].compactMap { $0 }).joined(separator: " ")
        }
    }

    /// The console's cap key walks these: none, then a weak Wi-Fi, a weak cellular signal, a bad one. The
    /// middle one bites the default test pattern, which codes at 620–780 kbit/s (800k did not).
    public static let capPresets: [Int?] = [nil, 2_500_000, 500_000, 250_000]

    /// The cap preset after `current` (the first when `current` is not a preset).
    public static func nextCapPreset(after current: Int?) -> LinkCommand {
        let index = capPresets.firstIndex(of: current).map { ($0 + 1) % capPresets.count } ?? 1
        return capPresets[index].map { .cap(bitsPerSecond: $0) } ?? .uncap
    }
}

extension LinkImpairmentState {
    /// The dashboard's words: `DOWN`, `up`, `800k 150ms`, `800k path 1` (after a handoff).
    public var dashboardText: String {
        guard isUp else { return "DOWN" }
        var words: [String] = []
        if let capBitsPerSecond { words.append(LinkCommand.rateText(capBitsPerSecond)) }
        if delay > .zero { words.append("\(delay.wholeMilliseconds)ms") }
        if path > 0 { words.append("path \(path)") }
        return words.isEmpty ? "up" : words.joined(separator: " ")
    }
}
