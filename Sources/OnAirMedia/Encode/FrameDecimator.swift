/// Which captured pictures to encode when the target frame rate is below the source's: evenly spread, by
/// a running credit (15 of 30 keeps every other one, 20 of 30 keeps two of three), the first kept; a target
/// of 0 keeps none (audio-only).
struct FrameDecimator: Sendable, Equatable {
    private let share: Double
    private var credit: Double

    init(sourceFramesPerSecond: Double, targetFramesPerSecond: Double) {
        guard sourceFramesPerSecond > 0, targetFramesPerSecond.isFinite else {
            share = 1
            credit = 1
            return
        }
        share = min(1, max(0, targetFramesPerSecond / sourceFramesPerSecond))
        credit = share > 0 ? 1 : 0
    }

    /// True when this picture is to be encoded.
    mutating func admit() -> Bool {
        guard share < 1 else { return true }
        // A hair under 1 counts as 1: thirds do not add up exactly in binary.
        if credit >= 1 - 1e-9 {
            credit -= 1
            credit += share
            return true
        }
        credit += share
        return false
    }
}
