/// Finds the tone's once-a-second silence (``ToneSource/marksSeconds``) in decoded audio, and says at which
/// stream time it began.
///
/// Why a run of quiet samples between loud ones: AAC smears the gap's edges over a few ms and keeps a little
/// noise inside it, so the start is the first sample under a threshold well below the tone; requiring tone
/// before and after, and a length near the gap's, keeps paused (silent) audio and quiet passages out.
public struct ToneGapDetector: Sendable, Equatable {
    /// |sample| below this (full scale 1.0) is quiet: 22 dB under the test tone's 0.25 peak — low enough
    /// to skip AAC's smeared edges, high enough that the start lands within a millisecond (ToneMarkTests).
    static let quietLevel: Float = 0.02
    static let shortest = 0.004
    static let longest = 0.016
    /// The tone must have sounded this long before the gap.
    static let toneBefore = 0.005

    private var loudRun = 0.0
    private var quietStart: Double?
    private var quietRun = 0.0
    private var toneBeforeQuiet = false

    public init() {}

    /// Feeds samples starting at stream time `firstMilliseconds`; returns the stream time (ms) of a gap's
    /// start once the gap has ended, if one did in these samples.
    public mutating func feed(_ samples: UnsafeBufferPointer<Float>, firstMilliseconds: Double, sampleRate: Double) -> Double? {
        guard sampleRate > 0 else { return nil }
        let step = 1 / sampleRate
        var found: Double?
        for (index, sample) in samples.enumerated() {
            if abs(sample) < Self.quietLevel {
                if quietStart == nil {
                    quietStart = firstMilliseconds + Double(index) * step * 1000
                    quietRun = 0
                    toneBeforeQuiet = loudRun >= Self.toneBefore
                }
                quietRun += step
                continue
            }
            if let start = quietStart {
                if quietRun >= Self.shortest {
                    if toneBeforeQuiet, quietRun <= Self.longest { found = start }
                    loudRun = 0
                } else {
                    // A zero crossing of the tone: a sample or two of quiet, not a gap.
                    loudRun += quietRun
                }
                quietStart = nil
            }
            loudRun += step
        }
        return found
    }
}
