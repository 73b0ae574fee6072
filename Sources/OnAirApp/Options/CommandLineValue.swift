/// Parses command-line values that the engine does not own (durations), with one-line errors.
/// Sizes and bitrates are parsed by `MediaEngineConfiguration.fromCommandLine`.
public enum CommandLineValue {
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// A positive number of seconds as a `Duration`.
    public static func seconds(_ value: Double, option: String) throws(Invalid) -> Duration {
        guard value.isFinite, value > 0, value < 86_400 * 365 else {
            throw Invalid(description: "\(option): expected a positive number of seconds, got \(value)")
        }
        return .milliseconds(Int64(value * 1000))
    }
}
