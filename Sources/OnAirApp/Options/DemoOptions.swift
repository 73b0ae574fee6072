import Foundation
import OnAirCore

/// What `onair demo` was asked to do.
public struct DemoOptions: Sendable {
    /// An external server to use instead of the embedded relay.
    public var server: String?
    /// Outputs 2…N given on the command line (`--server` after the first, `--also-publish`), in order.
    public var furtherServers: [String] = []
    /// How many destinations the broadcast has: 1 + `furtherServers`, or more when a scenario's `outputs N`
    /// asks for more — each further one an embedded relay of its own (`DemoDestinations`).
    public var outputs = 1
    public var stream: String
    public var recordDirectory: String
    public var publisher: PublishOptions
    public var reconnectDelay: Double
    public var stallTimeout: Double
    /// `--compare-abr off,ladder,throughput`: with `--script`, play each scenario once per mode, in this
    /// order, so `--report` shows them side by side (empty: once, with the scenario's or `--abr`'s mode).
    public var compareABR: [AdaptiveBitrateConfiguration.Mode]

    public init(
        server: String? = nil,
        stream: String = "stream1",
        recordDirectory: String = "recordings",
        publisher: PublishOptions,
        reconnectDelay: Double = 2,
        stallTimeout: Double = 3,
        compareABR: [AdaptiveBitrateConfiguration.Mode] = []
    ) {
        self.server = server
        self.stream = stream
        self.recordDirectory = recordDirectory
        self.publisher = publisher
        self.reconnectDelay = reconnectDelay
        self.stallTimeout = stallTimeout
        self.compareABR = compareABR
    }

    /// `off,ladder,throughput` → the modes, in order, each once; a word that is not a mode is a usage error.
    public static func abrModes(_ text: String) throws -> [AdaptiveBitrateConfiguration.Mode] {
        var modes: [AdaptiveBitrateConfiguration.Mode] = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = word.trimmingCharacters(in: .whitespaces).lowercased()
            guard let mode = AdaptiveBitrateConfiguration.Mode(rawValue: name) else {
                let modes = AdaptiveBitrateConfiguration.Mode.allCases.map(\.rawValue).joined(separator: ",")
                throw FrontEndExit(code: 2, message: "onair demo: --compare-abr '\(text)': '\(name)' is not an ABR mode; write modes from \(modes), e.g. off,throughput")
            }
            if !modes.contains(mode) { modes.append(mode) }
        }
        return modes
    }
}
