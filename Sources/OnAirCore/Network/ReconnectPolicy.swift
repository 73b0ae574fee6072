/// When to try again after a publisher's connection drops: a pure value with OBS's defaults.
///
/// The numbers and the shape come from OBS Studio, `libobs/obs-output.c`:
/// - `obs_output_create`: `reconnect_retry_sec = 2`, `reconnect_retry_max = 20`,
///   `reconnect_retry_exp = RECONNECT_RETRY_BASE_EXP + rand_float(0) * 0.05f` with
///   `RECONNECT_RETRY_BASE_EXP 1.5f` — the jitter lives in the growth factor and is drawn once per output,
///   so many outputs that lost the same server spread out instead of retrying in lock-step.
/// - `output_reconnect`: the first attempt waits `reconnect_retry_sec`; each later one multiplies the
///   previous delay by the factor (truncated to whole milliseconds, as OBS's `uint32_t` is), capped at
///   `RECONNECT_RETRY_MAX_MSEC (15 * 60 * 1000)`; after `reconnect_retry_max` attempts the output stops
///   with `OBS_OUTPUT_DISCONNECTED`.
///
/// The value never reads a clock or a random source of its own: the jitter comes from the generator (or
/// unit value) handed to `init`, so tests get exact delays, and the owner turns each delay into a timer.
public struct ReconnectPolicy: Sendable, Equatable {
    /// The knobs, defaulting to OBS's.
    public struct Configuration: Sendable, Equatable {
        /// OBS `reconnect_retry_sec`.
        public var firstDelay: Duration
        /// OBS `RECONNECT_RETRY_BASE_EXP`.
        public var growthFactor: Double
        /// The most jitter added to the growth factor (OBS: `rand_float(0) * 0.05f`).
        public var jitterSpread: Double
        /// OBS `RECONNECT_RETRY_MAX_MSEC`.
        public var maxDelay: Duration
        /// OBS `reconnect_retry_max`; 0 turns reconnecting off.
        public var maxAttempts: Int

        public init(
            firstDelay: Duration = .seconds(2),
            growthFactor: Double = 1.5,
            jitterSpread: Double = 0.05,
            maxDelay: Duration = .seconds(15 * 60),
            maxAttempts: Int = 20
        ) {
            self.firstDelay = firstDelay
            self.growthFactor = growthFactor
            self.jitterSpread = jitterSpread
            self.maxDelay = maxDelay
            self.maxAttempts = maxAttempts
        }

        public static let obsDefaults = Configuration()
    }

    /// One scheduled attempt: its number (1-based) and how long to wait before it.
    public struct Attempt: Sendable, Equatable {
        public var number: Int
        public var delay: Duration

        public init(number: Int, delay: Duration) {
            self.number = number
            self.delay = delay
        }
    }

    public let configuration: Configuration
    /// The growth factor with its jitter, fixed for this policy's lifetime as OBS fixes it per output.
    public let factor: Double
    /// Attempts handed out since the last `reset()`.
    public private(set) var attemptsMade = 0
    private var lastDelayMilliseconds: Int64 = 0

    /// A policy whose jitter is `jitterUnit` (clamped to 0…1) of `configuration.jitterSpread`.
    public init(configuration: Configuration = .obsDefaults, jitterUnit: Double) {
        self.configuration = configuration
        self.factor = configuration.growthFactor + min(max(jitterUnit, 0), 1) * configuration.jitterSpread
    }

    /// A policy whose jitter is drawn once from `generator` (OBS draws it once in `obs_output_create`).
    public init<Generator: RandomNumberGenerator>(configuration: Configuration = .obsDefaults, using generator: inout Generator) {
        self.init(configuration: configuration, jitterUnit: Double.random(in: 0...1, using: &generator))
    }

    /// True once every attempt has been handed out.
    public var isExhausted: Bool { attemptsMade >= configuration.maxAttempts }

    /// The next attempt, or nil when there are none left (the caller reports a final error).
    public mutating func nextAttempt() -> Attempt? {
        guard !isExhausted else { return nil }
        let cap = configuration.maxDelay.wholeMilliseconds
        let delay: Int64
        if attemptsMade == 0 {
            delay = min(configuration.firstDelay.wholeMilliseconds, cap)
        } else {
            delay = min(Int64(Double(lastDelayMilliseconds) * factor), cap)
        }
        lastDelayMilliseconds = delay
        attemptsMade += 1
        return Attempt(number: attemptsMade, delay: .milliseconds(delay))
    }

    /// Forgets past attempts: the next loss starts again from `firstDelay` (OBS resets when it is not
    /// already reconnecting).
    public mutating func reset() {
        attemptsMade = 0
        lastDelayMilliseconds = 0
    }
}
