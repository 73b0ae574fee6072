import OnAirCore

/// A scenario file (README, "Scenario files"): a few settings, then timed key presses and expectations,
/// played against a real publisher and subscriber by `onair demo --script FILE`.
///
/// The value is what ``ScenarioParser`` read; it holds no I/O and no clock, so the format can be tested
/// and fuzzed on its own and the same scenario can be played headless, in the console, or against nginx-rtmp.
public struct Scenario: Sendable, Equatable {
    /// The file the scenario came from, for messages (`Scenarios/blog-2.scenario:14: …`).
    public var source: String
    /// The `scenario` line, or the file name when there is none.
    public var title: String
    public var settings: ScenarioSettings
    public var steps: [ScenarioStep]

    public init(source: String, title: String, settings: ScenarioSettings = ScenarioSettings(), steps: [ScenarioStep] = []) {
        self.source = source
        self.title = title
        self.settings = settings
        self.steps = steps
    }

    /// Every expectation of the scenario, in file order.
    public var expectations: [ScenarioExpectation] {
        steps.compactMap {
            if case .expect(let expectation) = $0.action { return expectation }
            return nil
        }
    }
}

/// The settings lines at the top of a scenario file. Each one the file leaves out keeps the command
/// line's value.
public struct ScenarioSettings: Sendable, Equatable {
    /// `background-video pause|slate`, as `--background-video`.
    public var backgroundVideo: BackgroundVideo?
    public var policy: PublisherPolicyKind?
    /// The publish type of the broadcast the demo starts with (`type record` for the blog's recordings).
    public var publishType: PublishType?
    public var suspendTimeout: Duration?
    public var reconnectDelay: Duration?
    public var stallTimeout: Duration?
    /// What the server must do for the scenario to mean anything (`requires notices`, `requires recording`).
    public var requirements: Set<ScenarioRequirement> = []
    /// `abr off|ladder|throughput`: the publisher's adaptive bitrate (`--compare-abr` overrides it).
    public var abr: AdaptiveBitrateConfiguration.Mode?
    /// `bitrate 2500k`: the publisher's video bitrate (bit/s), the ceiling ABR never exceeds.
    public var bitrate: Int?
    /// `size 1280x720`: the picture the publisher encodes.
    public var size: ScenarioPictureSize?
    /// `fps 30`: the publisher's frame rate.
    public var framesPerSecond: Int?
    /// `video test|grain`: the publisher's synthetic picture (a scenario never names a device or a file).
    public var video: ScenarioVideo?
    /// `outputs N` (2…4): the demo publishes its one broadcast to N destinations, output 1 the relay the
    /// subscriber plays and each further one an embedded relay of its own (issue 30).
    public var outputs: Int?

    public init() {}
}

/// `video test|grain`: the plain test pattern, or the one with moving grain that fills any bitrate (for the
/// network scenarios, whose link must be loaded by what the encoder really produces).
public enum ScenarioVideo: String, Sendable, Equatable, CaseIterable {
    case test, grain
}

/// `size WxH`: even sides, as the encoder takes them.
public struct ScenarioPictureSize: Sendable, Equatable {
    public var width: Int
    public var height: Int

    /// The largest side accepted: 4K, so a typo cannot ask for a picture that exhausts memory.
    static let maximumSide = 4096

    /// `1280x720` → 1280×720; nil unless both sides are even and within 16…4096.
    public init?(_ text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count <= 4 }), let width = Int(parts[0]), let height = Int(parts[1]),
            (16...Self.maximumSide).contains(width), (16...Self.maximumSide).contains(height), width % 2 == 0, height % 2 == 0
        else { return nil }
        self.width = width
        self.height = height
    }

    /// As the command line writes it: `1280x720`.
    public var text: String { "\(width)x\(height)" }
}

/// Something a scenario needs from the server it runs against.
public enum ScenarioRequirement: String, Sendable, Equatable, Hashable, CaseIterable {
    /// The server relays `send()` notices to players (stock nginx-rtmp drops them): the subscriber's
    /// background/foreground toasts and the tap-republish loop depend on it.
    case notices
    /// The embedded relay records into `--record-dir`, where `expect recording …` reads the file.
    case recording
    /// The scenario presses server keys (`server-restart`, …), which act on the embedded relay only.
    case relay
}

/// One line that does something: wait, press a key, or check an expectation.
public struct ScenarioStep: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        /// `wait 2s`: let the broadcast run.
        case wait(Duration)
        /// `press call`, `press sub home`: a headless command, the same names as on stdin, parsed once
        /// here; `typed` is how the line wrote it (for messages and the report).
        case press(OperatorCommand, typed: String)
        case expect(ScenarioExpectation)
    }

    /// 1-based line number in the file.
    public var line: Int
    public var action: Action

    public init(line: Int, action: Action) {
        self.line = line
        self.action = action
    }
}

extension ScenarioStep {
    /// The step as a line of the file would say it.
    public var text: String {
        switch action {
        case .wait(let duration): "wait \(duration.scenarioText)"
        case .press(_, let typed): "press \(typed)"
        case .expect(let expectation): expectation.text
        }
    }
}
